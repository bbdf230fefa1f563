// SPDX-License-Identifier: GPL-2.0

//! Counter arithmetic: deltas of counters of any width across wrap, exact
//! 64-bit accumulation, and tear-free reads of counters read in halves.

use super::bits::low_mask;

/// The increase of a `width`-bit counter from `prev` to `now`, assuming it
/// wrapped at most once. Bits above `width` are ignored.
pub const fn delta(prev: u64, now: u64, width: u32) -> u64 {
    now.wrapping_sub(prev) & low_mask(width)
}

/// The increase of a `width`-bit counter from `prev` to `now` when its
/// overflow status says whether it wrapped since `prev` was read: with
/// `overflowed`, exactly one wrap (`2^width - prev + now`, even when `now`
/// has passed `prev` again); without, no wrap (`now - prev`, and a smaller
/// `now` can only be a wrap the status has not caught yet, so it is taken as
/// one).
pub const fn delta_with_status(prev: u64, now: u64, width: u32, overflowed: bool) -> u64 {
    let m = low_mask(width);
    let (prev, now) = (prev & m, now & m);
    if overflowed {
        // A 64-bit counter's wrap is not representable: its increase is
        // taken modulo 2^64.
        (m - prev).wrapping_add(now).wrapping_add(1)
    } else {
        now.wrapping_sub(prev) & m
    }
}

/// Reads a 64-bit counter exposed as two 32-bit halves (PCI configuration
/// dwords) so that a carry from the low half between the two reads cannot
/// produce a torn value: the high half is read before and after the low
/// half, and the pair is retried until the high half is stable.
pub fn read_split<E>(
    mut read_lo: impl FnMut() -> Result<u32, E>,
    mut read_hi: impl FnMut() -> Result<u32, E>,
) -> Result<u64, E> {
    let mut hi = read_hi()?;
    // Two retries suffice: a second carry needs 2^32 events between reads.
    for _ in 0..3 {
        let lo = read_lo()?;
        let hi2 = read_hi()?;
        if hi2 == hi {
            return Ok(u64::from(hi) << 32 | u64::from(lo));
        }
        hi = hi2;
    }
    // The high half keeps changing: return the last consistent-looking
    // pair (low read after the last high read).
    let lo = read_lo()?;
    Ok(u64::from(hi) << 32 | u64::from(lo))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn delta_across_wrap() {
        assert_eq!(delta(0xfff_ffff_fff0, 0x10, 44), 0x20);
        assert_eq!(delta(0xffff_ffff_fff0, 0x10, 48), 0x20);
        assert_eq!(delta(0xffff_fff0, 0x10, 32), 0x20);
        assert_eq!(delta(5, 5, 48), 0);
        assert_eq!(delta(0, 0xffff_ffff_ffff, 48), 0xffff_ffff_ffff);
    }

    proptest! {
        #[test]
        fn delta_recovers_any_increment_below_the_wrap(start in any::<u64>(), inc in any::<u64>(), w in prop::sample::select(&[32u32, 44, 48, 64][..])) {
            let inc = inc & low_mask(w);
            let prev = start & low_mask(w);
            let now = prev.wrapping_add(inc) & low_mask(w);
            prop_assert_eq!(delta(prev, now, w), inc);
        }

        #[test]
        fn accumulation_is_exact(start in any::<u64>(), incs in proptest::collection::vec(0u64..(1 << 44), 1..50)) {
            let w = 44;
            let mut hw = start & low_mask(w);
            let mut prev = hw;
            let mut total = 0u64;
            for i in &incs {
                hw = (hw + i) & low_mask(w);
                total = total.wrapping_add(delta(prev, hw, w));
                prev = hw;
            }
            prop_assert_eq!(total, incs.iter().sum::<u64>());
        }
    }

    #[test]
    fn overflow_status_accounts_exactly_one_wrap() {
        let w = 48;
        let max = low_mask(w);
        // Wrapped and passed prev again: the status tells.
        assert_eq!(delta_with_status(10, 20, w, true), (1 << 48) + 10);
        assert_eq!(delta_with_status(max - 5, 3, w, true), 9);
        assert_eq!(delta_with_status(5, 9, w, false), 4);
        // A wrap the status has not shown yet is still one wrap.
        assert_eq!(delta_with_status(max - 5, 3, w, false), 9);
    }

    proptest! {
        #[test]
        fn status_accounting_is_exact_for_any_increment_up_to_one_wrap(prev in 0u64..(1 << 48), inc in 0u64..=(1 << 48)) {
            let w = 48;
            let now = (prev + inc) & low_mask(w);
            let wrapped = prev + inc > low_mask(w);
            prop_assert_eq!(delta_with_status(prev, now, w, wrapped), inc);
        }
    }

    #[test]
    fn split_read_does_not_tear_on_carry() {
        // The counter is 0x1_ffff_ffff; it increments to 0x2_0000_0000 right
        // after the first high read.
        let mut value: u64 = 0x1_ffff_ffff;
        let mut reads = 0;
        let v = core::cell::Cell::new(value);
        let r: Result<u64, ()> = read_split(
            || Ok(v.get() as u32),
            || {
                reads += 1;
                let hi = (v.get() >> 32) as u32;
                if reads == 1 {
                    value += 1;
                    v.set(value);
                }
                Ok(hi)
            },
        );
        let got = r.unwrap();
        assert!(
            got == 0x1_ffff_ffff || got == 0x2_0000_0000,
            "torn read {:#x}",
            got
        );
        assert_eq!(got, 0x2_0000_0000);
    }
}

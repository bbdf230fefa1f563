// SPDX-License-Identifier: GPL-2.0

//! The routing check against U-boxes that number cores in every way the
//! simulation's `route` can: as the driver does, sparse, permuted, some
//! cores unreachable, none, and an NMI of another source that sees a
//! probe's PMI first.

use super::*;
use std::vec::Vec;

/// `pmi_core_sel`'s ten bits.
const FIELD: u64 = 0x3ff;

/// A U-box whose bit `b` reaches core `route[b]`; counts the probes.
fn uncore(route: &[Option<u32>]) -> impl FnMut(u8) -> Option<u32> + '_ {
    move |bit| route.get(usize::from(bit)).copied().flatten()
}

fn probes(ranked: &[u32], reachable: u16, route: &[Option<u32>]) -> (Verdict, Vec<u8>) {
    let mut tried = Vec::new();
    let mut u = uncore(route);
    let v = Check::new(ranked, reachable, FIELD).run(|b| {
        tried.push(b);
        u(b)
    });
    (v, tried)
}

#[test]
fn the_drivers_numbering_is_verified() {
    // Cores 0 and 1 (ranks 0, 1) reached by bits 0 and 1, each probed twice.
    let (v, tried) = probes(&[0, 1], 0b11, &[Some(0), Some(1)]);
    assert_eq!(v, Verdict::Verified);
    assert_eq!(tried, [0, 0, 1, 1]);
    // Sparse core IDs (Nehalem-EX's 0-3, 8-11): the ranks are what count.
    let ids = [0, 1, 2, 3, 8, 9, 10, 11];
    let route: Vec<_> = ids.iter().map(|&c| Some(c)).collect();
    let (v, tried) = probes(&ids, 0xff, &route);
    assert_eq!(v, Verdict::Verified);
    assert_eq!(tried.len(), 16, "two probes for each of the eight bits");
}

#[test]
fn a_permuted_numbering_is_learned() {
    let (v, _) = probes(&[0, 1], 0b11, &[Some(1), Some(0)]);
    let Verdict::Learned(m) = v else {
        panic!("{:?}", v)
    };
    assert_eq!((m.bit_of(0), m.bit_of(1), m.len()), (Some(1), Some(0), 2));
}

#[test]
fn bits_past_the_cores_are_learned_and_unreached_bits_skipped() {
    // Bits 0 and 1 reach no core (cores fused off): cores 0 and 1 are bits
    // 2 and 3. Each silent bit costs one probe (one wait).
    let (v, tried) = probes(&[0, 1], 0b11, &[None, None, Some(0), Some(1)]);
    let Verdict::Learned(m) = v else {
        panic!("{:?}", v)
    };
    assert_eq!((m.bit_of(0), m.bit_of(1)), (Some(2), Some(3)));
    assert_eq!(tried, [0, 1, 2, 2, 3, 3]);
}

#[test]
fn no_pmi_anywhere_means_polling_after_the_whole_field() {
    let (v, tried) = probes(&[0, 1], 0b11, &[]);
    assert_eq!(v, Verdict::Polling);
    assert_eq!(tried, (0..10).collect::<Vec<u8>>(), "each bit once");
}

#[test]
fn an_unreachable_core_is_not_waited_for() {
    // Core 1's CPUs are offline: the check ends once core 0 is found by
    // its rank's bit, which verifies the numbering for what it can see.
    let (v, tried) = probes(&[0, 1], 0b01, &[Some(0), None]);
    assert_eq!(tried, [0, 0]);
    assert_eq!(v, Verdict::Verified);
    // Permuted: core 0 (online) is bit 1; the map has only it (core 1, if
    // it comes online, gets no PMIs: polled).
    let (v, tried) = probes(&[0, 1], 0b01, &[None, Some(0)]);
    assert_eq!(tried, [0, 1, 1]);
    let Verdict::Learned(m) = v else {
        panic!("{:?}", v)
    };
    assert_eq!((m.bit_of(0), m.bit_of(1), m.len()), (Some(1), None, 1));
}

#[test]
fn a_bit_that_reaches_two_cores_means_polling() {
    // The first probe of bit 0 was seen by core 1 (an NMI of another
    // source there saw the PMI first), the second by core 0: nothing
    // about the routing can be trusted.
    let mut n = 0;
    let v = Check::new(&[0, 1], 0b11, FIELD).run(|b| {
        n += 1;
        match (b, n) {
            (0, 1) => Some(1),
            (0, _) => Some(0),
            _ => Some(u32::from(b)),
        }
    });
    assert_eq!(v, Verdict::Polling);
    assert_eq!(n, 2, "the check stops at the conflict");
}

#[test]
fn a_core_outside_the_package_is_no_hit() {
    // Core 7 is not one of the package's: as if no PMI arrived.
    let (v, tried) = probes(&[0, 1], 0b11, &[Some(7), Some(0), Some(1)]);
    assert_eq!(tried, [0, 1, 1, 2, 2]);
    assert!(matches!(v, Verdict::Learned(m) if m.bit_of(0) == Some(1) && m.bit_of(1) == Some(2)));
}

#[test]
fn the_check_is_bounded_for_any_answer() {
    // Whatever the probes answer, the check ends within two probes per
    // bit of the field.
    for seed in 0u32..500 {
        let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
        let mut n = 0;
        let _ = Check::new(&[0, 1, 2, 3], 0b1111, FIELD).run(|_| {
            n += 1;
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x % 6 < 5).then_some(x % 5)
        });
        assert!(n <= 20, "seed {}: {} probes", seed, n);
    }
}

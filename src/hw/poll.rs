// SPDX-License-Identifier: GPL-2.0

//! Polling intervals.
//!
//! A counter read at least once per wrap period can never wrap twice
//! unseen, so the modular delta (see `counter`) stays exact. The wrap
//! period of a `w`-bit counter is `2^w / (clock * max_inc)`, from each box
//! type's fastest clock and largest per-cycle increment (its [`Rate`]). The
//! timer runs at half that period, to leave room for a late timer and for
//! interrupts held off, and at most every [`MAX_INTERVAL_NS`].
//!
//! Resulting intervals (4 GHz uncore clock bound): 44-bit counters adding up
//! to 20 per cycle (SNB-EP C-box counter 0) wrap after 220 s, so the 60 s
//! cap applies; 48-bit counters adding 64 per cycle (S-box, QPI, HA) wrap
//! after 1100 s; the Skylake IMC's 32-bit counters at 600 M lines/s wrap
//! after 7.2 s and are read every 3.6 s; the Xeon 7100/7400 32-bit counters
//! at 3.5 GHz wrap after 1.2 s and are read every 0.6 s.

use super::desc::{BoxType, Rate};

/// Longest polling interval (the Linux driver's 60 s).
pub const MAX_INTERVAL_NS: u64 = 60_000_000_000;
/// Shortest polling interval the driver will use.
pub const MIN_INTERVAL_NS: u64 = 10_000_000;

/// Nanoseconds until a `width`-bit counter advancing at `rate` wraps.
/// (64-bit arithmetic only: the kernel has no 128-bit division.)
pub fn wrap_period_ns(width: u32, rate: Rate) -> u64 {
    // Increments per microsecond.
    let per_us = (rate.clock_mhz.max(1) as u64).saturating_mul(rate.max_inc.max(1) as u64);
    let span = 1u64 << width.min(63);
    if width <= 53 {
        span * 1000 / per_us
    } else {
        (span / per_us).saturating_mul(1000)
    }
}

/// The polling interval of a box type: half the shortest wrap period of its
/// counters (the fixed counter advances by one per clock), clamped to
/// [`MIN_INTERVAL_NS`, `MAX_INTERVAL_NS`].
pub fn interval_ns(t: &BoxType) -> u64 {
    let mut p = wrap_period_ns(t.ctr_bits as u32, t.rate);
    if let Some(f) = t.fixed {
        p = p.min(wrap_period_ns(
            f.bits as u32,
            Rate {
                max_inc: 1,
                ..t.rate
            },
        ));
    }
    (p / 2).clamp(MIN_INTERVAL_NS, MAX_INTERVAL_NS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hw::platforms::{self, ALL};

    #[test]
    fn intervals_quoted_in_the_docs() {
        let skl = platforms::skl::SKL.box_type("imc").unwrap();
        let w = wrap_period_ns(32, skl.rate);
        assert!((7_100_000_000..7_200_000_000).contains(&w), "{}", w);
        assert_eq!(interval_ns(skl), w / 2);
        let cbox = platforms::snbep::SNBEP.box_type("cbox").unwrap();
        assert!(wrap_period_ns(44, cbox.rate) > 200_000_000_000);
        assert_eq!(interval_ns(cbox), MAX_INTERVAL_NS);
        let gbsq = platforms::l3::XEON7100.box_type("gbsq").unwrap();
        assert!((600_000_000..620_000_000).contains(&interval_ns(gbsq)));
    }

    #[test]
    fn no_counter_can_wrap_twice_between_polls() {
        for p in ALL {
            for t in p.types {
                let i = interval_ns(t);
                assert!(
                    2 * i <= wrap_period_ns(t.ctr_bits as u32, t.rate),
                    "{}/{}",
                    p.name,
                    t.name
                );
                assert!(i >= MIN_INTERVAL_NS);
            }
        }
    }
}

// SPDX-License-Identifier: GPL-2.0

//! Polling intervals.
//!
//! A counter read at least once per wrap period can never wrap twice
//! unseen, so the modular delta (see `counter`) stays exact. The wrap
//! period of a `w`-bit counter is `2^w / (clock * max_inc)`, from each box
//! type's fastest clock and largest per-cycle increment (its [`Rate`]).
//!
//! The timer runs a lateness budget before the wrap: reads stay exact as
//! long as the timer fires at most [`late_budget_ns`] after its expiry,
//! an eighth of the wrap period but at least [`MIN_LATE_NS`] (and never
//! more than half of it). The interval is the wrap period less that budget,
//! clamped to [[`MIN_INTERVAL_NS`], [`MAX_INTERVAL_NS`]].
//!
//! Resulting intervals (4 GHz uncore clock bound): 44-bit counters adding up
//! to 20 per cycle (SNB-EP C-box counter 0) wrap after 220 s and are read
//! every 192 s; 48-bit counters adding 64 per cycle (S-box, QPI, HA) wrap
//! after 1100 s and are read every 962 s; the Skylake IMC's 32-bit counters
//! at 734 M lines/s wrap after 5.85 s and are read every 5.12 s; the Xeon
//! 7100/7400 32-bit counters at 3.5 GHz wrap after 1.23 s and are read
//! every 0.73 s. The Linux driver reads every 60 s, and the client IMC
//! every 5 s.

use super::desc::{BoxType, Rate};

/// Longest polling interval: an hour (a bound on the timer, not on any
/// counter's safety).
pub const MAX_INTERVAL_NS: u64 = 3_600_000_000_000;
/// Smallest lateness budget: a timer late by less than this never loses a
/// wrap (hard interrupts held off for half a second are a broken system).
pub const MIN_LATE_NS: u64 = 500_000_000;
/// Shortest polling interval the driver will use.
pub const MIN_INTERVAL_NS: u64 = 10_000_000;

/// Nanoseconds until a `width`-bit counter advancing at `rate` wraps.
/// (64-bit arithmetic only: the kernel has no 128-bit division.)
pub fn wrap_period_ns(width: u32, rate: Rate) -> u64 {
    // Increments per microsecond.
    let per_us = u64::from(rate.clock_mhz.max(1)).saturating_mul(u64::from(rate.max_inc.max(1)));
    let span = 1u64 << width.min(63);
    if width <= 53 {
        span * 1000 / per_us
    } else {
        (span / per_us).saturating_mul(1000)
    }
}

/// How late the timer of a counter that wraps after `wrap_ns` may fire
/// without losing a wrap: an eighth of the period, at least
/// [`MIN_LATE_NS`], at most half the period.
pub fn late_budget_ns(wrap_ns: u64) -> u64 {
    (wrap_ns / 8).max(MIN_LATE_NS).min(wrap_ns / 2)
}

/// The polling interval of a box type: its shortest wrap period (the fixed
/// counter advances by one per clock) less the lateness budget, clamped to
/// [`MIN_INTERVAL_NS`, `MAX_INTERVAL_NS`].
pub fn interval_ns(t: &BoxType) -> u64 {
    let p = shortest_wrap_ns(t);
    (p - late_budget_ns(p)).clamp(MIN_INTERVAL_NS, MAX_INTERVAL_NS)
}

/// The shortest wrap period among a box type's counters.
pub fn shortest_wrap_ns(t: &BoxType) -> u64 {
    let mut p = wrap_period_ns(u32::from(t.ctr_bits), t.rate);
    if let Some(f) = t.fixed {
        p = p.min(wrap_period_ns(
            u32::from(f.bits),
            Rate {
                max_inc: 1,
                ..t.rate
            },
        ));
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hw::desc::{BoxKind, PlatformId};
    use crate::hw::platforms::{self, ALL};

    const S: u64 = 1_000_000_000;

    #[test]
    fn intervals_quoted_in_the_docs() {
        let skl = platforms::skl::SKL.type_of(BoxKind::Imc).unwrap().1;
        let w = wrap_period_ns(32, skl.rate);
        assert!((5_800 * S / 1000..5_900 * S / 1000).contains(&w), "{}", w);
        assert_eq!(interval_ns(skl), w - w / 8);
        let cbox = platforms::snbep::SNBEP.type_of(BoxKind::Cbox).unwrap().1;
        assert!((219 * S..220 * S).contains(&wrap_period_ns(44, cbox.rate)));
        assert!((192 * S..193 * S).contains(&interval_ns(cbox)));
        let gbsq = platforms::l3::XEON7100.type_of(BoxKind::Gbsq).unwrap().1;
        let w = shortest_wrap_ns(gbsq);
        assert_eq!(interval_ns(gbsq), w - MIN_LATE_NS);
        assert!((720 * S / 1000..740 * S / 1000).contains(&interval_ns(gbsq)));
    }

    #[test]
    fn no_counter_can_wrap_twice_between_polls() {
        for p in ALL {
            for t in p.types {
                let i = interval_ns(t);
                let w = wrap_period_ns(u32::from(t.ctr_bits), t.rate);
                // The timer may be late by the budget and still read
                // within one wrap period, and the budget is at least an
                // eighth of the period, or half a second.
                let late = w - i;
                assert!(
                    late >= late_budget_ns(shortest_wrap_ns(t)),
                    "{}/{}",
                    p.name,
                    t.name()
                );
                assert!(late >= (w / 8).min(MIN_LATE_NS), "{}/{}", p.name, t.name());
                assert!(i >= MIN_INTERVAL_NS);
            }
        }
    }

    /// Every box the Linux driver also polls is polled less often than its
    /// fixed intervals: 5 s for the Skylake IMC, 60 s for the others.
    #[test]
    fn fewer_wakeups_than_the_linux_driver() {
        for p in ALL {
            if p.name.starts_with("xeon7") {
                continue;
            }
            for t in p.types {
                let linux = if p.id == PlatformId::SKYLAKE && t.kind == BoxKind::Imc {
                    5 * S
                } else {
                    60 * S
                };
                assert!(
                    interval_ns(t) > linux,
                    "{}/{}: {}",
                    p.name,
                    t.name(),
                    interval_ns(t)
                );
            }
        }
    }

    #[test]
    fn late_budget_bounds() {
        assert_eq!(late_budget_ns(8 * S), S);
        assert_eq!(late_budget_ns(2 * S), MIN_LATE_NS);
        assert_eq!(late_budget_ns(S / 2), S / 4);
        assert_eq!(late_budget_ns(0), 0);
    }
}

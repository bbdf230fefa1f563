// SPDX-License-Identifier: GPL-2.0

//! How many lines a source of kernel-log messages any user can trigger
//! (the refusals of `perf_event_open`) may print: the kernel's
//! `printk_ratelimited` defaults, [`BURST`] lines per [`INTERVAL_NS`], and
//! the number left out said with the first line of the next interval.
//! Lock-free: any number of CPUs may ask at once (the count is then
//! approximate, never the bound).

use core::sync::atomic::{AtomicU32, AtomicU64, Ordering};

/// Length of an interval (`DEFAULT_RATELIMIT_INTERVAL`, 5 s).
pub const INTERVAL_NS: u64 = 5_000_000_000;
/// Lines per interval (`DEFAULT_RATELIMIT_BURST`).
pub const BURST: u32 = 10;

/// Whether a message is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Print it, after a line saying that `missed` were left out before.
    Print {
        /// Messages left out since the last printed one.
        missed: u32,
    },
    /// Leave it out (it is counted).
    Quiet,
}

/// One source's limit.
#[derive(Debug, Default)]
pub struct RateLimit {
    /// When the interval began (ns, plus one: 0 is "none yet").
    begin: AtomicU64,
    /// Messages asked about in the interval.
    asked: AtomicU32,
    /// Messages left out since the last interval began.
    missed: AtomicU32,
}

impl RateLimit {
    /// A limit with no interval begun.
    pub const fn new() -> Self {
        RateLimit {
            begin: AtomicU64::new(0),
            asked: AtomicU32::new(0),
            missed: AtomicU32::new(0),
        }
    }

    /// Whether a message asked for at `now_ns` (a monotonic clock) is
    /// printed.
    ///
    /// # Examples
    ///
    /// ```
    /// use uncore_core::hw::ratelimit::{RateLimit, Verdict, BURST, INTERVAL_NS};
    ///
    /// let l = RateLimit::new();
    /// for _ in 0..BURST {
    ///     assert_eq!(l.check(7), Verdict::Print { missed: 0 });
    /// }
    /// assert_eq!(l.check(8), Verdict::Quiet);
    /// assert_eq!(l.check(9), Verdict::Quiet);
    /// assert_eq!(l.check(7 + INTERVAL_NS), Verdict::Print { missed: 2 });
    /// ```
    pub fn check(&self, now_ns: u64) -> Verdict {
        let stamp = now_ns.saturating_add(1);
        let begin = self.begin.load(Ordering::Acquire);
        let over = begin == 0 || stamp.saturating_sub(begin) >= INTERVAL_NS;
        if over
            && self
                .begin
                .compare_exchange(begin, stamp, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
        {
            // This caller begins the interval.
            self.asked.store(1, Ordering::Release);
            let missed = self.missed.swap(0, Ordering::AcqRel);
            return Verdict::Print { missed };
        }
        let asked = self
            .asked
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                Some(n.saturating_add(1))
            })
            .unwrap_or(u32::MAX);
        if asked < BURST {
            return Verdict::Print { missed: 0 };
        }
        let _ = self
            .missed
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                Some(n.saturating_add(1))
            });
        Verdict::Quiet
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flood_prints_a_burst_per_interval() {
        let l = RateLimit::new();
        let mut printed = 0;
        let mut said_missed = 0;
        // 10,000 messages over 12 s: three intervals begun.
        for i in 0..10_000u64 {
            if let Verdict::Print { missed } = l.check(i * 1_200_000) {
                printed += 1;
                said_missed += missed;
            }
        }
        assert_eq!(printed, 3 * BURST);
        // Every message is printed or counted in a later line, but for
        // the last interval's.
        assert_eq!(
            u64::from(said_missed) + u64::from(printed),
            10_000 - u64::from(l.missed.load(Ordering::Relaxed))
        );
    }

    #[test]
    fn a_clock_going_back_or_at_its_end_does_not_panic() {
        let l = RateLimit::new();
        assert_eq!(l.check(u64::MAX), Verdict::Print { missed: 0 });
        assert!(matches!(l.check(0), Verdict::Print { .. }));
        assert!(matches!(l.check(u64::MAX - 1), Verdict::Print { .. }));
    }
}

// SPDX-License-Identifier: GPL-2.0

//! The simulation's uncore clock (`clock` in the debugfs directory): while
//! it runs, every fixed counter of every socket advances with real time at
//! the simulated part's nominal clock, as the hardware's `clockticks` do, so
//! that the selftests' frequency check has something to measure. It is off
//! by default: the other tests count injected clockticks exactly.
//!
//! A hard-interrupt timer on the CPU that starts the clock adds the time
//! since its last run, every 10 ms.

use super::Sim;
use crate::engine::Ctx;
use crate::hw::model::Occurrence;
use crate::sys::cpu::{self, IrqsOff};
use crate::sys::hrtimer::{Timer, TimerHandler};
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use kernel::prelude::*;
use kernel::sync::Arc;

/// The clock's period.
const PERIOD_NS: u64 = 10_000_000;

/// The clock and its timer.
pub(crate) type Clock = (Arc<SimClock>, Timer<SimClock>);

/// The clock's state.
pub(crate) struct SimClock {
    ctx: Arc<Ctx<Sim>>,
    on: AtomicBool,
    last_ns: AtomicU64,
    /// Nanoseconds not yet turned into ticks (below one tick).
    carry: AtomicU64,
}

impl SimClock {
    /// A stopped clock of `ctx`'s simulated platform.
    pub(crate) fn new(ctx: Arc<Ctx<Sim>>) -> Result<Arc<Self>> {
        Ok(Arc::new(
            SimClock {
                ctx,
                on: AtomicBool::new(false),
                last_ns: AtomicU64::new(0),
                carry: AtomicU64::new(0),
            },
            GFP_KERNEL,
        )?)
    }
}

impl TimerHandler for SimClock {
    fn fire(&self, _irq: &IrqsOff) -> bool {
        if !self.on.load(Ordering::Acquire) {
            return false;
        }
        let sim = &self.ctx.regs;
        let now = cpu::now_ns();
        let last = self.last_ns.swap(now, Ordering::AcqRel);
        let mhz = self.ctx.platform.sim.clock_mhz;
        // Ticks = ns x MHz / 1000, the remainder carried to the next run.
        let total = now
            .saturating_sub(last)
            .saturating_mul(mhz)
            .saturating_add(self.carry.load(Ordering::Relaxed));
        self.carry.store(total % 1000, Ordering::Relaxed);
        let ticks = total / 1000;
        if ticks == 0 {
            return true;
        }
        let occ = Occurrence::simple(0xff, 0, ticks);
        for s in 0..self.ctx.packages {
            sim.change(s, |m| {
                for t in self.ctx.platform.types.iter().filter(|t| t.fixed.is_some()) {
                    for i in 0..t.num_boxes {
                        let _ = m.inject(s, t.kind, i, &occ);
                    }
                }
            });
        }
        true
    }
}

impl SimClock {
    /// Starts (on this CPU) or stops the clock, whose timer is `timer`.
    pub(crate) fn set(&self, timer: &Timer<SimClock>, on: bool) {
        if on {
            self.last_ns.store(cpu::now_ns(), Ordering::Release);
            self.on.store(true, Ordering::Release);
            // A debugfs write: process context.
            let _ = timer.start(PERIOD_NS);
        } else {
            self.on.store(false, Ordering::Release);
            // Process context (a debugfs write).
            let _ = timer.cancel();
        }
    }
}

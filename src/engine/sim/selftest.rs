// SPDX-License-Identifier: GPL-2.0

//! The simulation's NMI read self-test (`selftest` in the debugfs
//! directory): it reads an uncore event from NMI context, the way a BPF
//! program does with `bpf_perf_event_read_value`, while the collecting CPU
//! it interrupts holds the locks of the box and of the register model.
//!
//! A kernel counter of the PMU is opened on the package's collector. For
//! each round the test injects occurrences of the event into the model,
//! then, on the collector with interrupts off and both locks held, sends
//! itself an NMI and waits for it: the NMI handler reads the counter with
//! `perf_event_read_local`, which calls the PMU's `read`. A `read` that took
//! either lock would spin forever on the CPU that holds it. Each round
//! checks the value read against the occurrences injected so far.
//!
//! Each round also asks the abstraction layer for what it must refuse in
//! those contexts, and counts the refusals: from the NMI, running a
//! function on a CPU (`run_on`), starting and cancelling a timer; with
//! interrupts off in the cross-CPU call, `run_on` and a timer's cancel
//! (which there could wait for the timer's own callback). Each must be
//! `EINVAL`.

use super::{Sim, SimDebug};
use crate::engine::pmu::with_box_locked;
use crate::engine::Pmu;
use crate::hw::model::Occurrence;
use crate::sys::cpu::{self, CpuId, InNmi, IrqsOff};
use crate::sys::hrtimer::{Timer, TimerHandler};
use crate::sys::kernel_counter::KernelCounter;
use crate::sys::perf::Config;
use crate::sys::rcu;
use core::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering};
use kernel::prelude::*;
use kernel::sync::Arc;

/// Longest wait for the NMI, in units of 10 µs (100 ms).
const NMI_WAIT: u32 = 10_000;

/// The handler of the self-test's timer, which is never started: the
/// test asks for its start and cancel where they must be refused.
pub(crate) struct Idle;

impl TimerHandler for Idle {
    fn fire(&self, _irq: &IrqsOff) -> bool {
        false
    }
}

/// Refusals the self-test asks for in each round: four from the NMI, three
/// with interrupts off.
pub(crate) const REFUSALS_PER_ROUND: u32 = 7;

/// A read the NMI handler does on one CPU.
pub(crate) struct NmiRead {
    /// A timer the test never starts (its start and cancel are refused).
    timer: Timer<Idle>,
    /// Calls refused as they must be (`EINVAL`), and calls that were not.
    refused: AtomicU32,
    accepted: AtomicU32,
    counter: KernelCounter,
    cpu: CpuId,
    /// A read is requested.
    pending: AtomicBool,
    /// The read is done.
    done: AtomicBool,
    /// Its result: the count, or a negative errno.
    value: AtomicI64,
    /// NMIs handled.
    handled: AtomicU64,
}

impl NmiRead {
    /// Does the requested read, if this NMI is for it (NMI context).
    pub(crate) fn nmi(&self, nmi: &InNmi) -> bool {
        if nmi.cpu() != self.cpu || !self.pending.swap(false, Ordering::AcqRel) {
            return false;
        }
        // What NMI context must refuse.
        self.expect_refused(cpu::run_on(self.cpu, &|_| {}));
        self.expect_refused(self.timer.start(1_000_000_000));
        self.expect_refused(self.timer.cancel());
        self.expect_refused(cpu::sleep_ms(1));
        let v = match self.counter.read_local() {
            Ok(v) => i64::try_from(v).unwrap_or(i64::MAX),
            Err(e) => i64::from(e.to_errno()),
        };
        self.value.store(v, Ordering::Release);
        self.handled.fetch_add(1, Ordering::Relaxed);
        self.done.store(true, Ordering::Release);
        true
    }

    /// Counts `r`: `EINVAL` is the refusal the test asks for.
    fn expect_refused(&self, r: Result) {
        match r {
            Err(e) if e == EINVAL => self.refused.fetch_add(1, Ordering::Relaxed),
            _ => self.accepted.fetch_add(1, Ordering::Relaxed),
        };
    }
}

/// What the self-test found.
#[derive(Default, Clone, Copy)]
pub(crate) struct Outcome {
    /// Rounds run.
    pub(crate) rounds: u32,
    /// Rounds whose NMI read came back while the locks were held.
    pub(crate) nmi_reads: u32,
    /// Rounds whose NMI read was the injected total.
    pub(crate) exact: u32,
    /// Rounds whose NMI read was stale: at least the total of the rounds
    /// before, below this round's (a box in configuration space, which an
    /// NMI read skips).
    pub(crate) stale: u32,
    /// Rounds whose read right after the NMI's, outside NMI context, was the
    /// injected total.
    pub(crate) then_exact: u32,
    /// The last value read.
    pub(crate) last: i64,
    /// The injected total.
    pub(crate) want: u64,
    /// Calls refused as they must be (seven per round), and calls that were
    /// not.
    pub(crate) refused: u32,
    pub(crate) accepted: u32,
}

impl SimDebug {
    /// Runs the NMI read self-test on PMU `pmu`'s box of package `pkg`:
    /// `rounds` rounds of injecting `occ` and reading the event `config`
    /// from NMI context. Process context.
    pub(crate) fn nmi_read_test(
        &self,
        pmu: &Pmu<Sim>,
        pkg: usize,
        config: u64,
        occ: &Occurrence,
        rounds: u32,
    ) -> Result<Outcome> {
        let sim = self.sim();
        let cpu = self.ctx.collector(pkg).ok_or(ENODEV)?;
        let counter = KernelCounter::new(
            pmu,
            Config {
                config,
                ..Config::default()
            },
            cpu,
        )?;
        let test = KBox::new(
            NmiRead {
                timer: Timer::new(Arc::new(Idle, GFP_KERNEL)?)?,
                refused: AtomicU32::new(0),
                accepted: AtomicU32::new(0),
                counter,
                cpu,
                pending: AtomicBool::new(false),
                done: AtomicBool::new(false),
                value: AtomicI64::new(0),
                handled: AtomicU64::new(0),
            },
            GFP_KERNEL,
        )?;
        drop(sim.selftest.replace(Some(test))?);
        let mut out = Outcome::default();
        let t = pmu.ops().box_type();
        let index = pmu.ops().index() as u8;
        let r = (|| -> Result {
            for _ in 0..rounds {
                let before = out.want;
                let n = sim.change(pkg, |m| m.inject(pkg, t.kind, index, occ));
                if n.map_err(super::model_errno)? > 0 {
                    let step = occ.cycles.saturating_mul(u64::from(occ.inc.max(1)));
                    out.want = out.want.checked_add(step).ok_or(ERANGE)?;
                }
                let got = AtomicI64::new(0);
                let then = AtomicI64::new(-1);
                let came = AtomicBool::new(false);
                cpu::run_on(cpu, &|irq| {
                    let g = rcu::read_lock(irq);
                    let Some(test) = sim.selftest.get(&g) else {
                        return;
                    };
                    // What a context with interrupts off must refuse.
                    test.expect_refused(cpu::run_on(cpu, &|_| {}));
                    test.expect_refused(test.timer.cancel());
                    test.expect_refused(cpu::sleep_ms(1));
                    // The collector is busy: it holds the box's lock and
                    // the model's while the NMI reads.
                    let _ = with_box_locked(pmu, pkg, || {
                        let _m = sim.lock();
                        test.done.store(false, Ordering::Release);
                        test.pending.store(true, Ordering::Release);
                        if crate::sys::nmi::send(cpu).is_err() {
                            test.pending.store(false, Ordering::Release);
                            return;
                        }
                        for _ in 0..NMI_WAIT {
                            if test.done.load(Ordering::Acquire) {
                                came.store(true, Ordering::Release);
                                got.store(test.value.load(Ordering::Acquire), Ordering::Release);
                                return;
                            }
                            cpu::delay_us(10);
                        }
                        test.pending.store(false, Ordering::Release);
                    });
                    // Then a read on the collector outside the locks (not
                    // from NMI).
                    if let Ok(v) = test.counter.read_local() {
                        then.store(i64::try_from(v).unwrap_or(-1), Ordering::Release);
                    }
                })?;
                out.rounds += 1;
                let v = got.load(Ordering::Acquire);
                if came.load(Ordering::Acquire) {
                    out.nmi_reads += 1;
                    out.last = v;
                    match u64::try_from(v) {
                        Ok(v) if v == out.want => out.exact += 1,
                        Ok(v) if (before..out.want).contains(&v) => out.stale += 1,
                        _ => {}
                    }
                }
                if u64::try_from(then.load(Ordering::Acquire)).ok() == Some(out.want) {
                    out.then_exact += 1;
                }
            }
            Ok(())
        })();
        // Waits for the NMI handler, then releases the counter.
        if let Ok(Some(t)) = sim.selftest.replace(None) {
            out.refused = t.refused.load(Ordering::Relaxed);
            out.accepted = t.accepted.load(Ordering::Relaxed);
        }
        r.map(|()| out)
    }
}

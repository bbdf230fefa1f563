// SPDX-License-Identifier: GPL-2.0

//! Overflow PMIs of Nehalem-EX and Westmere-EX (325294 §2.1).
//!
//! Counters run with `pmi_en`; `U_MSR_PMON_GLOBAL_CTL.pmi_core_sel` names
//! the core of the package's collecting CPU, and is rewritten to the new
//! collector's core before events move to it on hotplug. The NMI handler
//! only decides whether the NMI is an uncore PMI of its CPU's package —
//! `U_MSR_PMON_GLOBAL_STATUS.pmi` set (under `sim=`: a PMI the model
//! raised) — and queues the package's `irq_work` (one queued work handles
//! every PMI that arrives before it runs). That work, in hard interrupt
//! context on the same CPU, walks the overflow hierarchy (U-box status →
//! S-box summary → box status); on the collector it accounts the
//! overflowed counters' events (modular deltas, as every other
//! observation: each increment is accounted once, by whichever of the PMI,
//! the poll or a read sees it first). It clears the status bits it walked
//! and the U-box's `pmi`/`cond`/`ov_*` bits, and rewrites the global
//! control if counting was frozen. After each PMI it takes, the handler
//! unmasks its CPU's local APIC performance-counter entry, which the APIC
//! masks on delivery. PMIs that reach a core they are not aimed at turn
//! the package's PMIs off (`pmi_route.rs`).
//!
//! Under `sim=` the same handler also serves the NMI read self-test
//! (`selftest`), on every platform.

use super::backend::{Backend, StallPoint};
use super::Core;
use crate::hw::overflow;
use crate::hw::pmi_claim::Took;
use crate::sys::cpu::{InNmi, IrqsOff};
use crate::sys::nmi::{IrqWork, IrqWorkHandler, NmiHandler};
use core::sync::atomic::Ordering;
use kernel::prelude::*;
use kernel::sync::Arc;

/// The NMI handler.
pub(crate) struct PmiNmi<R: Backend> {
    core: Arc<Core<R>>,
    works: KVec<Pin<KBox<IrqWork<PkgPmi<R>>>>>,
}

impl<R: Backend> PmiNmi<R> {
    /// A handler with one `irq_work` per package.
    pub(crate) fn new(core: &Arc<Core<R>>) -> Result<Arc<Self>> {
        let ctx = core.ctx.clone();
        let mut works = KVec::with_capacity(ctx.packages, GFP_KERNEL)?;
        for pkg in 0..ctx.packages {
            let h = Arc::new(
                PkgPmi {
                    core: core.clone(),
                    pkg,
                },
                GFP_KERNEL,
            )?;
            works.push(KBox::pin_init(IrqWork::new(h), GFP_KERNEL)?, GFP_KERNEL)?;
        }
        Ok(Arc::new(
            PmiNmi {
                core: core.clone(),
                works,
            },
            GFP_KERNEL,
        )?)
    }
}

impl<R: Backend> NmiHandler for PmiNmi<R> {
    fn nmi(&self, nmi: &InNmi) -> bool {
        // A race test's pause (the simulation's `stall nmi`).
        self.core.ctx.regs.stall(StallPoint::Nmi);
        // The simulation's self-test reads a counter from NMI context.
        if self.core.ctx.regs.test_nmi(nmi) {
            return true;
        }
        if !self.core.ctx.pmis() {
            return false;
        }
        let ctx = &self.core.ctx;
        let cpu = nmi.cpu();
        let pkg = cpu.package();
        let Some(work) = self.works.get(pkg) else {
            return false;
        };
        // The package's routing check (`pmi_check`) takes every NMI.
        if let Some(saw) = ctx.probe_nmi(pkg, cpu, || ctx.regs.pmi_pending(ctx, nmi)) {
            if saw {
                ctx.regs.rearm_pmi(nmi);
                work.queue();
            }
            ctx.stats.probe_nmis.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        // Only the core `pmi_core_sel` names takes the package's PMIs (and
        // the one it named before, within its window: `hw::pmi_claim`): the
        // status is package-wide, and an NMI of another source on another
        // CPU must not take the PMI that is on its way to the collector
        // (which would then find none: "NMI received for unknown reason").
        let took = ctx.claim_pmi(pkg, cpu, || ctx.regs.pmi_pending(ctx, nmi));
        if took == Some(Took::Nmi) {
            // A hand-over's grace: possibly the NMI of a PMI the other
            // core took.
            ctx.stats.nmis_in_grace.fetch_add(1, Ordering::Relaxed);
            return true;
        }
        if took.is_none() {
            // The simulation's NMIs of another source (`noise=1`).
            if ctx.regs.noise_nmi(nmi) {
                return true;
            }
            // A PMI pending here, on a core it is not aimed at, time after
            // time: the package falls back to polling (`pmi_route`).
            if ctx.pmi_misrouted(pkg, cpu, || ctx.regs.pmi_seen(ctx, nmi)) {
                work.queue();
            }
            ctx.stats.nmi_not_ours.fetch_add(1, Ordering::Relaxed);
            return false;
        }
        // The local APIC masked its performance-counter entry to deliver
        // this PMI; the core PMU's handler unmasks it only while core
        // events are active.
        ctx.regs.rearm_pmi(nmi);
        ctx.stats.pmi_nmis.fetch_add(1, Ordering::Relaxed);
        work.queue();
        true
    }
}

/// The work of one package's PMI.
pub(crate) struct PkgPmi<R: Backend> {
    core: Arc<Core<R>>,
    pkg: usize,
}

impl<R: Backend> IrqWorkHandler for PkgPmi<R> {
    fn run(&self, irq: &IrqsOff) {
        self.core.handle_pmi(irq, self.pkg);
    }
}

impl<R: Backend> Core<R> {
    /// Handles a PMI of package `pkg` (hard interrupt context, on a CPU of
    /// the package). Only the published collector accounts counts: it is
    /// the CPU where events are added and removed. Elsewhere (a PMI that
    /// arrives during a hand-over) the status is only cleared; the counts
    /// are the next observation's, as the poll interval keeps every counter
    /// within one wrap.
    pub(crate) fn handle_pmi(&self, irq: &IrqsOff, pkg: usize) {
        let ctx = &self.ctx;
        // The work runs on the CPU that took the NMI, one of the package's.
        let Some(on) = irq.on(pkg) else { return };
        let cpu = irq.cpu();
        self.pmi_fallback(on, cpu);
        let account = ctx.collector(pkg) == Some(cpu);
        let p = ctx.platform;
        let w = overflow::walk(p, |a| ctx.rdmsr(on, a).unwrap_or(0));
        if account {
            for h in w.hits() {
                let Some(t) = p.types.get(h.ty as usize) else {
                    continue;
                };
                if let Some(x) = self.pmus.iter().find(|x| {
                    core::ptr::eq(x.ops().box_type(), t) && x.ops().index() == h.index as usize
                }) {
                    x.ops().pmi_update(on, h.counters, h.fixed);
                }
            }
        }
        // Then clear what the walk found, boxes and U-box (pmi, cond and
        // the overflow summaries): the next overflow can signal again.
        for &(a, v) in w.clears() {
            let _ = ctx.wrmsr(on, a, v);
        }
        // Counting stopped by the PMI (NHM-EX/WSM-EX frz_all) is enabled
        // again.
        if let Some((msr, bits)) = p.global.stopped_by_pmi() {
            if ctx.rdmsr(on, msr).is_ok_and(|v| v & bits == 0) {
                let _ = ctx.write_global(on, |_| {});
            }
        }
        ctx.stats.pmis_handled.fetch_add(1, Ordering::Relaxed);
    }
}

// SPDX-License-Identifier: GPL-2.0

//! The routing check a package's start runs before any PMI is aimed
//! ([`crate::hw::pmi_probe`] decides; this does the register writes, the
//! waits and the NMI side).
//!
//! For each bit it probes, the check presets the platform's probe counter
//! near its top with `pmi_en`, writes `pmi_core_sel` with that bit alone,
//! lets the counter run to its overflow and waits (sleeping, up to
//! [`WAIT_MS`]) for an NMI of the package to see the PMI; then it stops
//! the counter and clears the PMI. While the check runs, every NMI on the
//! package's CPUs is taken: the one the probe caused must not be left
//! unclaimed as "of unknown reason", and one of another source on another
//! core may have seen the probe's PMI first. The verdict sets where the
//! package's PMIs are aimed from then on, and one line says it.

use super::{Backend, Core, Ctx};
use crate::hw::pmi_claim::GRACE_MS;
use crate::hw::pmi_probe::{Check, CoreMap, ProbeCounter, Verdict, MAX_CORES, WAIT_MS};
use crate::hw::program::GlobalState;
use crate::sys::cpu::{self, CpuId};
use core::sync::atomic::Ordering;
use kernel::prelude::*;

impl<R: Backend> Core<R> {
    /// Checks where package `pkg`'s PMIs go: its start, in process
    /// context under the control lock, its uncore unparked, before its
    /// PMIs are aimed and before its boxes are initialised (which undoes
    /// what the probes wrote).
    pub(crate) fn check_pmi_route(&self, pkg: usize) {
        let ctx = &self.ctx;
        let (Some(r), Some(probe)) = (ctx.pmi.get(pkg), ctx.platform.global.pmi_probe()) else {
            return;
        };
        if r.off.load(Ordering::Acquire) {
            return;
        }
        if !cpu::may_sleep() {
            // Unchecked routing is not used (not reached: hotplug
            // callbacks and the load run in process context).
            r.off.store(true, Ordering::Release);
            pr_warn!(
                "package {}: overflow PMI routing not checked; polling only\n",
                pkg
            );
            return;
        }
        // The package's cores in the driver's rank order; those with an
        // online CPU can take an NMI.
        let mut ranked = [0u32; MAX_CORES];
        let (mut n, mut reachable) = (0, 0u16);
        for c in CpuId::all().filter(|c| c.is_present() && c.package() == pkg) {
            let rank = Ctx::<R>::core_index(c) as usize;
            if let Some(slot) = ranked.get_mut(rank) {
                *slot = c.core_id();
                n = n.max(rank + 1);
                if c.is_online() {
                    reachable |= 1 << rank;
                }
            }
        }
        let field = (0..64).fold(0, |f, rank| f | ctx.platform.global.pmi_core_bit(rank));
        r.set_map(None);
        r.probing.store(true, Ordering::Release);
        let check = Check::new(ranked.get(..n).unwrap_or(&[]), reachable, field);
        let verdict = check.run(|bit| self.probe(pkg, &probe, bit));
        // NMIs of the last probe that are still on their way are taken.
        let _ = cpu::sleep_ms(GRACE_MS);
        r.probing.store(false, Ordering::Release);
        match verdict {
            Verdict::Verified => pr_info!(
                "package {}: overflow PMIs reach each of its {} cores by its pmi_core_sel bit (checked)\n",
                pkg,
                reachable.count_ones()
            ),
            Verdict::Learned(map) => {
                r.set_map(Some(&map));
                pr_info!(
                    "package {}: overflow PMIs reach cores by other pmi_core_sel bits than assumed; using {}\n",
                    pkg,
                    format_args!("{}", Pairs(&map))
                );
            }
            Verdict::Polling => {
                r.off.store(true, Ordering::Release);
                pr_warn!(
                    "package {}: no overflow PMI reached a core within {} ms of any pmi_core_sel bit; polling only\n",
                    pkg,
                    WAIT_MS
                );
            }
        }
    }

    /// One probe of package `pkg`'s routing: `pmi_core_sel` set to `bit`
    /// alone; the core ID of the CPU whose NMI saw the PMI, if one did.
    fn probe(&self, pkg: usize, probe: &ProbeCounter, bit: u8) -> Option<u32> {
        let ctx = &self.ctx;
        let r = ctx.pmi.get(pkg)?;
        r.probe_hit.store(-1, Ordering::Release);
        self.on_package(pkg, |on| {
            for &(m, v) in probe.arm {
                let _ = ctx.wrmsr(on, m, v);
            }
            let _ = ctx.write_global(on, |g| {
                *g = GlobalState::default();
                g.pmi_cores = 1 << bit;
            });
        });
        ctx.regs.run_probe(ctx, pkg, probe);
        let start = cpu::now_ns();
        let limit = u64::from(WAIT_MS) * 1_000_000;
        let hit = loop {
            if let Ok(core) = u32::try_from(r.probe_hit.load(Ordering::Acquire)) {
                break Some(core);
            }
            if cpu::now_ns().saturating_sub(start) > limit || cpu::sleep_ms(1).is_err() {
                break None;
            }
        };
        self.on_package(pkg, |on| {
            let _ = ctx.write_global(on, |g| g.pmi_cores = 0);
            for &(m, v) in probe.disarm {
                let _ = ctx.wrmsr(on, m, v);
            }
        });
        hit
    }
}

impl<R: Backend> Ctx<R> {
    /// An NMI on `cpu` while package `pkg`'s routing check runs (`None`
    /// when none does): taken, whatever it carries; `Some(true)` when
    /// `pending()` says it sees the probe's PMI, which it records. NMI
    /// context: lock-free.
    pub(crate) fn probe_nmi(
        &self,
        pkg: usize,
        cpu: CpuId,
        pending: impl FnOnce() -> bool,
    ) -> Option<bool> {
        let r = self.pmi.get(pkg)?;
        if !r.probing.load(Ordering::Acquire) {
            return None;
        }
        if !pending() {
            return Some(false);
        }
        let _ = r.probe_hit.compare_exchange(
            -1,
            i64::from(cpu.core_id()),
            Ordering::AcqRel,
            Ordering::Acquire,
        );
        Some(true)
    }
}

/// A learned map, as "core 0 by bit 1, core 1 by bit 0".
struct Pairs<'a>(&'a CoreMap);

impl core::fmt::Display for Pairs<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for (i, (core, bit)) in self.0.iter().enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            write!(f, "{}core {} by bit {}", sep, core, bit)?;
        }
        Ok(())
    }
}

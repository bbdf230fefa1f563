// SPDX-License-Identifier: GPL-2.0

//! Where a package's overflow PMIs go, and what happens when they do not
//! go where the driver aimed them.
//!
//! The driver names one core in `U_MSR_PMON_GLOBAL_CTL.pmi_core_sel`, its
//! collector's (325294 Table 2-2: "Send PMI to core N"), and only that
//! core's NMIs claim the package's PMI ([`crate::hw::pmi_claim`]). Nothing
//! here can see which CPU the U-box's core N is, so the driver checks at
//! run time and falls back to polling, which alone keeps the counts exact:
//!
//! - a failed write of the global control leaves the claim word where the
//!   register still points, turns the package's PMIs off and says so once;
//! - NMIs on a core the PMIs are not aimed at that find a PMI pending,
//!   [`pmi_claim::MISROUTED`] of them with no claim by the aimed core in
//!   between, mean the PMIs reach another core: the package's PMIs are
//!   turned off (`pmi_core_sel` 0, "No PMI sent"), with one line;
//! - `pmi=0` never turns them on.

use super::{Backend, Core, Ctx};
use crate::hw::pmi_claim::{self, PmiWord, Took};
use crate::hw::pmi_probe::{CoreMap, MAX_CORES};
use crate::hw::program::GlobalState;
use crate::sys::cpu::{CpuId, OnPackage};
use core::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering};
use kernel::prelude::*;

/// One package's PMI routing.
#[derive(Default)]
pub(crate) struct Route {
    /// The claim word ([`PmiWord`]): the core `pmi_core_sel` names, the one
    /// it named before and its window.
    word: AtomicU64,
    /// PMIs are off for the package: a write of `pmi_core_sel` failed,
    /// they reached another core or the routing check found none. Only a
    /// reload turns them on again.
    pub(super) off: AtomicBool,
    /// The fallback to polling is decided, for the package's PMI work to
    /// carry out (the NMI that decides cannot write the register).
    fall_back: AtomicBool,
    /// NMIs on cores the PMIs are not aimed at that found a PMI pending,
    /// since the aimed core last claimed one.
    misrouted: AtomicU32,
    /// The package's routing check runs (`pmi_check`): its NMIs take all.
    pub(super) probing: AtomicBool,
    /// The core ID whose NMI saw the running probe's PMI, or -1.
    pub(super) probe_hit: AtomicI64,
    /// The bit each core is reached by, where the check learned another
    /// numbering than the driver's ([`Route::set_map`]).
    learned: AtomicBool,
    map: [AtomicU64; MAX_CORES],
}

/// A PMI target chosen before `pmi_core_sel` is written.
#[derive(Clone, Copy)]
pub(crate) struct Aim {
    /// The `pmi_core_sel` bits to write.
    pub(crate) bits: u64,
    /// The claim word before and after aiming.
    before: PmiWord,
    after: PmiWord,
}

/// A [`Route::map`] entry: in use, the bit, the core ID.
const ENTRY: u64 = 1 << 63;

impl Route {
    /// Aims PMIs by `map` from now on (`None`: by the driver's numbering).
    /// Process context, before the package's PMIs are aimed.
    pub(super) fn set_map(&self, map: Option<&CoreMap>) {
        for e in &self.map {
            e.store(0, Ordering::Relaxed);
        }
        for (e, (core, bit)) in self.map.iter().zip(map.iter().flat_map(|m| m.iter())) {
            e.store(
                ENTRY | u64::from(bit) << 32 | u64::from(core),
                Ordering::Relaxed,
            );
        }
        self.learned.store(map.is_some(), Ordering::Release);
    }

    /// The `pmi_core_sel` bits of core `core` by the learned map (0 for a
    /// core it lacks), or `None` where none was learned.
    fn learned_bits(&self, core: u32) -> Option<u64> {
        if !self.learned.load(Ordering::Acquire) {
            return None;
        }
        let bits = self
            .map
            .iter()
            .map(|e| e.load(Ordering::Relaxed))
            .find(|&e| e & ENTRY != 0 && e as u32 == core)
            .map_or(0, |e| 1u64 << ((e >> 32) & 63));
        Some(bits)
    }

    /// Changes the claim word with `f` (compare-and-swap: NMIs claim
    /// concurrently); returns the words before and after.
    fn update(&self, f: impl Fn(PmiWord) -> PmiWord) -> (PmiWord, PmiWord) {
        let mut cur = self.word.load(Ordering::Acquire);
        loop {
            let before = PmiWord::from_bits(cur);
            let after = f(before);
            match self.word.compare_exchange_weak(
                cur,
                after.bits(),
                Ordering::AcqRel,
                Ordering::Acquire,
            ) {
                Ok(_) => return (before, after),
                Err(v) => cur = v,
            }
        }
    }
}

impl<R: Backend> Ctx<R> {
    /// The bit of `cpu`'s core in `pmi_core_sel`: the rank of its core ID
    /// among the core IDs of its package.
    pub(crate) fn core_index(cpu: CpuId) -> u32 {
        let pkg = cpu.package();
        let id = cpu.core_id();
        let mut seen = [false; 64];
        let mut rank = 0;
        for c in CpuId::all().filter(|c| c.is_present() && c.package() == pkg) {
            let k = c.core_id();
            if k < id && (k as usize) < seen.len() && !seen[k as usize] {
                seen[k as usize] = true;
                rank += 1;
            }
        }
        rank
    }

    /// Aims package `pkg`'s PMIs at `cpu`'s core (its collector), before
    /// `pmi_core_sel` is written with the returned bits: the core named
    /// before keeps claiming until [`Ctx::pmis_written`]. A core whose rank
    /// is past the field, or a package whose PMIs are off, gets no PMIs
    /// (0): polling alone keeps the counts exact.
    pub(crate) fn aim_pmis(&self, pkg: usize, cpu: CpuId) -> Aim {
        let Some(r) = self.pmi.get(pkg) else {
            return Aim {
                bits: 0,
                before: PmiWord::NONE,
                after: PmiWord::NONE,
            };
        };
        let bits = match r.off.load(Ordering::Acquire) {
            true => 0,
            false => r
                .learned_bits(cpu.core_id())
                .unwrap_or_else(|| self.platform.global.pmi_core_bit(Self::core_index(cpu))),
        };
        let core = (bits != 0).then(|| cpu.core_id());
        let (before, after) = r.update(|w| w.aimed(core));
        Aim {
            bits,
            before,
            after,
        }
    }

    /// Whether package `pkg`'s PMIs are off (a failed aim, or PMIs that
    /// reached another core).
    pub(crate) fn pmis_off(&self, pkg: usize) -> bool {
        self.pmi
            .get(pkg)
            .is_some_and(|r| r.off.load(Ordering::Acquire))
    }

    /// The write of `aim` to package `on`'s `pmi_core_sel` is done, with
    /// result `written`. Written: the core named before gets its window of
    /// last claims ([`pmi_claim::WINDOW`]); returns the word whose grace
    /// [`Ctx::close_grace`] closes, if a grace opened. Failed: the register
    /// still names that core, so the claim word does too; the package's
    /// PMIs are turned off (its state says no core, for the next write
    /// that succeeds), once logged.
    pub(crate) fn pmis_written(
        &self,
        on: OnPackage<'_>,
        aim: Aim,
        cpu: CpuId,
        written: Result,
    ) -> Option<PmiWord> {
        let pkg = on.package();
        let r = self.pmi.get(pkg)?;
        let Err(e) = written else {
            let (_, after) = r.update(PmiWord::moved);
            return after.grace().then_some(after);
        };
        r.update(|w| if w == aim.after { aim.before } else { w });
        if aim.bits != 0 && !r.off.swap(true, Ordering::AcqRel) {
            let _ = self.write_global(on, |g| g.pmi_cores = 0);
            pr_warn!(
                "package {}: cannot aim overflow PMIs at CPU {} (global control write failed: {:?}); polling only\n",
                pkg,
                cpu.as_u32(),
                e
            );
        }
        None
    }

    /// Closes the grace of hand-over `of` on package `pkg`, after
    /// [`pmi_claim::GRACE_MS`] (process context, the control plane): by
    /// then every NMI a PMI sent before `pmi_core_sel` changed has
    /// arrived, and only the target claims.
    pub(crate) fn close_grace(&self, pkg: usize, of: PmiWord) {
        let Some(r) = self.pmi.get(pkg) else {
            return;
        };
        // A sleep refused (not in process context) closes at once: the
        // grace only spares unknown NMIs.
        let _ = crate::sys::cpu::sleep_ms(pmi_claim::GRACE_MS);
        r.update(|w| w.closed(of));
    }

    /// What an NMI on `cpu` takes of package `pkg`'s: its PMI, the NMI
    /// alone (a hand-over's grace) or nothing ([`pmi_claim::claim`]:
    /// `pending()` is asked only where `cpu`'s core is entitled). NMI
    /// context: lock-free.
    pub(crate) fn claim_pmi(
        &self,
        pkg: usize,
        cpu: CpuId,
        pending: impl FnOnce() -> bool,
    ) -> Option<Took> {
        let r = self.pmi.get(pkg)?;
        let took = pmi_claim::claim(&r.word, cpu.core_id(), pending);
        if took == Some(Took::Pmi) {
            r.misrouted.store(0, Ordering::Relaxed);
        }
        took
    }

    /// An NMI on `cpu` that did not claim package `pkg`'s PMI: whether its
    /// core is one the PMIs are not aimed at and `seen()` says a PMI is
    /// pending, the [`pmi_claim::MISROUTED`]th time since the aimed core
    /// last claimed one. Then the package's PMI work turns its PMIs off
    /// ([`Core::pmi_fallback`]): the caller queues it. NMI context.
    pub(crate) fn pmi_misrouted(
        &self,
        pkg: usize,
        cpu: CpuId,
        seen: impl FnOnce() -> bool,
    ) -> bool {
        let Some(r) = self.pmi.get(pkg) else {
            return false;
        };
        let w = PmiWord::from_bits(r.word.load(Ordering::Acquire));
        if r.off.load(Ordering::Acquire) || w.target().is_none() || w.claim(cpu.core_id()).is_some()
        {
            return false;
        }
        if !seen() {
            return false;
        }
        let n = r.misrouted.fetch_add(1, Ordering::AcqRel).saturating_add(1);
        if !pmi_claim::misrouted(n) || r.off.swap(true, Ordering::AcqRel) {
            return false;
        }
        r.fall_back.store(true, Ordering::Release);
        true
    }

    /// The online CPU of package `pkg` whose core has rank `rank` (the
    /// simulation's PMI delivery).
    #[cfg(feature = "sim")]
    pub(crate) fn cpu_of_core(pkg: usize, rank: u32) -> Option<CpuId> {
        CpuId::all().find(|&c| c.is_online() && c.package() == pkg && Self::core_index(c) == rank)
    }
}

impl<R: Backend> Core<R> {
    /// Carries out a fallback [`Ctx::pmi_misrouted`] decided for package
    /// `on` (its PMI work, hard interrupt context): `pmi_core_sel` names
    /// no core ("No PMI sent"), no core claims, one line says so.
    pub(crate) fn pmi_fallback(&self, on: OnPackage<'_>, nmi_cpu: CpuId) {
        let ctx = &self.ctx;
        let pkg = on.package();
        let Some(r) = ctx.pmi.get(pkg) else {
            return;
        };
        if !r.fall_back.swap(false, Ordering::AcqRel) {
            return;
        }
        let _ = ctx.write_global(on, |g: &mut GlobalState| g.pmi_cores = 0);
        let aimed = PmiWord::from_bits(r.word.load(Ordering::Acquire)).target();
        r.update(|w| w.aimed(None).moved());
        pr_warn!(
            "package {}: overflow PMIs aimed at core {} reached CPU {} ({} times): pmi_core_sel does not number cores as this driver does; polling only\n",
            pkg,
            aimed.map_or(-1, i64::from),
            nmi_cpu.as_u32(),
            pmi_claim::MISROUTED
        );
    }
}

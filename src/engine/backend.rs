// SPDX-License-Identifier: GPL-2.0

//! Where the driver's register accesses go. [`Backend`] is what differs
//! between the hardware (`hardware.rs`, in `rust_uncore.ko`) and the
//! register model of a simulated platform (`sim/`, in
//! `rust_uncore_sim.ko`): the register accesses, the PMI check, and what
//! each sets up at load. The engine is generic over it, and each module is
//! built with one backend: every register access is a direct call, and
//! the module users load carries neither the model nor the simulation's
//! files.
//!
//! A package's MSRs are only reached with an [`OnPackage`] proof that the
//! code runs on a CPU of that package, in both backends: the simulation
//! refuses what the hardware could not do.
//!
//! On hardware every MSR access is local: the engine only touches a
//! package's MSRs from a CPU of that package (the collector, the CPU being
//! hotplugged, or a CPU of the package reading its events). PCI
//! configuration space and MMIO go to the functions the PCI driver bound,
//! found in the registry (`pcibox`).
//!
//! Counter reads ([`Ctx::read_counter`]) are the `read` path and may run in
//! NMI context: they take no lock. On hardware an MSR or MMIO read is
//! NMI-safe; a configuration-space read takes the PCI core's lock, so in NMI
//! context it is not made (the event keeps its count as of the last
//! update).

use super::pcibox::PciEntry;
use super::{Core, Ctx};
use crate::hw::desc::{BoxType, Platform};
use crate::hw::pmi_probe::ProbeCounter;
#[cfg(feature = "sim")]
use crate::hw::program::Ctr;
use crate::hw::program::{Addr, CfgReg, CounterReg, Msr, Op, Ops};
use crate::sys::cpu::{InNmi, OnPackage};
use kernel::prelude::*;
use kernel::sync::Arc;

/// A point where a race test may pause (the simulation's `stall`; the
/// variants' order numbers its arming slots).
#[derive(Clone, Copy)]
pub(crate) enum StallPoint {
    /// A `cpumask` recomputation, between finding a collector whose box is
    /// gone and clearing its bit.
    Cpumask,
    /// An unplug, between retiring the box and unbinding its function.
    Unplug,
    /// A collector's hand-over, after the boxes whose function came back
    /// are initialised and before the new collector is published.
    Handover,
    /// This module's NMI handler, before it decides whether the NMI is its
    /// own and claims the NMIs sent to this CPU.
    Nmi,
    /// A package's park, after its global control is cleared and before
    /// the global control's lock is released.
    Park,
    /// A new event's `event_init`, after it chose the collector and before
    /// perf installs the event there (process context, no lock held).
    EventInit,
}

/// What the hardware and the simulation each do their own way.
pub(crate) trait Backend: Send + Sync + Sized + 'static {
    /// What finds the PCI functions and stays while the module is loaded,
    /// dropped after the PMUs (the hardware's PCI driver).
    type Functions: Send + Sync;
    /// What the backend adds once the PMUs exist, dropped before them (the
    /// simulation's debugfs files).
    type Extras: Send + Sync;
    /// Whether the NMI handler is registered on every platform, not only
    /// where counters raise PMIs (the simulation's NMI self-test).
    const NMI_ALWAYS: bool = false;

    /// The platform to drive on a machine of `packages` packages, and its
    /// backend; refuses with a kernel message.
    fn open(packages: usize) -> Result<(&'static Platform, Self)>;
    /// Finds the PCI functions of `ctx`'s platform, which has PCI or MMIO
    /// boxes, before their PMUs are registered.
    fn find_functions(module: &'static ThisModule, ctx: &Arc<Ctx<Self>>)
        -> Result<Self::Functions>;
    /// Hands the registered PMUs to what needs them (`functions`: what
    /// [`Backend::find_functions`] returned, if the platform has PCI or
    /// MMIO boxes).
    fn attach(
        module: &'static ThisModule,
        functions: Option<&Self::Functions>,
        core: &Arc<Core<Self>>,
    ) -> Result<Self::Extras>;
    /// Takes the PMUs back from `functions` at unload (before they are
    /// unregistered).
    fn detach(_functions: &Self::Functions) {}

    /// Reads MSR `msr` of the package `on` proves this CPU is in.
    fn rdmsr(&self, on: OnPackage<'_>, msr: Msr) -> Result<u64>;
    /// Writes MSR `msr` of the package `on` proves this CPU is in.
    fn wrmsr(&self, on: OnPackage<'_>, msr: Msr, v: u64) -> Result;
    /// Writes PMON register `off` of PCI function `e`.
    fn cfg_write(&self, e: &PciEntry, off: CfgReg, v: u32) -> Result;
    /// Reads counter `k` of package `at` (not masked), lock-free and
    /// NMI-safe.
    fn read_counter(&self, ctx: &Ctx<Self>, at: At<'_>, k: &Counter<'_>) -> Result<u64>;
    /// The read path's shortcut: reads counter register `r` from `at` when
    /// it is one read needing nothing more (no correction, no check that
    /// can fail), unmasked; `None` sends the read to
    /// [`Self::read_counter`].
    #[inline(always)]
    fn read_plain(&self, _at: At<'_>, _r: &CounterReg) -> Option<u64> {
        None
    }
    /// Whether an uncore PMI of this CPU's package is pending (NMI
    /// context, on the core the PMIs go to).
    fn pmi_pending(&self, ctx: &Ctx<Self>, nmi: &InNmi) -> bool;
    /// Whether an uncore PMI of this CPU's package is pending, asked on a
    /// core the PMIs are not aimed at, without taking it.
    fn pmi_seen(&self, ctx: &Ctx<Self>, nmi: &InNmi) -> bool;
    /// Lets the routing check's probe counter `p` of package `pkg`, armed,
    /// run to its overflow (process context). The hardware's counts the
    /// uncore clock on its own; the simulation's is given the counts and
    /// its PMI delivered.
    fn run_probe(&self, _ctx: &Ctx<Self>, _pkg: usize, _p: &ProbeCounter) {}
    /// Unmasks this CPU's PMI delivery after it took an uncore PMI: the
    /// local APIC masks its performance-counter entry (LVTPC) when it
    /// delivers one.
    fn rearm_pmi(&self, nmi: &InNmi);
    /// The simulation's own NMIs before the PMI check (the self-test's
    /// read): whether this one was such.
    fn test_nmi(&self, _nmi: &InNmi) -> bool {
        false
    }
    /// The simulation's NMIs of another source (`noise=1`): whether this
    /// one was such.
    fn noise_nmi(&self, _nmi: &InNmi) -> bool {
        false
    }
    /// The cores of a package, where one C-box per core is exposed (the
    /// simulation exposes every C-box of its model).
    fn cores_per_package(&self) -> Option<u32>;
    /// The configuration dword at `offset` of the first PCI function with
    /// Intel device ID `device`, if there is one and it reads (a count
    /// the platform reads there, [`GlobalControl::device_count`]). The
    /// simulation models no such function: the table's count stands.
    ///
    /// [`GlobalControl::device_count`]: crate::hw::global::GlobalControl::device_count
    fn config_dword(&self, _device: u16, _offset: u32) -> Option<u32> {
        None
    }
    /// A point where a race test may pause: nothing on hardware.
    fn stall(&self, _point: StallPoint) {}
    /// Whether boxes of type `t` get no PMU (the simulation's `hide=`, a
    /// driver that misses a box the machine has): never on hardware.
    fn hides(&self, _t: &BoxType) -> bool {
        false
    }
}

/// A counter of a box: box `i` of type `t`, its counter `c` at register
/// `r`.
pub(crate) struct Counter<'a> {
    pub(crate) t: &'a BoxType,
    pub(crate) i: usize,
    /// Which of the box's counters (the simulation's mirror is indexed by
    /// it; the hardware has the register `r`).
    #[cfg(feature = "sim")]
    pub(crate) c: Ctr,
    pub(crate) r: &'a CounterReg,
}

/// Where a package's register accesses are made from.
#[derive(Clone, Copy)]
pub(crate) enum At<'a> {
    /// A CPU of the package: every register.
    Cpu(OnPackage<'a>),
    /// Any CPU, for package `0`: configuration space and MMIO only (an
    /// MSR access is refused with `EINVAL`).
    Any(usize),
}

impl<'a> At<'a> {
    /// The package.
    pub(crate) fn package(self) -> usize {
        match self {
            At::Cpu(on) => on.package(),
            At::Any(pkg) => pkg,
        }
    }

    /// The proof an MSR access needs.
    pub(crate) fn on(self) -> Result<OnPackage<'a>> {
        match self {
            At::Cpu(on) => Ok(on),
            At::Any(_) => Err(EINVAL),
        }
    }
}

impl<R: Backend> Ctx<R> {
    /// Reads MSR `msr` of the package `on` proves this CPU is in.
    pub(crate) fn rdmsr(&self, on: OnPackage<'_>, msr: Msr) -> Result<u64> {
        self.regs.rdmsr(on, msr)
    }

    /// Writes MSR `msr` of the package `on` proves this CPU is in.
    pub(crate) fn wrmsr(&self, on: OnPackage<'_>, msr: Msr, v: u64) -> Result {
        self.regs.wrmsr(on, msr, v)
    }

    /// Executes `ops` for box `i` of type `t` of package `at`; stops at the
    /// first failing access.
    pub(crate) fn exec(&self, at: At<'_>, t: &BoxType, i: usize, ops: &Ops) -> Result {
        let regs = &self.regs;
        let pkg = at.package();
        for op in ops.as_slice() {
            match *op {
                Op::Write(Addr::Msr(a), v) => regs.wrmsr(at.on()?, a, v)?,
                Op::Write(Addr::Cfg(off), v) => {
                    let e = self.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                    regs.cfg_write(e, off, v as u32)?
                }
                Op::Write(Addr::Helper(off), v) => {
                    let e = self.registry.filter_entry(pkg, i).ok_or(ENODEV)?;
                    regs.cfg_write(e, off, v as u32)?
                }
                Op::Write(Addr::Mmio(_), _) => return Err(EINVAL),
                Op::WriteControlHalf(a, ctl) => {
                    let on = at.on()?;
                    let old = regs.rdmsr(on, a)?;
                    regs.wrmsr(on, a, (ctl & !0xffff_ffff) | (old & 0xffff_ffff))?;
                }
            }
        }
        Ok(())
    }

    /// Reads counter `code` (a [`Ctr::code`]) of box `i` of type `t` of
    /// package `at`, at its register `r` (`program::counter_reg`, resolved
    /// once per box: `program::CounterRegs`), masked to its width and
    /// corrected for the part's read errata (`CounterReg::value`).
    /// Lock-free and NMI-safe.
    #[inline(always)]
    pub(crate) fn read_counter(
        &self,
        at: At<'_>,
        t: &BoxType,
        i: usize,
        code: u8,
        r: &CounterReg,
    ) -> Result<u64> {
        let k = Counter {
            t,
            i,
            #[cfg(feature = "sim")]
            c: Ctr::from_code(code),
            r,
        };
        let v = self.regs.read_counter(self, at, &k)?;
        Ok(r.value(t, code, v))
    }
}

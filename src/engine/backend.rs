// SPDX-License-Identifier: GPL-2.0

//! Where the driver's register accesses go: the hardware, or the register
//! model of the simulated platform (`sim=`). [`Registers`] is what differs
//! between the two, implemented once by [`Hw`] and once by [`Sim`]; the
//! driver holds a [`Backend`], chosen once at load, and nothing outside
//! this file tells the two apart. What exists only under `sim=` (the
//! debugfs files, the clock, the self-test) holds the [`Sim`] itself.
//!
//! A package's MSRs are only reached with an [`OnPackage`] proof that the
//! code runs on a CPU of that package, in both implementations: the
//! simulation refuses what the hardware could not do.
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
//! update). In the simulation the model sits behind a lock, so every change
//! of the model publishes what a read of each of the socket's counters
//! returns into atomics ([`Sim::counter`]), which the read path loads.

use super::pcibox::PciEntry;
use super::selftest::NmiRead;
use super::sim::{StallPoint, Stalls};
use super::Ctx;
use crate::hw::counter::read_split;
use crate::hw::desc::BoxType;
use crate::hw::model::{self, Model, FIXED, MAX_BOXES, MAX_CTRS};
use crate::hw::platforms::nhmex;
use crate::hw::program::{Addr, CfgReg, CounterReg, Ctr, Msr, Op, Ops};
use crate::sys::cpu::{CpuId, InNmi, OnPackage};
use crate::sys::rcu::RcuBox;
use crate::sys::sync::IrqLock;
use crate::sys::{cpu, msr, rcu};
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use kernel::prelude::*;
use kernel::sync::Arc;

/// Counters of one model box in the mirror (general ones and the fixed one).
const PER_BOX: usize = MAX_CTRS + 1;

/// The kinds of register access the simulation counts ([`Sim::accesses`]).
#[derive(Clone, Copy)]
pub(crate) enum Access {
    /// An MSR read.
    MsrRead = 0,
    /// An MSR write.
    MsrWrite = 1,
    /// A PCI configuration-space dword read.
    CfgRead = 2,
    /// A PCI configuration-space dword write.
    CfgWrite = 3,
    /// An MMIO dword read.
    MmioRead = 4,
}

/// The names of the [`Access`] kinds, in their order (the `stats` file's
/// `access_*` lines).
pub(crate) const ACCESS_NAMES: [&str; 5] = [
    "msr_read",
    "msr_write",
    "cfg_read",
    "cfg_write",
    "mmio_read",
];

/// The simulated platform: the register model, the mirror of its counters
/// the lock-free read path uses, and the simulation's own NMIs and pauses.
pub(crate) struct Sim {
    model: Pin<KBox<IrqLock<KVBox<Model>>>>,
    /// What a read of each counter returns, by socket, box and counter.
    mirror: KVec<AtomicU64>,
    /// The driver's register accesses so far, by [`Access`] kind: what the
    /// same operations cost on hardware (the register-access benchmark).
    accesses: [AtomicU64; ACCESS_NAMES.len()],
    /// A PMI the model raised, by socket, not yet taken by an NMI.
    raised: KVec<AtomicBool>,
    /// An NMI to each CPU that no PMI stands behind (`noise=1`).
    noise: KVec<AtomicBool>,
    /// The one-shot pauses for race tests (`stall`).
    pub(crate) stalls: Stalls,
    /// The NMI read self-test while it runs.
    pub(crate) selftest: RcuBox<NmiRead>,
    /// A self-test runs: the one writer `selftest` allows (another gets
    /// `EBUSY`).
    pub(crate) selftest_busy: AtomicBool,
    /// What the `stats` file shows of the simulation's own.
    pub(crate) stats: SimStats,
}

/// The simulation's own counters in its `stats` file.
#[derive(Default)]
pub(crate) struct SimStats {
    /// The last NMI read self-test: rounds run.
    pub(crate) selftest_rounds: AtomicU64,
    /// ... rounds whose NMI read came back under the collector's locks.
    pub(crate) selftest_nmi_reads: AtomicU64,
    /// ... rounds that read the exact count.
    pub(crate) selftest_exact: AtomicU64,
    /// ... rounds whose NMI read was stale (a configuration-space box).
    pub(crate) selftest_stale: AtomicU64,
    /// ... rounds whose read after the NMI's (not from NMI) was exact.
    pub(crate) selftest_then_exact: AtomicU64,
    /// NMIs to other CPUs of a package (`noise=1`), taken.
    pub(crate) noise_nmis: AtomicU64,
}

impl Sim {
    /// A model of `platform`'s `sockets` sockets, with its mirror.
    pub(crate) fn new(
        model: Pin<KBox<IrqLock<KVBox<Model>>>>,
        sockets: usize,
    ) -> Result<Arc<Self>> {
        let n = sockets * MAX_BOXES * PER_BOX;
        let mut mirror = KVec::with_capacity(n, GFP_KERNEL)?;
        for _ in 0..n {
            mirror.push(AtomicU64::new(0), GFP_KERNEL)?;
        }
        let sim = Sim {
            model,
            mirror,
            accesses: Default::default(),
            raised: super::per_package(sockets, || Ok(AtomicBool::new(false)))?,
            // One per CPU number.
            noise: super::per_package(cpu::nr_cpu_ids() as usize, || Ok(AtomicBool::new(false)))?,
            stalls: Stalls::default(),
            selftest: RcuBox::new(),
            selftest_busy: AtomicBool::new(false),
            stats: SimStats::default(),
        };
        for s in 0..sockets {
            sim.publish(&sim.model.lock(), s);
        }
        Ok(Arc::new(sim, GFP_KERNEL)?)
    }

    /// Raises a PMI on socket `s`, for the NMI that follows.
    pub(crate) fn raise(&self, s: usize) {
        if let Some(r) = self.raised.get(s) {
            r.store(true, Ordering::Release);
        }
    }

    /// The flag of an NMI of another source to CPU `cpu` (`noise=1`).
    pub(crate) fn noise_flag(&self, cpu: CpuId) -> Option<&AtomicBool> {
        self.noise.get(cpu.as_u32() as usize)
    }

    /// Publishes the counters of socket `s` of `m` (the locked model).
    fn publish(&self, m: &Model, s: usize) {
        for k in 0..MAX_BOXES {
            for c in 0..PER_BOX {
                if let (Some(v), Some(a)) = (
                    m.counter_read(s, k, c),
                    self.mirror.get((s * MAX_BOXES + k) * PER_BOX + c),
                ) {
                    a.store(v, Ordering::Release);
                }
            }
        }
    }

    /// Runs `f` on the model of socket `s` (which `f` may change) and
    /// publishes the socket's counters.
    pub(crate) fn change<R>(&self, s: usize, f: impl FnOnce(&mut Model) -> R) -> R {
        let mut m = self.model.lock();
        let r = f(&mut m);
        self.publish(&m, s);
        r
    }

    /// Runs `f` on the model, read only.
    pub(crate) fn inspect<R>(&self, f: impl FnOnce(&Model) -> R) -> R {
        f(&self.model.lock())
    }

    /// The lock of the model (the simulation's self-test holds it while an
    /// NMI reads a counter).
    pub(crate) fn lock(&self) -> crate::sys::sync::IrqGuard<'_, KVBox<Model>> {
        self.model.lock()
    }

    /// What a read of counter `c` of model box `k` on socket `s` returns,
    /// without a lock.
    pub(crate) fn counter(&self, s: usize, k: usize, c: usize) -> Option<u64> {
        self.mirror
            .get((s * MAX_BOXES + k) * PER_BOX + c)
            .map(|a| a.load(Ordering::Acquire))
    }

    /// Counts one register access of kind `a`.
    fn count(&self, a: Access) {
        self.accesses[a as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// The register accesses counted so far, by [`Access`] kind.
    pub(crate) fn accesses(&self) -> [u64; ACCESS_NAMES.len()] {
        core::array::from_fn(|i| self.accesses[i].load(Ordering::Relaxed))
    }
}

/// What the hardware and the simulation each do their own way.
pub(crate) trait Registers: Send + Sync {
    /// Reads MSR `msr` of the package `on` proves this CPU is in.
    fn rdmsr(&self, on: OnPackage<'_>, msr: Msr) -> Result<u64>;
    /// Writes MSR `msr` of the package `on` proves this CPU is in.
    fn wrmsr(&self, on: OnPackage<'_>, msr: Msr, v: u64) -> Result;
    /// Reads dword `off` of PCI function `e`'s configuration space.
    fn cfg_read(&self, e: &PciEntry, off: u32) -> Result<u32>;
    /// Writes PMON register `off` of PCI function `e`.
    fn cfg_write(&self, e: &PciEntry, off: CfgReg, v: u32) -> Result;
    /// Reads counter `k` of package `at` (not masked), lock-free and
    /// NMI-safe.
    fn read_counter(&self, ctx: &Ctx, at: At<'_>, k: &Counter<'_>) -> Result<u64>;
    /// Whether an uncore PMI of this CPU's package is pending (NMI
    /// context, on the core the PMIs go to).
    fn pmi_pending(&self, nmi: &InNmi) -> bool;
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
    /// A point where a race test may pause (`stall`): nothing on hardware.
    fn stall(&self, _point: StallPoint) {}
}

/// A counter of a box: box `i` of type `t`, its counter `c` at register
/// `r`.
pub(crate) struct Counter<'a> {
    t: &'a BoxType,
    i: usize,
    c: Ctr,
    r: &'a CounterReg,
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

/// The hardware: real MSRs, PCI configuration space and MMIO.
pub(crate) struct Hw;

impl Registers for Hw {
    fn rdmsr(&self, _on: OnPackage<'_>, msr: Msr) -> Result<u64> {
        // The proof: this CPU's MSR is one of the package's.
        msr::read(msr)
    }

    fn wrmsr(&self, _on: OnPackage<'_>, msr: Msr, v: u64) -> Result {
        msr::write(msr, v)
    }

    fn cfg_read(&self, e: &PciEntry, off: u32) -> Result<u32> {
        if !e.is_present() {
            return Err(ENODEV);
        }
        let g = rcu::read_lock();
        e.device(&g).ok_or(ENODEV)?.read_config_u32(off)
    }

    fn cfg_write(&self, e: &PciEntry, off: CfgReg, v: u32) -> Result {
        if !e.is_present() {
            return Err(ENODEV);
        }
        let g = rcu::read_lock();
        e.device(&g).ok_or(ENODEV)?.write_config_u32(off, v)
    }

    fn read_counter(&self, ctx: &Ctx, at: At<'_>, k: &Counter<'_>) -> Result<u64> {
        let (pkg, t, i) = (at.package(), k.t, k.i);
        match k.r.addr {
            Addr::Msr(a) => {
                at.on()?;
                msr::read(a)
            }
            Addr::Cfg(off) => {
                // Configuration space takes the PCI core's lock: never
                // from NMI context.
                if cpu::in_nmi() {
                    return Err(EAGAIN);
                }
                let e = ctx.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                read_split(
                    || self.cfg_read(e, off.offset()),
                    || self.cfg_read(e, off.offset() + 4),
                )
            }
            Addr::Mmio(off) => {
                let e = ctx.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                let g = rcu::read_lock();
                if !e.is_present() {
                    return Err(ENODEV);
                }
                Ok(u64::from(e.mmio(&g).ok_or(ENODEV)?.read32(off)?))
            }
            Addr::Helper(_) => Err(EINVAL),
        }
    }

    fn pmi_pending(&self, _nmi: &InNmi) -> bool {
        // A local MSR read is fine in NMI context.
        msr::read(nhmex::U_GLOBAL_STATUS_MSR).is_ok_and(|st| st & U_STATUS_PMI != 0)
    }

    fn cores_per_package(&self) -> Option<u32> {
        Some(cpu::cores_per_package())
    }
}

/// `pmi` of `U_MSR_PMON_GLOBAL_STATUS`.
const U_STATUS_PMI: u64 = 1 << 30;

impl Registers for Sim {
    fn rdmsr(&self, on: OnPackage<'_>, msr: Msr) -> Result<u64> {
        self.count(Access::MsrRead);
        let pkg = on.package();
        self.inspect(|m| m.rdmsr(pkg, msr.addr())).map_err(|_| EIO)
    }

    fn wrmsr(&self, on: OnPackage<'_>, msr: Msr, v: u64) -> Result {
        self.count(Access::MsrWrite);
        let pkg = on.package();
        self.change(pkg, |m| m.wrmsr(pkg, msr.addr(), v))
            .map_err(|_| EIO)
    }

    fn cfg_read(&self, e: &PciEntry, off: u32) -> Result<u32> {
        if !e.is_present() {
            return Err(ENODEV);
        }
        self.count(Access::CfgRead);
        self.inspect(|m| m.cfg_read(e.pkg, e.role, off))
            .map_err(|_| EIO)
    }

    fn cfg_write(&self, e: &PciEntry, off: CfgReg, v: u32) -> Result {
        if !e.is_present() {
            return Err(ENODEV);
        }
        self.count(Access::CfgWrite);
        self.change(e.pkg, |m| m.cfg_write(e.pkg, e.role, off.offset(), v))
            .map_err(|_| EIO)
    }

    fn read_counter(&self, ctx: &Ctx, at: At<'_>, k: &Counter<'_>) -> Result<u64> {
        let (pkg, t, i, c, r) = (at.package(), k.t, k.i, k.c, k.r);
        if !matches!(r.addr, Addr::Msr(_)) {
            let e = ctx.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
            if !e.is_present() {
                return Err(ENODEV);
            }
        }
        let b = ctx.sim_box(t, i).ok_or(ENODEV)?;
        let n = match c {
            Ctr::General(j) | Ctr::Free(j) => j as usize,
            Ctr::Fixed => FIXED,
        };
        // The accesses the hardware path makes for this counter, on the
        // mirror's value.
        match r.addr {
            Addr::Msr(_) => {
                at.on()?;
                self.count(Access::MsrRead);
                self.counter(pkg, b, n).ok_or(ENODEV)
            }
            Addr::Cfg(_) => {
                // As on hardware: configuration space is never read from
                // NMI context (the read is skipped, the count stays as last
                // accounted).
                if cpu::in_nmi() {
                    return Err(EAGAIN);
                }
                let half = |shift: u32| {
                    self.count(Access::CfgRead);
                    self.counter(pkg, b, n)
                        .map(|v| (v >> shift) as u32)
                        .ok_or(ENODEV)
                };
                read_split(|| half(0), || half(32))
            }
            Addr::Mmio(_) => {
                self.count(Access::MmioRead);
                self.counter(pkg, b, n).ok_or(ENODEV)
            }
            Addr::Helper(_) => Err(EINVAL),
        }
    }

    fn pmi_pending(&self, nmi: &InNmi) -> bool {
        self.raised
            .get(nmi.package())
            .is_some_and(|r| r.swap(false, Ordering::AcqRel))
    }

    fn test_nmi(&self, nmi: &InNmi) -> bool {
        let g = rcu::read_lock();
        self.selftest.get(&g).is_some_and(|t| t.nmi(nmi))
    }

    fn noise_nmi(&self, nmi: &InNmi) -> bool {
        let taken = self
            .noise
            .get(nmi.cpu().as_u32() as usize)
            .is_some_and(|n| n.swap(false, Ordering::AcqRel));
        if taken {
            self.stats.noise_nmis.fetch_add(1, Ordering::Relaxed);
        }
        taken
    }

    fn cores_per_package(&self) -> Option<u32> {
        None
    }

    fn stall(&self, point: StallPoint) {
        self.stalls.at(point);
    }
}

/// The two implementations.
enum Kind {
    Hw(Hw),
    Sim(Arc<Sim>),
}

/// The register backend, chosen once at load.
pub(crate) struct Backend(Kind);

impl Backend {
    /// The hardware.
    pub(crate) fn hardware() -> Self {
        Backend(Kind::Hw(Hw))
    }

    /// The simulation `sim`.
    pub(crate) fn simulated(sim: Arc<Sim>) -> Self {
        Backend(Kind::Sim(sim))
    }

    /// The simulation, under `sim=`.
    pub(crate) fn simulation(&self) -> Option<&Arc<Sim>> {
        match &self.0 {
            Kind::Sim(s) => Some(s),
            Kind::Hw(_) => None,
        }
    }

    /// The implementation.
    #[inline(always)]
    fn regs(&self) -> &dyn Registers {
        match &self.0 {
            Kind::Hw(h) => h,
            Kind::Sim(s) => &**s,
        }
    }

    /// See [`Registers::pmi_pending`].
    pub(crate) fn pmi_pending(&self, nmi: &InNmi) -> bool {
        self.regs().pmi_pending(nmi)
    }

    /// See [`Registers::test_nmi`].
    pub(crate) fn test_nmi(&self, nmi: &InNmi) -> bool {
        self.regs().test_nmi(nmi)
    }

    /// See [`Registers::noise_nmi`].
    pub(crate) fn noise_nmi(&self, nmi: &InNmi) -> bool {
        self.regs().noise_nmi(nmi)
    }

    /// See [`Registers::cores_per_package`].
    pub(crate) fn cores_per_package(&self) -> Option<u32> {
        self.regs().cores_per_package()
    }

    /// See [`Registers::stall`].
    pub(crate) fn stall(&self, point: StallPoint) {
        self.regs().stall(point)
    }
}

impl Ctx {
    /// Reads MSR `msr` of the package `on` proves this CPU is in.
    pub(crate) fn rdmsr(&self, on: OnPackage<'_>, msr: Msr) -> Result<u64> {
        self.backend.regs().rdmsr(on, msr)
    }

    /// Writes MSR `msr` of the package `on` proves this CPU is in.
    pub(crate) fn wrmsr(&self, on: OnPackage<'_>, msr: Msr, v: u64) -> Result {
        self.backend.regs().wrmsr(on, msr, v)
    }

    /// Executes `ops` for box `i` of type `t` of package `at`; stops at the
    /// first failing access.
    pub(crate) fn exec(&self, at: At<'_>, t: &BoxType, i: usize, ops: &Ops) -> Result {
        let regs = self.backend.regs();
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

    /// Reads counter `c` of box `i` of type `t` of package `at`, at its
    /// register `r` (`program::counter_reg(t, i, c)`, resolved once per
    /// box: `program::CounterRegs`), masked to its width and corrected for
    /// the part's read errata (`CounterReg::value`). Lock-free and
    /// NMI-safe. An MSR on the hardware path is read inline.
    #[inline(always)]
    pub(crate) fn read_counter(
        &self,
        at: At<'_>,
        t: &BoxType,
        i: usize,
        c: Ctr,
        r: &CounterReg,
    ) -> Result<u64> {
        let v = match (&self.backend.0, r.addr, at) {
            (Kind::Hw(_), Addr::Msr(a), At::Cpu(_)) => msr::read(a)?,
            _ => self.read_counter_other(at, &Counter { t, i, c, r })?,
        };
        Ok(r.value(t, c, v))
    }

    /// [`Ctx::read_counter`] for the simulation and for configuration
    /// space and MMIO.
    #[inline(never)]
    fn read_counter_other(&self, at: At<'_>, counter: &Counter<'_>) -> Result<u64> {
        self.backend.regs().read_counter(self, at, counter)
    }

    /// The model box of box `i` of type `t`.
    fn sim_box(&self, t: &BoxType, i: usize) -> Option<usize> {
        let ti = self
            .platform
            .types
            .iter()
            .position(|x| core::ptr::eq(x, t))?;
        model::box_index(self.platform, ti, u8::try_from(i).ok()?)
    }
}

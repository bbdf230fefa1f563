// SPDX-License-Identifier: GPL-2.0

//! Where the driver's register accesses go: the hardware, or the register
//! model of the simulated platform (`sim=`).
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
use super::Ctx;
use crate::hw::counter::read_split;
use crate::hw::desc::BoxType;
use crate::hw::model::{self, Model, FIXED, MAX_BOXES, MAX_CTRS};
use crate::hw::program::{self, Addr, CfgReg, CounterReg, Ctr, Msr, Op, Ops};
use crate::sys::sync::IrqLock;
use crate::sys::{cpu, msr, rcu};
use core::sync::atomic::{AtomicU64, Ordering};
use kernel::prelude::*;

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

/// The simulated platform: the register model, and the mirror of its
/// counters the lock-free read path uses.
pub(crate) struct Sim {
    model: Pin<KBox<IrqLock<KVBox<Model>>>>,
    /// What a read of each counter returns, by socket, box and counter.
    mirror: KVec<AtomicU64>,
    /// The driver's register accesses so far, by [`Access`] kind: what the
    /// same operations cost on hardware (the register-access benchmark).
    accesses: [AtomicU64; ACCESS_NAMES.len()],
}

impl Sim {
    /// A model of `platform`'s `sockets` sockets, with its mirror.
    pub(crate) fn new(model: Pin<KBox<IrqLock<KVBox<Model>>>>, sockets: usize) -> Result<Self> {
        let n = sockets * MAX_BOXES * PER_BOX;
        let mut mirror = KVec::with_capacity(n, GFP_KERNEL)?;
        for _ in 0..n {
            mirror.push(AtomicU64::new(0), GFP_KERNEL)?;
        }
        let sim = Sim {
            model,
            mirror,
            accesses: Default::default(),
        };
        for s in 0..sockets {
            sim.publish(&sim.model.lock(), s);
        }
        Ok(sim)
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

/// The register backend.
pub(crate) enum Backend {
    /// Real MSRs, PCI configuration space and MMIO.
    Hw,
    /// The register model, one socket per package.
    Sim(Sim),
}

impl Ctx {
    /// Reads MSR `msr` of package `pkg`.
    pub(crate) fn rdmsr(&self, pkg: usize, msr: Msr) -> Result<u64> {
        match &self.backend {
            Backend::Hw => msr::read(msr),
            Backend::Sim(sim) => {
                sim.count(Access::MsrRead);
                sim.inspect(|m| m.rdmsr(pkg, msr.addr())).map_err(|_| EIO)
            }
        }
    }

    /// Writes MSR `msr` of package `pkg`.
    pub(crate) fn wrmsr(&self, pkg: usize, msr: Msr, v: u64) -> Result {
        match &self.backend {
            Backend::Hw => msr::write(msr, v),
            Backend::Sim(sim) => {
                sim.count(Access::MsrWrite);
                sim.change(pkg, |m| m.wrmsr(pkg, msr.addr(), v))
                    .map_err(|_| EIO)
            }
        }
    }

    fn cfg_read(&self, e: &PciEntry, off: u32) -> Result<u32> {
        if !e.is_present() {
            return Err(ENODEV);
        }
        match &self.backend {
            Backend::Hw => {
                let g = rcu::read_lock();
                e.device(&g).ok_or(ENODEV)?.read_config_u32(off)
            }
            Backend::Sim(sim) => {
                sim.count(Access::CfgRead);
                sim.inspect(|m| m.cfg_read(e.pkg, e.role, off))
                    .map_err(|_| EIO)
            }
        }
    }

    fn cfg_write(&self, e: &PciEntry, off: CfgReg, v: u32) -> Result {
        if !e.is_present() {
            return Err(ENODEV);
        }
        match &self.backend {
            Backend::Hw => {
                let g = rcu::read_lock();
                e.device(&g).ok_or(ENODEV)?.write_config_u32(off, v)
            }
            Backend::Sim(sim) => {
                sim.count(Access::CfgWrite);
                sim.change(e.pkg, |m| m.cfg_write(e.pkg, e.role, off.offset(), v))
                    .map_err(|_| EIO)
            }
        }
    }

    /// Executes `ops` for box `i` of type `t` on package `pkg`; stops at the
    /// first failing access.
    pub(crate) fn exec(&self, pkg: usize, t: &BoxType, i: usize, ops: &Ops) -> Result {
        for op in ops.as_slice() {
            match *op {
                Op::Write(Addr::Msr(a), v) => self.wrmsr(pkg, a, v)?,
                Op::Write(Addr::Cfg(off), v) => {
                    let e = self.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                    self.cfg_write(e, off, v as u32)?
                }
                Op::Write(Addr::Helper(off), v) => {
                    let e = self.registry.filter_entry(pkg, i).ok_or(ENODEV)?;
                    self.cfg_write(e, off, v as u32)?
                }
                Op::Write(Addr::Mmio(_), _) => return Err(EINVAL),
                Op::WriteControlHalf(a, ctl) => {
                    let old = self.rdmsr(pkg, a)?;
                    self.wrmsr(pkg, a, (ctl & !0xffff_ffff) | (old & 0xffff_ffff))?;
                }
            }
        }
        Ok(())
    }

    /// Reads counter `c` of box `i` of type `t` on package `pkg` (on a CPU
    /// of that package), at its register `r` (`program::counter_reg(t, i,
    /// c)`, resolved once per box: `program::CounterRegs`), masked to its
    /// width and corrected for the part's read errata
    /// (`program::read_value`). Lock-free and NMI-safe. An MSR on the
    /// hardware path is read inline; the other cases in
    /// [`Ctx::read_counter_other`].
    #[inline(always)]
    pub(crate) fn read_counter(
        &self,
        pkg: usize,
        t: &BoxType,
        i: usize,
        c: Ctr,
        r: CounterReg,
    ) -> Result<u64> {
        if let (Backend::Hw, Addr::Msr(a)) = (&self.backend, r.addr) {
            let v = msr::read(a)? & crate::hw::bits::low_mask(r.width);
            return Ok(program::read_value(t, c, v));
        }
        self.read_counter_other(pkg, t, i, c, r)
    }

    /// [`Ctx::read_counter`] for the simulation and for configuration
    /// space and MMIO.
    #[inline(never)]
    fn read_counter_other(
        &self,
        pkg: usize,
        t: &BoxType,
        i: usize,
        c: Ctr,
        r: CounterReg,
    ) -> Result<u64> {
        let mask = crate::hw::bits::low_mask(r.width);
        let v = match &self.backend {
            Backend::Sim(sim) => {
                if !matches!(r.addr, Addr::Msr(_)) {
                    let e = self.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                    if !e.is_present() {
                        return Err(ENODEV);
                    }
                }
                let k = self.sim_box(t, i).ok_or(ENODEV)?;
                let n = match c {
                    Ctr::General(j) | Ctr::Free(j) => j as usize,
                    Ctr::Fixed => FIXED,
                };
                // The accesses the hardware path makes for this counter,
                // on the mirror's value.
                match r.addr {
                    Addr::Msr(_) => {
                        sim.count(Access::MsrRead);
                        sim.counter(pkg, k, n).ok_or(ENODEV)?
                    }
                    Addr::Cfg(_) => {
                        // As on hardware: configuration space is never read
                        // from NMI context (the read is skipped, the count
                        // stays as last accounted).
                        if cpu::in_nmi() {
                            return Err(EAGAIN);
                        }
                        let half = |shift: u32| {
                            sim.count(Access::CfgRead);
                            sim.counter(pkg, k, n)
                                .map(|v| (v >> shift) as u32)
                                .ok_or(ENODEV)
                        };
                        read_split(|| half(0), || half(32))?
                    }
                    Addr::Mmio(_) => {
                        sim.count(Access::MmioRead);
                        sim.counter(pkg, k, n).ok_or(ENODEV)?
                    }
                    Addr::Helper(_) => return Err(EINVAL),
                }
            }
            Backend::Hw => match r.addr {
                Addr::Msr(a) => msr::read(a)?,
                Addr::Cfg(off) => {
                    // Configuration space takes the PCI core's lock: never
                    // from NMI context.
                    if cpu::in_nmi() {
                        return Err(EAGAIN);
                    }
                    let e = self.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                    read_split(
                        || self.cfg_read(e, off.offset()),
                        || self.cfg_read(e, off.offset() + 4),
                    )?
                }
                Addr::Mmio(off) => {
                    let e = self.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
                    let g = rcu::read_lock();
                    if !e.is_present() {
                        return Err(ENODEV);
                    }
                    u64::from(e.mmio(&g).ok_or(ENODEV)?.read32(off)?)
                }
                Addr::Helper(_) => return Err(EINVAL),
            },
        };
        Ok(program::read_value(t, c, v & mask))
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

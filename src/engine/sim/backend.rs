// SPDX-License-Identifier: GPL-2.0

//! The simulation backend of `rust_uncore_sim.ko`: the register model of
//! the platform `sim=` names, behind the `rust_uncore:model` lock. Every
//! change of the model publishes what a read of each of the socket's
//! counters returns into atomics ([`Sim::counter`]), which the lock-free
//! read path loads; every access is counted by kind, as the hardware path
//! would make it.

use super::fault::Glitch;
use super::route::Route;
use super::selftest::NmiRead;
use super::{SimFiles, Stalls};
use crate::engine::backend::{At, Backend, Counter, StallPoint};
use crate::engine::pcibox::PciEntry;
use crate::engine::{per_package, plural, Core, Ctx};
use crate::glue;
use crate::hw::counter::read_split;
use crate::hw::desc::{BoxType, Platform};
use crate::hw::model::{self, Model, FIXED, MAX_BOXES, MAX_CTRS};
use crate::hw::platforms;
use crate::hw::pmi_probe::ProbeCounter;
use crate::hw::program::{Addr, CfgReg, Ctr, Msr};
use crate::sys::cpu::{self, CpuId, InNmi, OnPackage};
use crate::sys::rcu::{self, RcuBox};
use crate::sys::sync::{new_irq_lock, IrqLock};
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use kernel::prelude::*;
use kernel::sync::Arc;

/// Counters of one model box in the mirror (general ones and the fixed one).
pub(super) const PER_BOX: usize = MAX_CTRS + 1;

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
    /// The U-box's PMI delivery (the `pmi` file).
    pub(crate) route: Route,
    /// The platform's global control register, if it has one.
    global_msr: Option<u32>,
    /// The torn read armed through `glitch` (`fault.rs`).
    pub(crate) glitch: Glitch,
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
    /// ... calls refused as they must be from NMI context and with
    /// interrupts off (`EINVAL`), and calls that were not.
    pub(crate) selftest_refused: AtomicU64,
    pub(crate) selftest_accepted: AtomicU64,
    /// NMIs to other CPUs of a package (`noise=1`), taken.
    pub(crate) noise_nmis: AtomicU64,
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
            raised: per_package(sockets, || Ok(AtomicBool::new(false)))?,
            // One per CPU number.
            noise: per_package(cpu::nr_cpu_ids() as usize, || Ok(AtomicBool::new(false)))?,
            stalls: Stalls::default(),
            selftest: RcuBox::new(),
            selftest_busy: AtomicBool::new(false),
            stats: SimStats::default(),
            route: Route::new(cpu::nr_cpu_ids() as usize)?,
            global_msr: None,
            glitch: Glitch::default(),
        };
        for s in 0..sockets {
            sim.publish(&sim.model.lock(), s);
        }
        Ok(sim)
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

impl Backend for Sim {
    type Functions = ();
    type Extras = SimFiles;
    const NMI_ALWAYS: bool = true;

    fn open(packages: usize) -> Result<(&'static Platform, Self)> {
        let (platform, no_emon) = platform(packages)?;
        let mut m = crate::glue::model::alloc_zeroed()?;
        m.reset(platform.id, packages);
        m.no_emon = no_emon;
        pr_info!(
            "simulating {} with {} socket{}\n",
            platform.description,
            packages,
            plural(packages)
        );
        let model = KBox::pin_init(new_irq_lock!(m, "rust_uncore:model"), GFP_KERNEL)?;
        let mut sim = Sim::new(model, packages)?;
        sim.global_msr = platform
            .global
            .value(&crate::hw::program::GlobalState::default())
            .map(|(m, _)| m.addr());
        Ok((platform, sim))
    }

    fn find_functions(_module: &'static ThisModule, ctx: &Arc<Ctx<Self>>) -> Result {
        super::pci::enumerate(ctx)
    }

    fn attach(
        module: &'static ThisModule,
        _functions: Option<&()>,
        core: &Arc<Core<Self>>,
    ) -> Result<SimFiles> {
        SimFiles::new(module, core.clone())
            .inspect_err(|e| pr_err!("sim: the debugfs files could not be created: {:?}\n", e))
    }

    fn rdmsr(&self, on: OnPackage<'_>, msr: Msr) -> Result<u64> {
        self.count(Access::MsrRead);
        let pkg = on.package();
        self.inspect(|m| m.rdmsr(pkg, msr.addr())).map_err(|_| EIO)
    }

    fn wrmsr(&self, on: OnPackage<'_>, msr: Msr, v: u64) -> Result {
        self.count(Access::MsrWrite);
        if self.global_msr == Some(msr.addr()) && self.route.global_write_fails() {
            return Err(EIO);
        }
        let pkg = on.package();
        self.change(pkg, |m| m.wrmsr(pkg, msr.addr(), v))
            .map_err(|_| EIO)
    }

    fn cfg_write(&self, e: &PciEntry, off: CfgReg, v: u32) -> Result {
        if !e.is_present() {
            return Err(ENODEV);
        }
        if e.broken.load(Ordering::Acquire) {
            return Err(EIO);
        }
        self.count(Access::CfgWrite);
        self.change(e.pkg, |m| m.cfg_write(e.pkg, e.role, off.offset(), v))
            .map_err(|_| EIO)
    }

    fn read_counter(&self, ctx: &Ctx<Self>, at: At<'_>, k: &Counter<'_>) -> Result<u64> {
        let (pkg, t, i, c, r) = (at.package(), k.t, k.i, k.c, k.r);
        if !matches!(r.addr, Addr::Msr(_)) {
            let e = ctx.registry.box_entry(pkg, t, i).ok_or(ENODEV)?;
            if !e.is_present() {
                return Err(ENODEV);
            }
        }
        let b = sim_box(ctx.platform, t, i).ok_or(ENODEV)?;
        let n = match c {
            Ctr::General(j) | Ctr::Free(j) => j as usize,
            Ctr::Fixed => FIXED,
        };
        // The accesses the hardware path makes for this counter, on the
        // mirror's value; a torn read where `glitch` armed one.
        let v = match r.addr {
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
        }?;
        Ok(self.glitch.apply(pkg, b, n, v, r.width))
    }

    fn hides(&self, t: &BoxType) -> bool {
        super::fault::hidden(t)
    }

    fn pmi_pending(&self, _ctx: &Ctx<Self>, nmi: &InNmi) -> bool {
        self.raised
            .get(nmi.package())
            .is_some_and(|r| r.swap(false, Ordering::AcqRel))
    }

    /// The raised flag, left for the NMI it was raised for.
    fn pmi_seen(&self, _ctx: &Ctx<Self>, nmi: &InNmi) -> bool {
        self.raised
            .get(nmi.package())
            .is_some_and(|r| r.load(Ordering::Acquire))
    }

    fn rearm_pmi(&self, nmi: &InNmi) {
        self.route.rearm(nmi.cpu());
    }

    /// The probe counter's counts at once, and the PMI the model raises
    /// delivered as any other (`route` decides to which CPU).
    fn run_probe(&self, ctx: &Ctx<Self>, pkg: usize, p: &ProbeCounter) {
        let occ = model::Occurrence::simple(0xff, 0, p.counts);
        let cores = self.change(pkg, |m| {
            let _ = m.inject(pkg, p.kind, p.index, &occ);
            m.take_pmi(pkg)
        });
        self.deliver_pmis(ctx, pkg, cores, false);
    }

    fn test_nmi(&self, nmi: &InNmi) -> bool {
        let g = rcu::read_lock(nmi);
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

    /// The `capid4=` parameter, for the platform's box-count register
    /// only: the simulated part has that function when it is given.
    fn config_dword(&self, device: u16, offset: u32) -> Option<u32> {
        let p = platforms::by_id(self.inspect(|m| m.platform));
        let d = p.global.device_count()?;
        if d.device != device || d.offset != offset {
            return None;
        }
        glue::params::capid4()
    }

    fn stall(&self, point: StallPoint) {
        self.stalls.at(point, || {
            // A late PMI of this CPU's package (as `nmi <cpu> pmi` raises
            // one), its NMI sent to this CPU: it arrives inside the pause.
            let cpu = crate::sys::cpu::without_irqs(|irq| irq.cpu());
            let raised = self.raised.get(cpu.package())?;
            raised.store(true, Ordering::Release);
            if crate::sys::nmi::send(cpu).is_err() {
                raised.store(false, Ordering::Release);
                return None;
            }
            Some(raised)
        });
    }
}

/// The model box of box `i` of type `t` of `platform`.
pub(super) fn sim_box(platform: &Platform, t: &BoxType, i: usize) -> Option<usize> {
    let ti = platform.types.iter().position(|x| core::ptr::eq(x, t))?;
    model::box_index(platform, ti, u8::try_from(i).ok()?)
}

/// The `sim=` parameter: a platform and a socket count.
struct SimArg {
    platform: &'static Platform,
    sockets: Option<usize>,
    /// `pentiumd`: a family 15 model 6 part without the L3 EMON registers.
    no_emon: bool,
}

/// The names `sim=` takes, for messages: every platform's, then
/// `pentiumd`. It is `core`'s `Display`; 7.x's print macros take their own
/// `Display`, which `core::fmt::Arguments` has on every kernel, so messages
/// wrap it in `format_args!`.
struct SimNames;

impl core::fmt::Display for SimNames {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        for p in platforms::ALL.iter() {
            write!(f, "{}, ", p.name)?;
        }
        f.write_str("pentiumd")
    }
}

fn parse_sim(s: &str) -> Result<SimArg> {
    let (name, sockets) = match s.split_once(':') {
        Some((n, k)) => (n, Some(k.parse::<usize>().map_err(|_| EINVAL)?)),
        None => (s, None),
    };
    let no_emon = name == "pentiumd";
    let name = if no_emon { "xeon7100" } else { name };
    let platform = platforms::by_name(name).ok_or(EINVAL)?;
    Ok(SimArg {
        platform,
        sockets,
        no_emon,
    })
}

/// The platform `sim=` names, and whether the simulated part lacks the L3
/// EMON registers.
fn platform(packages: usize) -> Result<(&'static Platform, bool)> {
    let Some(s) = glue::params::sim() else {
        pr_err!(
            "sim=<platform>[:<sockets>] is required, with platform one of {}\n",
            format_args!("{}", SimNames)
        );
        return Err(EINVAL);
    };
    let s = s.to_str().map_err(|_| EINVAL)?;
    let arg = parse_sim(s).inspect_err(|_| {
        pr_err!(
            "sim={}: expected <platform>[:<sockets>] with platform one of {}\n",
            s,
            format_args!("{}", SimNames)
        )
    })?;
    if let Some(n) = arg.sockets {
        if n != packages {
            pr_err!(
                "sim={}: {} socket{} asked for, but this machine has {} package{}\n",
                s,
                n,
                plural(n),
                packages,
                plural(packages)
            );
            return Err(EINVAL);
        }
    }
    Ok((arg.platform, arg.no_emon))
}

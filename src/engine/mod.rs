// SPDX-License-Identifier: GPL-2.0

//! The driver engine: platform selection, one perf PMU per box, the
//! collecting CPU of each package and CPU hotplug, over a register backend
//! (hardware or the simulation).
//!
//! Safe Rust only: every call into C goes through the abstractions of
//! `rust/` (`crate::sys`).

#![forbid(unsafe_code)]

mod backend;
mod pcibox;
mod pmi;
mod pmu;
mod register;
mod selftest;
mod sim;
mod simclock;

use crate::hw::desc::{BoxKind, BoxType, Platform};
use crate::hw::pci::Role;
use crate::hw::platforms;
use crate::hw::program::{self, GlobalState};
use crate::sys::cpu::{self, CpuId, OnPackage};
use crate::sys::cpuhp::{self, HotplugOps};
use crate::sys::perf::Registration;
use crate::sys::sync::{new_irq_lock, IrqLock};
use crate::sys::{nmi, pci};
use backend::{At, Backend};
use core::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicU64, Ordering};
use kernel::c_str;
use kernel::prelude::*;
use kernel::sync::Arc;
use pmu::UncorePmu;

/// The PMI state of one package.
pub(crate) struct PkgPmiState {
    /// The core (`core_id`) that `pmi_core_sel` names: the NMI handler
    /// claims a PMI only on a CPU of that core, or of the core it named
    /// before (a PMI raised just before a hand-over). -1: none.
    target_core: AtomicI64,
    /// The core it named before.
    previous_core: AtomicI64,
}

/// The PMI counters (the simulation's `stats` file shows them).
#[derive(Default)]
pub(crate) struct Stats {
    /// NMIs taken as uncore PMIs.
    pub(crate) pmi_nmis: AtomicU64,
    /// PMIs handled (overflow walks done).
    pub(crate) pmis_handled: AtomicU64,
    /// NMIs seen and left to other handlers.
    pub(crate) nmi_not_ours: AtomicU64,
}

/// State shared by every PMU of the driver.
#[pin_data]
pub(crate) struct Ctx {
    /// The platform driven.
    pub(crate) platform: &'static Platform,
    /// Where register accesses go.
    pub(crate) backend: Backend,
    /// Number of packages.
    pub(crate) packages: usize,
    /// Collecting CPU of each package, or -1 while none is published (no
    /// online CPU, or a hand-over in progress: new events are refused).
    collectors: KVec<AtomicI32>,
    /// Packages whose uncore is stopped (no collector): nothing may enable
    /// their counting.
    parked: KVec<AtomicBool>,
    /// The module is unloading: a collector going offline parks its
    /// package instead of handing it over.
    unloading: AtomicBool,
    /// Global control state of each package.
    globals: KVec<Pin<KBox<IrqLock<GlobalState>>>>,
    /// The PCI functions of the PCI and MMIO boxes.
    #[pin]
    pub(crate) registry: pcibox::Registry,
    /// Serialises the recomputations of the PMUs' `cpumask` (hotplug, PCI
    /// probe and removal, plug and unplug): each sees the state the one
    /// before it left.
    #[pin]
    cpumasks: IrqLock<()>,
    /// PMI state of each package.
    pub(crate) pmi: KVec<PkgPmiState>,
    /// PMI statistics.
    pub(crate) stats: Stats,
}

impl Ctx {
    /// The collecting CPU of package `pkg`, if one is published.
    pub(crate) fn collector(&self, pkg: usize) -> Option<CpuId> {
        CpuId::from_i32(self.collectors.get(pkg)?.load(Ordering::Acquire))
    }

    /// Whether package `pkg`'s uncore is stopped.
    pub(crate) fn is_parked(&self, pkg: usize) -> bool {
        match self.parked.get(pkg) {
            Some(p) => p.load(Ordering::Acquire),
            None => true,
        }
    }

    /// The global control state of package `pkg`.
    pub(crate) fn global(&self, pkg: usize) -> GlobalState {
        self.globals.get(pkg).map(|g| *g.lock()).unwrap_or_default()
    }

    /// Changes the global control state of package `on` with `f` and, unless
    /// the package is parked, writes the platform's global control register.
    pub(crate) fn write_global(
        &self,
        on: OnPackage<'_>,
        f: impl FnOnce(&mut GlobalState),
    ) -> Result {
        let pkg = on.package();
        let g = self.globals.get(pkg).ok_or(EINVAL)?;
        let mut g = g.lock();
        f(&mut g);
        if self.is_parked(pkg) {
            return Ok(());
        }
        match program::global_value(self.platform, &g) {
            Some((msr, v)) => self.wrmsr(on, msr, v),
            None => Ok(()),
        }
    }

    /// Whether counters raise overflow PMIs on this platform.
    pub(crate) fn pmis(&self) -> bool {
        self.platform.global.raises_pmis()
    }

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

    /// Aims package `pkg`'s PMIs at `cpu`'s core (its collector): returns
    /// the `pmi_core_sel` bits to write, and records the core for the NMI
    /// handler's claim first. A core whose rank is past the field gets no
    /// PMIs (0): polling alone keeps the counts exact.
    pub(crate) fn aim_pmis(&self, pkg: usize, cpu: CpuId) -> u64 {
        let bit = self.platform.global.pmi_core_bit(Self::core_index(cpu));
        if let Some(st) = self.pmi.get(pkg) {
            let core = if bit != 0 {
                i64::from(cpu.core_id())
            } else {
                -1
            };
            let old = st.target_core.swap(core, Ordering::AcqRel);
            if old != core {
                st.previous_core.store(old, Ordering::Release);
            }
        }
        bit
    }

    /// A PMI of package `pkg` was handled on `cpu`: once that is the core
    /// `pmi_core_sel` names, the core it named before takes no more.
    pub(crate) fn pmi_arrived(&self, pkg: usize, cpu: CpuId) {
        if let Some(st) = self.pmi.get(pkg) {
            if st.target_core.load(Ordering::Acquire) == i64::from(cpu.core_id()) {
                st.previous_core.store(-1, Ordering::Release);
            }
        }
    }

    /// Whether `cpu` is a CPU of the core package `pkg`'s PMIs go to (or
    /// went to before the last hand-over, until a PMI reached the new
    /// one).
    pub(crate) fn is_pmi_target(&self, pkg: usize, cpu: CpuId) -> bool {
        let core = i64::from(cpu.core_id());
        self.pmi.get(pkg).is_some_and(|st| {
            st.target_core.load(Ordering::Acquire) == core
                || st.previous_core.load(Ordering::Acquire) == core
        })
    }

    /// The online CPU of package `pkg` whose core has rank `rank`.
    pub(crate) fn cpu_of_core(pkg: usize, rank: u32) -> Option<CpuId> {
        CpuId::all().find(|&c| c.is_online() && c.package() == pkg && Self::core_index(c) == rank)
    }
}

/// A registered PMU.
type Pmu = Pin<KBox<Registration<UncorePmu>>>;

/// Every registered PMU, and the context they share.
pub(crate) struct Core {
    ctx: Arc<Ctx>,
    pmus: KVec<Pmu>,
}

impl Core {
    /// Starts a package's uncore on `cpu`, its new collector (the CPU this
    /// runs on): the global control (with PMIs to `cpu`'s core) and every
    /// box present.
    fn start_package(&self, on: OnPackage<'_>, cpu: CpuId) {
        let pkg = on.package();
        if let Some(p) = self.ctx.parked.get(pkg) {
            p.store(false, Ordering::Release);
        }
        let pmis = self.ctx.pmis();
        let _ = self.ctx.write_global(on, |g| {
            *g = GlobalState::default();
            if pmis {
                g.pmi_cores = self.ctx.aim_pmis(pkg, cpu);
            }
        });
        for p in self.pmus.iter() {
            let o = p.ops();
            if o.present(pkg) {
                if let Err(e) = o.init_box(At::Cpu(on)) {
                    pr_warn!(
                        "{}: box init on package {} failed: {:?}\n",
                        o.name(),
                        pkg,
                        e
                    );
                }
            }
        }
    }

    /// Stops a package's uncore (its last CPU goes, or the module unloads):
    /// freezes its boxes and clears the global control. Afterwards nothing
    /// enables it until [`Core::start_package`].
    fn stop_package(&self, on: OnPackage<'_>) {
        let pkg = on.package();
        for p in self.pmus.iter() {
            let o = p.ops();
            if o.present(pkg) {
                o.park_box(on);
            }
        }
        let ops = program::global_exit(self.ctx.platform);
        if let Some(t) = self.ctx.platform.types.first() {
            let _ = self.ctx.exec(At::Cpu(on), t, 0, &ops);
        }
        if let Some(p) = self.ctx.parked.get(pkg) {
            p.store(true, Ordering::Release);
        }
    }

    /// Recomputes every PMU's `cpumask`: the collector of each package
    /// where its box is present.
    fn refresh_cpumasks(&self) {
        let _serial = self.ctx.cpumasks.lock();
        for p in self.pmus.iter() {
            p.ops().refresh_cpumask();
        }
    }

    /// The PMU of box `index` of kind `ty`.
    fn pmu_of(&self, ty: BoxKind, index: u8) -> Option<&UncorePmu> {
        self.pmus
            .iter()
            .map(|p| p.ops())
            .find(|o| o.box_type().kind == ty && o.index() == index as usize)
    }

    /// PCI function `role` of package `pkg` was bound after load: its box
    /// is initialised (if the package collects) and its PMU shows the
    /// package again.
    pub(crate) fn plugged(&self, pkg: usize, role: Role) {
        if let Role::Box { ty, index } = role {
            match self.pmu_of(ty, index) {
                Some(o) => {
                    if let Some(cpu) = self.ctx.collector(pkg) {
                        // Under the box's lock: the events started on it
                        // count again, with their poll timer on the
                        // collector.
                        match o.init_box(At::Any(pkg)) {
                            Ok(true) => {
                                let _ = cpu::run_on(cpu, &|_| o.restart_timer(pkg));
                            }
                            Ok(false) => {}
                            Err(e) => pr_warn!(
                                "{}: box init on package {} failed: {:?}\n",
                                o.name(),
                                pkg,
                                e
                            ),
                        }
                    }
                }
                None => pr_info!(
                    "{:?} of package {} appeared after load; reload the module to use it\n",
                    role,
                    pkg
                ),
            }
        }
        self.refresh_cpumasks();
    }

    /// Stops the events of the box that PCI function `role` of package
    /// `pkg` is, and marks the function gone.
    pub(crate) fn unplug(&self, pkg: usize, role: Role) -> Result {
        if !self.ctx.registry.present(pkg, role) {
            return Err(ENODEV);
        }
        if let Role::Box { ty, index } = role {
            if let Some(o) = self.pmu_of(ty, index) {
                o.retire(pkg);
            }
        }
        self.ctx.backend.stall(sim::StallPoint::Unplug);
        self.ctx.registry.unbind(pkg, role)?;
        self.refresh_cpumasks();
        pr_info!(
            "{:?} of package {} removed; its events stopped with their last counts\n",
            role,
            pkg
        );
        Ok(())
    }

    /// Cancels the poll timers of package `pkg`'s boxes.
    fn cancel_timers(&self, pkg: usize) {
        for p in self.pmus.iter() {
            p.ops().cancel_timer(pkg);
        }
    }
}

impl HotplugOps for Core {
    fn online(&self, cpu: CpuId) -> Result {
        let pkg = cpu.package();
        let Some(slot) = self.ctx.collectors.get(pkg) else {
            return Ok(());
        };
        if slot.load(Ordering::Acquire) >= 0 || self.ctx.unloading.load(Ordering::Acquire) {
            return Ok(());
        }
        // The package's first CPU: it starts the uncore, then is published.
        // (This callback runs on `cpu`.)
        cpu::without_irqs(|irq| match irq.on(pkg) {
            Some(on) => self.start_package(on, cpu),
            None => pr_warn!("CPU {} is not in package {}\n", cpu.as_u32(), pkg),
        });
        slot.store(cpu.as_u32() as i32, Ordering::Release);
        self.refresh_cpumasks();
        Ok(())
    }

    fn offline(&self, cpu: CpuId) -> Result {
        let pkg = cpu.package();
        let Some(slot) = self.ctx.collectors.get(pkg) else {
            return Ok(());
        };
        if slot.load(Ordering::Acquire) != cpu.as_u32() as i32 {
            return Ok(());
        }
        // Unpublish first: from here until the hand-over is complete, new
        // events of the package are refused.
        slot.store(-1, Ordering::Release);
        self.refresh_cpumasks();
        self.cancel_timers(pkg);
        let target = match self.ctx.unloading.load(Ordering::Acquire) {
            true => None,
            false => cpu.other_in_package(),
        };
        // This callback runs on `cpu`, a CPU of the package.
        let Some(target) = target else {
            cpu::without_irqs(|irq| {
                if let Some(on) = irq.on(pkg) {
                    self.stop_package(on);
                }
            });
            return Ok(());
        };
        // PMIs go to the new collector's core before its events arrive, so
        // that no overflow is signalled to a core that no longer collects.
        if self.ctx.pmis() {
            cpu::without_irqs(|irq| {
                if let Some(on) = irq.on(pkg) {
                    let _ = self
                        .ctx
                        .write_global(on, |g| g.pmi_cores = self.ctx.aim_pmis(pkg, target));
                }
            });
        }
        // Each event's `add` on the target restarts the box's poll timer
        // there.
        for p in self.pmus.iter() {
            p.migrate(cpu, target);
        }
        // A box whose function came back while the package had no
        // collector (a plug during this hand-over) is initialised now.
        for p in self.pmus.iter() {
            let o = p.ops();
            if o.present(pkg) && o.is_gone(pkg) {
                if let Err(e) = o.init_box(At::Any(pkg)) {
                    pr_warn!(
                        "{}: box init on package {} failed: {:?}\n",
                        o.name(),
                        pkg,
                        e
                    );
                }
            }
        }
        // And a box that counts has its poll timer on the target, whatever
        // perf's moves started (the timers were cancelled before them).
        let _ = cpu::run_on(target, &|_| {
            for p in self.pmus.iter() {
                p.ops().restart_timer(pkg);
            }
        });
        slot.store(target.as_u32() as i32, Ordering::Release);
        self.refresh_cpumasks();
        Ok(())
    }
}

/// The plural ending of a count in a kernel message: "1 package",
/// "2 packages".
fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// Whether a box type is driven through MSRs (present on every package).
fn is_msr(t: &BoxType) -> bool {
    t.space.in_msrs()
}

/// Whether a box type is a PCI or MMIO box.
fn is_pci(t: &BoxType) -> bool {
    t.space.in_device()
}

/// The loaded driver.
pub(crate) struct Driver {
    // Field order is drop order: hotplug first (with `unloading` set, every
    // collector's teardown parks its package), then the NMI handler, the
    // simulation's debugfs files, the PMUs, and the PCI driver.
    _hotplug: Pin<KBox<cpuhp::Registration<Core>>>,
    _nmi: Option<Pin<KBox<nmi::Registration<pmi::PmiNmi>>>>,
    _sim: Option<sim::SimFiles>,
    core: Arc<Core>,
    _pci: Option<Pin<KBox<pci::Registration<pcibox::PciHandler>>>>,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // Runs before the fields are dropped.
        self.core.ctx.unloading.store(true, Ordering::Release);
        // The PCI driver's reference to the PMUs goes first, so that they
        // are unregistered with `core`, before the PCI driver.
        if let Some(p) = &self._pci {
            drop(p.ops().take_core());
        }
    }
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

/// The platform to drive, `sim=`'s or the boot CPU's, and for `sim=`
/// whether the simulated part lacks the L3 EMON registers.
fn platform(packages: usize) -> Result<(&'static Platform, Option<bool>)> {
    let Some(s) = crate::glue::params::sim() else {
        return Ok((detect()?, None));
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
    Ok((arg.platform, Some(arg.no_emon)))
}

/// Per-package state, all packages alike.
fn per_package<T>(packages: usize, mut f: impl FnMut() -> Result<T>) -> Result<KVec<T>> {
    let mut v = KVec::with_capacity(packages, GFP_KERNEL)?;
    for _ in 0..packages {
        v.push(f()?, GFP_KERNEL)?;
    }
    Ok(v)
}

impl Driver {
    /// Detects the platform (or takes `sim=`), registers every PMU and the
    /// hotplug callbacks.
    pub(crate) fn new(module: &'static ThisModule) -> Result<Self> {
        let packages = cpu::max_packages().max(1);
        let (platform, sim) = platform(packages)?;
        let backend = if let Some(no_emon) = sim {
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
            Backend::simulated(backend::Sim::new(model, packages)?)
        } else {
            Backend::hardware()
        };
        let collectors = per_package(packages, || Ok(AtomicI32::new(-1)))?;
        let parked = per_package(packages, || Ok(AtomicBool::new(true)))?;
        let globals = per_package(packages, || {
            KBox::pin_init(
                new_irq_lock!(GlobalState::default(), "rust_uncore:global"),
                GFP_KERNEL,
            )
        })?;
        let pmi = per_package(packages, || {
            Ok(PkgPmiState {
                target_core: AtomicI64::new(-1),
                previous_core: AtomicI64::new(-1),
            })
        })?;
        let registry = pcibox::Registry::new(platform.id, packages)?;
        let ctx = Arc::pin_init(
            try_pin_init!(Ctx {
                platform,
                backend,
                packages,
                collectors,
                parked,
                unloading: AtomicBool::new(false),
                globals,
                registry <- registry,
                cpumasks <- new_irq_lock!((), "rust_uncore:cpumasks"),
                pmi,
                stats: Stats::default(),
            }),
            GFP_KERNEL,
        )?;

        probe(&ctx)?;
        let counts = register::box_counts(&ctx)?;
        register::check_names_free(&ctx, &counts)?;
        let mut pmus = KVec::new();
        register::box_pmus(module, &ctx, &counts, &mut pmus, register::Boxes::Msr)?;
        // PCI and MMIO boxes: find their functions, then register a PMU for
        // every box present on some package.
        let has_pci = platform.types.iter().any(is_pci);
        let pci_driver = match (ctx.backend.simulation(), has_pci) {
            (_, false) => None,
            (Some(sim), true) => {
                pcibox::enumerate_sim(&ctx, sim)?;
                None
            }
            (None, true) => match pcibox::PciHandler::new(ctx.clone()) {
                Ok(h) => Some(KBox::pin_init(
                    pci::Registration::new(module, c_str!("rust_uncore"), &crate::glue::PCI_IDS, h),
                    GFP_KERNEL,
                )?),
                Err(e) => {
                    pr_info!("no PCI uncore boxes: {:?}\n", e);
                    None
                }
            },
        };
        register::box_pmus(module, &ctx, &counts, &mut pmus, register::Boxes::Pci)?;
        let n_pmus = pmus.len();
        let core = Arc::new(
            Core {
                ctx: ctx.clone(),
                pmus,
            },
            GFP_KERNEL,
        )?;
        if let Some(d) = &pci_driver {
            d.ops().set_core(core.clone());
        }
        // PMIs on NHM-EX/WSM-EX; under `sim=` also the self-test's NMI reads.
        let nmi = match ctx.pmis() || ctx.backend.simulation().is_some() {
            true => Some(KBox::pin_init(
                nmi::Registration::new(c_str!("rust_uncore"), pmi::PmiNmi::new(&core)?),
                GFP_KERNEL,
            )?),
            false => None,
        };
        let sim_files = match ctx.backend.simulation() {
            Some(sim) => Some(
                sim::SimFiles::new(module, core.clone(), sim.clone()).inspect_err(|e| {
                    pr_err!("sim: the debugfs files could not be created: {:?}\n", e)
                })?,
            ),
            None => None,
        };
        // Last: nothing can fail after the packages start.
        let hotplug = KBox::pin_init(
            cpuhp::Registration::new(c_str!("perf/x86/rust_uncore:online"), core.clone()),
            GFP_KERNEL,
        )?;
        pr_info!(
            "{}: {} PMU{} on {} package{}\n",
            platform.description,
            n_pmus,
            plural(n_pmus),
            packages,
            plural(packages)
        );
        Ok(Driver {
            _hotplug: hotplug,
            _nmi: nmi,
            _sim: sim_files,
            core,
            _pci: pci_driver,
        })
    }
}

/// Checks that the part has the uncore its CPU model promises (the Xeon
/// 7100's family 15 model 6 also covers the Pentium 4 6x1, Pentium D 9xx
/// and Xeon 5000, which have no L3 EMON registers: a read faults), where
/// the platform's global control names an MSR to try. Refuses with
/// `ENODEV`.
fn probe(ctx: &Ctx) -> Result {
    // Any package's registers tell (this CPU's, on hardware).
    let Some(p) = ctx.platform.global.probe() else {
        return Ok(());
    };
    if cpu::without_irqs(|irq| ctx.rdmsr(irq.on_package(), p.msr)).is_err() {
        pr_info!(
            "{}: {} (MSR {:#x} faults): not a {}; no uncore PMUs\n",
            ctx.platform.description,
            p.lacking,
            p.msr.addr(),
            p.parts
        );
        return Err(ENODEV);
    }
    Ok(())
}

/// Picks the platform of the boot CPU, or refuses with `ENODEV`.
fn detect() -> Result<&'static Platform> {
    let id = cpu::boot_cpu();
    if !id.intel {
        pr_info!("not an Intel CPU; no uncore PMUs\n");
        return Err(ENODEV);
    }
    if id.hypervisor {
        pr_info!(
            "running under a hypervisor, which does not expose the uncore; sim=<platform> drives a simulated uncore instead, whose counters change only through its debugfs files\n"
        );
        return Err(ENODEV);
    }
    platforms::for_cpu(id.family, id.model).ok_or_else(|| {
        pr_info!(
            "CPU family {} model {} has no supported uncore; sim=<platform> drives a simulated uncore instead, whose counters change only through its debugfs files\n",
            id.family,
            id.model
        );
        ENODEV
    })
}

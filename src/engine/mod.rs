// SPDX-License-Identifier: GPL-2.0

//! The driver engine: platform selection, one perf PMU per box, the
//! collecting CPU of each package and CPU hotplug, generic over its
//! register backend ([`Backend`]): the hardware ([`Hardware`], the module
//! users load) or the simulation (`Sim`, `rust_uncore_sim.ko`). Each module
//! is built with one of them: the other's files are not compiled in.
//!
//! Safe Rust only: every call into C goes through the abstractions of
//! `rust/` (`crate::sys`).

#![forbid(unsafe_code)]

mod backend;
#[cfg(not(feature = "sim"))]
mod hardware;
mod pcibox;
mod pmi;
mod pmi_check;
mod pmi_route;
mod pmu;
mod register;
#[cfg(feature = "sim")]
mod sim;

pub(crate) use backend::Backend;
#[cfg(not(feature = "sim"))]
pub(crate) use hardware::Hardware;
#[cfg(feature = "sim")]
pub(crate) use sim::Sim;

use crate::hw::control::{self, Step};
use crate::hw::desc::{BoxKind, BoxType, Platform};
use crate::hw::pci::Role;
use crate::hw::program::{self, GlobalState};
use crate::sys::cpu::{self, CpuId, OnPackage};
use crate::sys::cpuhp::{self, HotplugOps};
use crate::sys::nmi;
use crate::sys::perf::Registration;
use crate::sys::sync::{new_irq_lock, IrqLock};
use backend::{At, StallPoint};
use core::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use kernel::c_str;
use kernel::prelude::*;
use kernel::sync::{new_mutex, Arc, Mutex};
use pcibox::PciLocation;
use pmu::UncorePmu;

/// The PMI counters (the simulation's `stats` file shows them).
#[derive(Default)]
pub(crate) struct Stats {
    /// NMIs taken as uncore PMIs.
    pub(crate) pmi_nmis: AtomicU64,
    /// PMIs handled (overflow walks done).
    pub(crate) pmis_handled: AtomicU64,
    /// NMIs seen and left to other handlers.
    pub(crate) nmi_not_ours: AtomicU64,
    /// NMIs taken without a PMI in a hand-over's grace.
    pub(crate) nmis_in_grace: AtomicU64,
    /// NMIs taken while a package's routing check ran.
    pub(crate) probe_nmis: AtomicU64,
    /// `add`s refused on a CPU that no longer holds its package's events
    /// (an event opened on a collector that handed over before perf
    /// installed it).
    pub(crate) stranded_adds: AtomicU64,
}

/// State shared by every PMU of the driver.
#[pin_data]
pub(crate) struct Ctx<R: Backend> {
    /// The platform driven.
    pub(crate) platform: &'static Platform,
    /// Where register accesses go.
    pub(crate) regs: R,
    /// Number of packages.
    pub(crate) packages: usize,
    /// Collecting CPU of each package, or -1 while none is published (no
    /// online CPU, or a hand-over in progress: new events are refused).
    collectors: KVec<AtomicI32>,
    /// The CPU whose perf context holds each package's events (-1 for
    /// none: parked): the collector, and during a hand-over the new
    /// collector from the moment the events start moving to it
    /// ([`control::home_after`]). `add` refuses any other CPU
    /// ([`control::adds_on`]).
    homes: KVec<AtomicI32>,
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
    /// Serialises the control plane: CPU online and offline (collector
    /// hand-overs, PMI target changes), PCI function plug and unplug. Taken
    /// in process context only, never by the data plane.
    #[pin]
    control: Mutex<()>,
    /// Whether counters raise overflow PMIs ([`Ctx::pmis`]).
    pmi_on: bool,
    /// Where each package's PMIs go ([`pmi_route::Route`]).
    pmi: KVec<pmi_route::Route>,
    /// PMI statistics.
    pub(crate) stats: Stats,
}

impl<R: Backend> Ctx<R> {
    /// The collecting CPU of package `pkg`, if one is published.
    pub(crate) fn collector(&self, pkg: usize) -> Option<CpuId> {
        CpuId::from_i32(self.collectors.get(pkg)?.load(Ordering::Acquire))
    }

    /// Whether `cpu` holds package `pkg`'s events: an event added on
    /// another CPU of the package was opened for a collector that handed
    /// its events over before perf installed it there, and would count
    /// nothing once that CPU is gone.
    pub(crate) fn is_home(&self, pkg: usize, cpu: CpuId) -> bool {
        control::adds_on(self.home(pkg), cpu.as_u32())
    }

    /// The CPU that holds package `pkg`'s events, if one does.
    fn home(&self, pkg: usize) -> Option<u32> {
        self.homes
            .get(pkg)
            .and_then(|h| u32::try_from(h.load(Ordering::Acquire)).ok())
    }

    /// Makes `cpu` the CPU that holds package `pkg`'s events (`None`: no
    /// CPU, the package parked).
    fn set_home(&self, pkg: usize, cpu: Option<u32>) {
        if let Some(h) = self.homes.get(pkg) {
            let v = cpu.and_then(|c| i32::try_from(c).ok()).unwrap_or(-1);
            h.store(v, Ordering::Release);
        }
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

    /// Parks package `on`: marks it parked and clears its global control,
    /// under the global control's lock, so that a concurrent PMI's
    /// [`Ctx::write_global`] (which checks the mark under that lock) cannot
    /// enable counting again after it.
    fn park(&self, on: OnPackage<'_>) {
        let pkg = on.package();
        let Some(g) = self.globals.get(pkg) else {
            return;
        };
        let _g = g.lock();
        if let Some(p) = self.parked.get(pkg) {
            p.store(true, Ordering::Release);
        }
        let ops = program::global_exit(self.platform);
        if let Some(t) = self.platform.types.first() {
            let _ = self.exec(At::Cpu(on), t, 0, &ops);
        }
        self.regs.stall(StallPoint::Park);
    }

    /// Whether counters raise overflow PMIs: the platform's raise them and
    /// `pmi=0` did not turn them off.
    pub(crate) fn pmis(&self) -> bool {
        self.pmi_on
    }
}

/// A registered PMU.
type Pmu<R> = Pin<KBox<Registration<UncorePmu<R>>>>;

/// Every registered PMU, and the context they share.
pub(crate) struct Core<R: Backend> {
    ctx: Arc<Ctx<R>>,
    pmus: KVec<Pmu<R>>,
}

impl<R: Backend> Core<R> {
    /// Recomputes every PMU's `cpumask`: the collector of each package
    /// where its box is present.
    fn refresh_cpumasks(&self) {
        let _serial = self.ctx.cpumasks.lock();
        for p in self.pmus.iter() {
            p.ops().refresh_cpumask();
        }
    }

    /// The PMU of box `index` of kind `ty`.
    fn pmu_of(&self, ty: BoxKind, index: u8) -> Option<&UncorePmu<R>> {
        self.pmus
            .iter()
            .map(|p| p.ops())
            .find(|o| o.box_type().kind == ty && o.index() == index as usize)
    }

    /// The PMU of the box PCI function `role` is.
    fn pmu_of_role(&self, role: Option<Role>) -> Option<&UncorePmu<R>> {
        match role? {
            Role::Box { ty, index } => self.pmu_of(ty, index),
            _ => None,
        }
    }

    /// The PMU of the box whose packet match/mask device function `role`
    /// is (a QPI port's filter device).
    fn pmu_of_helper(&self, role: Option<Role>) -> Option<&UncorePmu<R>> {
        let Some(Role::QpiFilter { port }) = role else {
            return None;
        };
        self.pmus
            .iter()
            .map(|p| p.ops())
            .find(|o| o.box_type().special.helper_device() && o.index() == usize::from(port))
    }

    /// The package's state a plan is made from.
    fn view(&self, pkg: usize) -> control::View {
        control::View {
            collector: self.ctx.collector(pkg).map(CpuId::as_u32),
            unloading: self.ctx.unloading.load(Ordering::Acquire),
        }
    }

    /// Runs `f` with IRQs off on this CPU, a CPU of package `pkg` (CPU
    /// hotplug callbacks run on the CPU they are for).
    fn on_package(&self, pkg: usize, f: impl FnOnce(OnPackage<'_>) + Send) {
        cpu::without_irqs(|irq| match irq.on(pkg) {
            Some(on) => f(on),
            // An invariant of the hotplug callbacks, not a user's doing.
            None => {
                crate::sys::warn_once!("a transition of package {} ran on another package\n", pkg)
            }
        });
    }

    /// Writes package `pkg`'s global control, changed by `f` and, where
    /// counters raise PMIs, with `pmi_core_sel` aimed at `cpu`'s core: the
    /// claim word moves to it only if the write succeeds
    /// ([`Ctx::pmis_written`]).
    fn aim_and_write(&self, pkg: usize, cpu: CpuId, f: impl FnOnce(&mut GlobalState) + Send) {
        let pmis = self.ctx.pmis();
        let mut grace = None;
        self.on_package(pkg, |on| {
            let aim = pmis.then(|| self.ctx.aim_pmis(pkg, cpu));
            let written = self.ctx.write_global(on, |g| {
                f(g);
                if let Some(a) = aim {
                    // Under the global control's lock, as the fallback's
                    // write: PMIs turned off meanwhile stay off.
                    g.pmi_cores = if self.ctx.pmis_off(pkg) { 0 } else { a.bits };
                }
            });
            if let Some(a) = aim {
                grace = self.ctx.pmis_written(on, a, cpu, written);
            }
        });
        if let Some(of) = grace {
            self.ctx.close_grace(pkg, of);
        }
    }

    /// Initialises box `o` of package `at`, reporting a failure.
    fn init_box(o: &UncorePmu<R>, at: At<'_>) -> Result<bool> {
        o.init_box(at).inspect_err(|e| {
            pr_warn!(
                "{}: box init on package {} failed: {:?}\n",
                o.name(),
                at.package(),
                e
            )
        })
    }

    /// Does to package `pkg`'s poll timers what a step asks
    /// ([`control::timers_in`]): cancels them (process context: the
    /// cancel waits for a running callback), then starts those of the
    /// boxes that count on the CPU named.
    fn run_timers(&self, pkg: usize, t: control::Timers) {
        if t.cancel {
            for p in self.pmus.iter() {
                p.ops().cancel_timer(pkg);
            }
        }
        if let Some(cpu) = t.start_on.and_then(CpuId::from_u32) {
            let _ = cpu::run_on(cpu, &|_| {
                for p in self.pmus.iter() {
                    p.ops().restart_timer(pkg);
                }
            });
        }
    }

    /// Runs the steps of transition `t` of package `pkg`
    /// ([`control::plan`]), under the control lock. `role` is the PCI
    /// function a plug or unplug is for, `bind` binds it.
    fn run(
        &self,
        pkg: usize,
        t: control::Transition,
        role: Option<Role>,
        at: Option<PciLocation>,
        bind: impl FnOnce() -> Result,
    ) -> Result {
        let Some(slot) = self.ctx.collectors.get(pkg) else {
            return Ok(());
        };
        let mut bind = Some(bind);
        for &s in control::plan(t, self.view(pkg)).steps() {
            // From a hand-over's move on, an `add` on the CPU going is
            // refused: perf may still install there an event opened for
            // it (perf's own teardown of that CPU runs after this one),
            // which the move does not carry.
            self.ctx
                .set_home(pkg, control::home_after(s, self.ctx.home(pkg)));
            self.run_timers(pkg, control::timers_in(s));
            match s {
                Step::Unpublish => slot.store(-1, Ordering::Release),
                Step::Publish { cpu } => {
                    slot.store(i32::try_from(cpu).unwrap_or(-1), Ordering::Release)
                }
                Step::RefreshCpumasks => self.refresh_cpumasks(),
                // Done above ([`control::timers_in`]).
                Step::CancelTimers | Step::RestartTimers { .. } => {}
                Step::StartGlobal { cpu } => {
                    let Some(cpu) = CpuId::from_u32(cpu) else {
                        continue;
                    };
                    if let Some(p) = self.ctx.parked.get(pkg) {
                        p.store(false, Ordering::Release);
                    }
                    if self.ctx.pmis() {
                        self.check_pmi_route(pkg);
                    }
                    self.aim_and_write(pkg, cpu, |g| *g = GlobalState::default());
                }
                Step::AimPmis { cpu } => {
                    let Some(cpu) = CpuId::from_u32(cpu) else {
                        continue;
                    };
                    if self.ctx.pmis() {
                        self.aim_and_write(pkg, cpu, |_| {});
                    }
                }
                Step::InitBoxes(which) => {
                    self.on_package(pkg, |on| {
                        for p in self.pmus.iter() {
                            let o = p.ops();
                            if which.includes(o.present(pkg), o.is_gone(pkg)) {
                                let _ = Self::init_box(o, At::Cpu(on));
                            }
                        }
                    });
                    if which == control::Boxes::Returned {
                        self.ctx.regs.stall(StallPoint::Handover);
                    }
                }
                Step::MoveEvents { from, to } => {
                    let (Some(from), Some(to)) = (CpuId::from_u32(from), CpuId::from_u32(to))
                    else {
                        continue;
                    };
                    // Each event's `add` on the target restarts its box's
                    // poll timer there.
                    for p in self.pmus.iter() {
                        if let Err(e) = p.migrate(from, to) {
                            pr_warn!("{}: events not moved: {:?}\n", p.ops().name(), e);
                        }
                    }
                }
                Step::ParkBoxes => self.on_package(pkg, |on| {
                    for p in self.pmus.iter() {
                        if p.ops().present(pkg) {
                            p.ops().park_box(on);
                        }
                    }
                }),
                Step::ParkGlobal => self.on_package(pkg, |on| self.ctx.park(on)),
                Step::Bind => {
                    if let Some(b) = bind.take() {
                        b()?;
                    }
                }
                Step::InitPlugged => {
                    // Where no collector is published, the package's start
                    // initialises what is bound ([`control::plug_inits`]).
                    let collector = self.ctx.collector(pkg);
                    let inits = control::plug_inits(collector.map(CpuId::as_u32));
                    let target = collector.filter(|_| inits);
                    if let Some(o) = self.pmu_of_role(role) {
                        let Some(cpu) = target else { continue };
                        // Under the box's lock: the events started on it
                        // count again, with their poll timer on the
                        // collector.
                        if let Ok(true) = Self::init_box(o, At::Any(pkg)) {
                            let _ = cpu::run_on(cpu, &|_| o.restart_timer(pkg));
                        }
                    } else if let Some(o) = self.pmu_of_helper(role) {
                        // A QPI port's match/mask device: the port's events
                        // that use it count again, their filter written.
                        let Some(cpu) = target else { continue };
                        if o.init_helper(pkg) {
                            let _ = cpu::run_on(cpu, &|_| o.restart_timer(pkg));
                        }
                    } else if let (Some(r @ Role::Box { .. }), Some(at)) = (role, at) {
                        // A box without a PMU (its functions were all
                        // absent at load).
                        pr_info!(
                            "{}: {} of package {} appeared after load; reload the module to use it\n",
                            format_args!("{}", at),
                            format_args!("{}", r.log_name(self.ctx.platform)),
                            pkg
                        );
                    }
                }
                Step::Retire => {
                    if let Some(o) = self.pmu_of_role(role) {
                        o.retire(pkg);
                    } else if let Some(o) = self.pmu_of_helper(role) {
                        o.retire_helper(pkg);
                    }
                    self.ctx.regs.stall(StallPoint::Unplug);
                }
                Step::Unbind => {
                    if let Some(r) = role {
                        self.ctx.registry.unbind(pkg, r)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// Binds PCI function `role` of package `pkg` after load (`bind`) and
    /// starts its box (if the package collects), in one control transition:
    /// its PMU shows the package again.
    pub(crate) fn plug(
        &self,
        pkg: usize,
        role: Role,
        at: PciLocation,
        bind: impl FnOnce() -> Result,
    ) -> Result {
        let _control = self.ctx.control.lock();
        self.run(pkg, control::Transition::Plug, Some(role), Some(at), bind)
    }

    /// Stops the events of the box that PCI function `role` of package
    /// `pkg` is, and marks the function gone.
    pub(crate) fn unplug(&self, pkg: usize, role: Role, at: PciLocation) -> Result {
        let _control = self.ctx.control.lock();
        if !self.ctx.registry.present(pkg, role) {
            return Err(ENODEV);
        }
        self.run(
            pkg,
            control::Transition::Unplug,
            Some(role),
            None,
            || Ok(()),
        )?;
        pr_info!(
            "{}: {} of package {} removed; its events stopped with their last counts\n",
            format_args!("{}", at),
            format_args!("{}", role.log_name(self.ctx.platform)),
            pkg
        );
        Ok(())
    }
}

impl<R: Backend> HotplugOps for Core<R> {
    fn online(&self, cpu: CpuId) -> Result {
        let _control = self.ctx.control.lock();
        let t = control::Transition::Online { cpu: cpu.as_u32() };
        self.run(cpu.package(), t, None, None, || Ok(()))
    }

    fn offline(&self, cpu: CpuId) -> Result {
        let _control = self.ctx.control.lock();
        let t = control::Transition::Offline {
            cpu: cpu.as_u32(),
            other: cpu.other_in_package().map(CpuId::as_u32),
        };
        self.run(cpu.package(), t, None, None, || Ok(()))
    }
}

/// The plural ending of a count in a kernel message: "1 package",
/// "2 packages".
pub(crate) fn plural(n: usize) -> &'static str {
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
pub(crate) struct Driver<R: Backend> {
    // Field order is drop order: hotplug first (with `unloading` set, every
    // collector's teardown parks its package), then the NMI handler, what
    // the backend added (the simulation's debugfs files), the PMUs, and
    // what found the PCI functions (the hardware's PCI driver).
    _hotplug: Pin<KBox<cpuhp::Registration<Core<R>>>>,
    _nmi: Option<Pin<KBox<nmi::Registration<pmi::PmiNmi<R>>>>>,
    _extras: R::Extras,
    core: Arc<Core<R>>,
    functions: Option<R::Functions>,
}

impl<R: Backend> Drop for Driver<R> {
    fn drop(&mut self) {
        // Runs before the fields are dropped.
        self.core.ctx.unloading.store(true, Ordering::Release);
        // The PCI driver's reference to the PMUs goes first, so that they
        // are unregistered with `core`, before the PCI driver.
        if let Some(f) = &self.functions {
            R::detach(f);
        }
    }
}

/// A loaded module, the engine over backend `R`: what a crate root's
/// `module!` names.
pub(crate) struct Loaded<R: Backend>(Driver<R>);

impl<R: Backend> kernel::Module for Loaded<R> {
    fn init(module: &'static ThisModule) -> Result<Self> {
        Ok(Loaded(Driver::new(module)?))
    }
}

/// Per-package state, all packages alike.
pub(crate) fn per_package<T>(packages: usize, mut f: impl FnMut() -> Result<T>) -> Result<KVec<T>> {
    let mut v = KVec::with_capacity(packages, GFP_KERNEL)?;
    for _ in 0..packages {
        v.push(f()?, GFP_KERNEL)?;
    }
    Ok(v)
}

impl<R: Backend> Driver<R> {
    /// Opens the backend (the boot CPU's platform, or `sim=`'s), registers
    /// every PMU and the hotplug callbacks.
    pub(crate) fn new(module: &'static ThisModule) -> Result<Self> {
        let packages = cpu::max_packages().max(1);
        let (platform, regs) = R::open(packages)?;
        let collectors = per_package(packages, || Ok(AtomicI32::new(-1)))?;
        let homes = per_package(packages, || Ok(AtomicI32::new(-1)))?;
        let parked = per_package(packages, || Ok(AtomicBool::new(true)))?;
        let globals = per_package(packages, || {
            KBox::pin_init(
                new_irq_lock!(GlobalState::default(), "rust_uncore:global"),
                GFP_KERNEL,
            )
        })?;
        let pmi = per_package(packages, || Ok(pmi_route::Route::default()))?;
        let pmi_on = platform.global.raises_pmis() && crate::glue::params::pmi();
        let registry = pcibox::Registry::new(platform.id, packages)?;
        let ctx = Arc::pin_init(
            try_pin_init!(Ctx {
                platform,
                regs,
                packages,
                collectors,
                homes,
                parked,
                unloading: AtomicBool::new(false),
                globals,
                registry <- registry,
                cpumasks <- new_irq_lock!((), "rust_uncore:cpumasks"),
                control <- new_mutex!((), "rust_uncore:control"),
                pmi_on,
                pmi,
                stats: Stats::default(),
            }),
            GFP_KERNEL,
        )?;

        probe(&ctx)?;
        let mut counts = register::box_counts(&ctx)?;
        device_counts(&ctx, &mut counts);
        register::check_names_free(&ctx, &counts)?;
        let mut pmus = KVec::new();
        register::box_pmus(module, &ctx, &counts, &mut pmus, register::Boxes::Msr)?;
        // PCI and MMIO boxes: find their functions, then register a PMU for
        // every box present on some package.
        let functions = match platform.types.iter().any(is_pci) {
            true => Some(R::find_functions(module, &ctx)?),
            false => None,
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
        // On a failure from here on, the PCI driver gives the PMUs back
        // first, as at unload.
        let undo = |e: Error| {
            if let Some(f) = &functions {
                R::detach(f);
            }
            e
        };
        let extras = R::attach(module, functions.as_ref(), &core).map_err(undo)?;
        // PMIs on NHM-EX/WSM-EX; in the simulation also the self-test's NMI
        // reads.
        let nmi = match ctx.pmis() || R::NMI_ALWAYS {
            true => {
                let handler = pmi::PmiNmi::new(&core).map_err(undo)?;
                Some(KBox::pin_init(nmi::Registration::new(handler), GFP_KERNEL).map_err(undo)?)
            }
            false => None,
        };
        // Last: nothing can fail after the packages start.
        let hotplug = KBox::pin_init(
            cpuhp::Registration::new(c_str!("perf/x86/rust_uncore:online"), core.clone()),
            GFP_KERNEL,
        )
        .map_err(undo)?;
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
            _extras: extras,
            core,
            functions,
        })
    }
}

/// Lowers the box count a PCI function of the platform reports, when it
/// reports one ([`GlobalControl::device_count`]: Haswell-EP's S-boxes in
/// the PCU's `CAPID4`). Without the function the table's count stands.
///
/// [`GlobalControl::device_count`]: crate::hw::global::GlobalControl::device_count
fn device_counts<R: Backend>(ctx: &Ctx<R>, counts: &mut [usize]) {
    let Some(d) = ctx.platform.global.device_count() else {
        return;
    };
    let Some(v) = ctx.regs.config_dword(d.device, d.offset) else {
        return;
    };
    for (t, n) in ctx.platform.types.iter().zip(counts.iter_mut()) {
        if t.kind == d.kind {
            if let Some(k) = (d.decode)(v).filter(|&k| k < *n) {
                pr_info!("{} ({:#010x}): {} {} boxes\n", d.name, v, k, t.name());
                *n = k;
            }
        }
    }
}

/// Checks that the part has the uncore its CPU model promises (the Xeon
/// 7100's family 15 model 6 also covers the Pentium 4 6x1, Pentium D 9xx
/// and Xeon 5000, which have no L3 EMON registers: a read faults), where
/// the platform's global control names an MSR to try. Refuses with
/// `ENODEV`.
fn probe<R: Backend>(ctx: &Ctx<R>) -> Result {
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

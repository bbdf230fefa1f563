// SPDX-License-Identifier: GPL-2.0

//! The driver engine: platform selection, one perf PMU per box, the
//! collecting CPU of each package and CPU hotplug, over a register backend
//! (hardware or the simulation).

mod backend;
mod pcibox;
mod pmi;
mod pmu;
mod sim;

use crate::hw::desc::{BoxType, Platform, Space};
use crate::hw::platforms::{self, skl};
use crate::hw::program::{self, GlobalState};
use crate::sys::cpu;
use crate::sys::hotplug::{Hotplug, HotplugOps};
use crate::sys::perf::{self, Attr, Pmu};
use crate::sys::sync::{IrqLock, LockClass};
use backend::Backend;
use core::fmt::Write;
use core::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use kernel::c_str;
use kernel::prelude::*;
use kernel::sync::Arc;
use pmu::UncorePmu;

/// Longest PMU or attribute name the driver builds.
const NAME_MAX: usize = 48;

/// A short string built on the stack.
struct Name {
    buf: [u8; NAME_MAX],
    len: usize,
}

impl Name {
    fn new() -> Self {
        Name { buf: [0; NAME_MAX], len: 0 }
    }

    fn as_str(&self) -> &str {
        core::str::from_utf8(&self.buf[..self.len]).unwrap_or("")
    }
}

impl Write for Name {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > NAME_MAX {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The PMI state of one package.
pub(crate) struct PkgPmiState {
    /// The simulation raised a PMI to the collector.
    raised: AtomicBool,
}

/// Counters shown in the simulation's `stats` file.
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
pub(crate) struct Ctx {
    /// The platform driven.
    pub(crate) platform: &'static Platform,
    /// Where register accesses go.
    pub(crate) backend: Backend,
    /// Number of packages.
    pub(crate) packages: usize,
    /// Collecting CPU of each package, or -1.
    collectors: KVec<AtomicI32>,
    /// Global control state of each package.
    globals: KVec<IrqLock<GlobalState>>,
    /// The PCI functions of the PCI and MMIO boxes.
    pub(crate) pci: IrqLock<KVec<pcibox::PciEntry>>,
    /// PMI state of each package.
    pub(crate) pmi: KVec<PkgPmiState>,
    /// PMI statistics.
    pub(crate) stats: Stats,
}

impl Ctx {
    /// The collecting CPU of package `pkg`.
    pub(crate) fn collector(&self, pkg: usize) -> Option<u32> {
        let c = self.collectors.get(pkg)?.load(Ordering::Acquire);
        (c >= 0).then_some(c as u32)
    }

    /// The global control state of package `pkg`.
    pub(crate) fn global(&self, pkg: usize) -> GlobalState {
        self.globals.get(pkg).map(|g| *g.lock()).unwrap_or_default()
    }

    /// Changes the global control state of package `pkg` with `f` and writes
    /// the platform's global control register (on a CPU of the package).
    pub(crate) fn write_global(&self, pkg: usize, f: impl FnOnce(&mut GlobalState)) -> Result {
        let g = self.globals.get(pkg).ok_or(EINVAL)?;
        let mut g = g.lock();
        f(&mut g);
        match program::global_value(self.platform, &g) {
            Some((msr, v)) => self.wrmsr(pkg, msr, v),
            None => Ok(()),
        }
    }

    /// Whether counters raise overflow PMIs on this platform.
    pub(crate) fn pmis(&self) -> bool {
        self.platform.global == crate::hw::desc::Global::NhmexU
    }

    /// The bit of `cpu`'s core in `pmi_core_sel`: the rank of its core ID
    /// among the core IDs of its package.
    pub(crate) fn core_index(cpu: u32) -> u32 {
        let pkg = cpu::package(cpu);
        let id = cpu::core_id(cpu);
        let mut seen = [false; 64];
        let mut rank = 0;
        for c in 0..cpu::nr_cpu_ids() {
            if cpu::present(c) && cpu::package(c) == pkg {
                let k = cpu::core_id(c);
                if k < id && (k as usize) < seen.len() && !seen[k as usize] {
                    seen[k as usize] = true;
                    rank += 1;
                }
            }
        }
        rank
    }

    /// The online CPU of package `pkg` whose core has rank `rank`.
    pub(crate) fn cpu_of_core(pkg: usize, rank: u32) -> Option<u32> {
        (0..cpu::nr_cpu_ids()).find(|&c| cpu::online(c) && cpu::package(c) == pkg && Self::core_index(c) == rank)
    }
}

/// Every registered PMU, and the context they share.
pub(crate) struct Core {
    ctx: Arc<Ctx>,
    pmus: KVec<Pmu<UncorePmu>>,
}

impl Core {
    /// Starts a package's uncore on `cpu`, its new collector.
    fn start_package(&self, pkg: usize, cpu: u32) {
        let pmis = self.ctx.pmis();
        let _ = self.ctx.write_global(pkg, |g| {
            *g = GlobalState::default();
            if pmis {
                g.pmi_cores = 1 << Ctx::core_index(cpu);
            }
        });
        for p in self.pmus.iter() {
            if is_msr(p.ops().box_type()) {
                if let Err(e) = p.ops().init_box(pkg) {
                    pr_warn!("{}: box init on package {} failed: {:?}\n", p.ops().name(), pkg, e);
                }
            }
        }
    }

    /// Stops a package's uncore (its last CPU goes).
    fn stop_package(&self, pkg: usize) {
        let ops = program::global_exit(self.ctx.platform);
        if let Some(t) = self.ctx.platform.types.first() {
            let _ = self.ctx.exec(pkg, t, 0, &ops);
        }
    }
}

impl Core {
    /// Stops the events of the box that PCI function `role` of package
    /// `pkg` is, and marks the function gone.
    pub(crate) fn unplug(&self, pkg: usize, role: crate::hw::pci::Role) -> Result {
        if let crate::hw::pci::Role::Box { ty, index } = role {
            for p in self.pmus.iter() {
                let o = p.ops();
                if o.box_type().name == ty && o.index() == index as usize {
                    o.retire(pkg);
                }
            }
        }
        let gone = {
            let mut reg = self.ctx.pci.lock();
            let e = reg.iter_mut().find(|e| e.present && e.pkg == pkg && e.role == role).ok_or(ENODEV)?;
            e.present = false;
            e.dev = None;
            e.mmio.take()
        };
        // An MMIO window is unmapped outside the lock.
        drop(gone);
        pr_info!("{:?} of package {} removed; its events stopped with their last counts\n", role, pkg);
        Ok(())
    }
}

impl HotplugOps for Core {
    fn online(&self, cpu: u32) -> Result {
        let pkg = cpu::package(cpu);
        let Some(slot) = self.ctx.collectors.get(pkg) else {
            return Ok(());
        };
        if slot.compare_exchange(-1, cpu as i32, Ordering::AcqRel, Ordering::Acquire).is_ok() {
            cpu::set_collector(cpu, true);
            self.start_package(pkg, cpu);
        }
        Ok(())
    }

    fn offline(&self, cpu: u32) -> Result {
        let pkg = cpu::package(cpu);
        let Some(slot) = self.ctx.collectors.get(pkg) else {
            return Ok(());
        };
        if slot.load(Ordering::Acquire) != cpu as i32 {
            return Ok(());
        }
        cpu::set_collector(cpu, false);
        for p in self.pmus.iter() {
            p.ops().cancel_timer(pkg);
        }
        match cpu::other_cpu_in_package(cpu) {
            Some(target) => {
                slot.store(target as i32, Ordering::Release);
                cpu::set_collector(target, true);
                // PMIs go to the new collector's core.
                if self.ctx.pmis() {
                    let _ = self.ctx.write_global(pkg, |g| g.pmi_cores = 1 << Ctx::core_index(target));
                }
                for p in self.pmus.iter() {
                    p.migrate(cpu, target);
                }
            }
            None => {
                slot.store(-1, Ordering::Release);
                self.stop_package(pkg);
            }
        }
        Ok(())
    }
}

/// Whether a box type is driven through MSRs (initialised per package).
fn is_msr(t: &BoxType) -> bool {
    matches!(t.space, Space::Msr { .. } | Space::Combined { .. })
}

/// Whether a box type is a PCI or MMIO box.
fn is_pci(t: &BoxType) -> bool {
    matches!(t.space, Space::Pci { .. } | Space::Mmio { .. })
}

/// The number of boxes of `t` the driver exposes.
fn box_count(ctx: &Ctx, t: &BoxType) -> usize {
    let n = t.num_boxes as usize;
    match (ctx.platform.id, t.name) {
        // Skylake: MSR_UNC_CBO_CONFIG reports the CBo count plus one (334060 §2.4.1).
        (crate::hw::desc::PlatformId::Skylake, "cbox") => {
            let v = ctx.rdmsr(0, skl::CBO_CONFIG).unwrap_or(0) & 0xf;
            (v.saturating_sub(1) as usize).min(n)
        }
        // One C-box per core on the EP and EX parts.
        (_, "cbox") if matches!(ctx.backend, Backend::Hw) => n.min(cpu::cores_per_package() as usize),
        _ => n,
    }
}

fn pmu_name(t: &BoxType, i: usize, count: usize) -> Result<Name> {
    let mut n = Name::new();
    if count == 1 && !t.always_indexed {
        write!(n, "uncore_{}", t.name).map_err(|_| EINVAL)?;
    } else {
        write!(n, "uncore_{}_{}", t.name, i).map_err(|_| EINVAL)?;
    }
    Ok(n)
}

/// The loaded driver.
pub(crate) struct Driver {
    // Field order is drop order: the NMI handler first, then hotplug (parks
    // every package), the simulation's debugfs files, the PMUs, and the PCI
    // driver.
    _nmi: Option<crate::sys::nmi::Nmi<pmi::PmiNmi>>,
    _hotplug: Hotplug<Core>,
    _sim: Option<sim::SimFiles>,
    _core: Arc<Core>,
    _pci: Option<crate::sys::pci::PciDriver<pcibox::PciHandler>>,
}

/// The `sim=` parameter: a platform and a socket count.
struct SimArg {
    platform: &'static Platform,
    sockets: Option<usize>,
}

fn parse_sim(s: &str) -> Result<SimArg> {
    let (name, sockets) = match s.split_once(':') {
        Some((n, k)) => (n, Some(k.parse::<usize>().map_err(|_| EINVAL)?)),
        None => (s, None),
    };
    let platform = platforms::by_name(name).ok_or(EINVAL)?;
    Ok(SimArg { platform, sockets })
}

impl Driver {
    /// Detects the platform (or takes `sim=`), registers every PMU and the
    /// hotplug callbacks.
    pub(crate) fn new() -> Result<Self> {
        let packages = cpu::max_packages().max(1);
        let sim = match crate::sys::params::sim() {
            Some(s) => {
                let s = s.to_str().map_err(|_| EINVAL)?;
                let arg = parse_sim(s).inspect_err(|_| {
                    pr_err!("sim={}: expected <platform>[:<sockets>] with platform one of snbep, ivbep, nhmex, wsmex, skl, xeon7100, xeon7400\n", s)
                })?;
                if let Some(n) = arg.sockets {
                    if n != packages {
                        pr_err!("sim={}: {} sockets asked for, but this machine has {} packages\n", s, n, packages);
                        return Err(EINVAL);
                    }
                }
                Some(arg.platform)
            }
            None => None,
        };
        let (platform, backend) = match sim {
            Some(p) => {
                let mut m = crate::sys::model::alloc_zeroed()?;
                m.reset(p.id, packages);
                pr_info!("simulating {} with {} socket(s)\n", p.description, packages);
                (p, Backend::Sim(IrqLock::new(LockClass::Model, m)?))
            }
            None => (detect()?, Backend::Hw),
        };
        let mut collectors = KVec::with_capacity(packages, GFP_KERNEL)?;
        let mut globals = KVec::with_capacity(packages, GFP_KERNEL)?;
        for _ in 0..packages {
            collectors.push(AtomicI32::new(-1), GFP_KERNEL)?;
            globals.push(IrqLock::new(LockClass::Global, GlobalState::default())?, GFP_KERNEL)?;
        }
        let pci = IrqLock::new(LockClass::Pci, KVec::with_capacity(64, GFP_KERNEL)?)?;
        let mut pmi = KVec::with_capacity(packages, GFP_KERNEL)?;
        for _ in 0..packages {
            pmi.push(PkgPmiState { raised: AtomicBool::new(false) }, GFP_KERNEL)?;
        }
        let stats = Stats::default();
        let ctx = Arc::new(Ctx { platform, backend, packages, collectors, globals, pci, pmi, stats }, GFP_KERNEL)?;

        // Refuse to load, with nothing registered, when a name is taken.
        for t in platform.types.iter() {
            let count = box_count(&ctx, t);
            for i in 0..count {
                let name = pmu_name(t, i, count)?;
                if perf::name_taken(name.as_str()) {
                    pr_err!("PMU {} exists already (is intel_uncore loaded? rmmod it first)\n", name.as_str());
                    return Err(EBUSY);
                }
            }
        }

        let mut pmus = KVec::new();
        for t in platform.types.iter().filter(|t| is_msr(t)) {
            let count = box_count(&ctx, t);
            for i in 0..count {
                let name = pmu_name(t, i, count)?;
                let up = UncorePmu::new(&ctx, t, i, name.as_str())?;
                let pmu = register(up, t, i).inspect_err(|e| pr_err!("registering {} failed: {:?}\n", name.as_str(), e))?;
                pmus.push(pmu, GFP_KERNEL)?;
            }
        }

        // PCI and MMIO boxes: find their functions, then register a PMU for
        // every box present on some package.
        let has_pci = platform.types.iter().any(is_pci);
        let pci_driver = match (&ctx.backend, has_pci) {
            (_, false) => None,
            (Backend::Sim(_), true) => {
                pcibox::enumerate_sim(&ctx)?;
                None
            }
            (Backend::Hw, true) => match pcibox::PciHandler::new(ctx.clone()) {
                Ok(h) => Some(crate::sys::pci::PciDriver::register(h)?),
                Err(e) => {
                    pr_info!("no PCI uncore boxes: {:?}\n", e);
                    None
                }
            },
        };
        for t in platform.types.iter().filter(|t| is_pci(t)) {
            let count = box_count(&ctx, t);
            for i in 0..count {
                let role = crate::hw::pci::Role::Box { ty: t.name, index: i as u8 };
                let present: KVec<usize> = {
                    let mut v = KVec::new();
                    for pkg in 0..packages {
                        if ctx.pci_present(pkg, role) {
                            v.push(pkg, GFP_KERNEL)?;
                        }
                    }
                    v
                };
                if present.is_empty() {
                    continue;
                }
                let name = pmu_name(t, i, count)?;
                let up = UncorePmu::new(&ctx, t, i, name.as_str())?;
                for &pkg in present.iter() {
                    up.init_box(pkg).inspect_err(|e| pr_warn!("{}: box init on package {} failed: {:?}\n", name.as_str(), pkg, e))?;
                }
                let pmu = register(up, t, i).inspect_err(|e| pr_err!("registering {} failed: {:?}\n", name.as_str(), e))?;
                pmus.push(pmu, GFP_KERNEL)?;
            }
        }
        let n_pmus = pmus.len();
        let core = Arc::new(Core { ctx: ctx.clone(), pmus }, GFP_KERNEL)?;
        if let Some(d) = &pci_driver {
            d.ops().set_core(core.clone());
        }
        let nmi = if ctx.pmis() { Some(crate::sys::nmi::Nmi::register(pmi::PmiNmi::new(&core)?)?) } else { None };
        let hotplug = Hotplug::new(c_str!("perf/x86/rust_uncore:online"), core.clone())?;
        let sim_files = match &ctx.backend {
            Backend::Sim(_) => Some(sim::SimFiles::new(core.clone())?),
            Backend::Hw => None,
        };
        pr_info!("{}: {} PMUs on {} package(s)\n", platform.description, n_pmus, packages);
        Ok(Driver { _nmi: nmi, _hotplug: hotplug, _sim: sim_files, _core: core, _pci: pci_driver })
    }
}

/// Registers `up` with its `format/` and `events/` files.
fn register(up: Arc<UncorePmu>, t: &'static BoxType, i: usize) -> Result<Pmu<UncorePmu>> {
    // Render the format strings ("config:0-7\n") into one buffer.
    let mut text = KVec::<u8>::new();
    let mut spans = KVec::<(usize, usize)>::new();
    for f in t.formats {
        let mut n = Name::new();
        writeln!(n, "{}", f).map_err(|_| EINVAL)?;
        let start = text.len();
        text.extend_from_slice(n.as_str().as_bytes(), GFP_KERNEL)?;
        spans.push((start, text.len()), GFP_KERNEL)?;
    }
    let text_str = core::str::from_utf8(&text).map_err(|_| EINVAL)?;
    let mut formats = KVec::with_capacity(t.formats.len(), GFP_KERNEL)?;
    for (f, &(a, b)) in t.formats.iter().zip(spans.iter()) {
        formats.push(Attr { name: f.name, value: &text_str[a..b] }, GFP_KERNEL)?;
    }
    // Aliases; the fixed-counter alias only where the fixed counter exists.
    let has_fixed = t.fixed.is_some_and(|f| !f.only_box0 || i == 0);
    let mut names = KVec::<Name>::new();
    let mut events = KVec::new();
    for a in t.aliases {
        if a.terms.starts_with("event=0xff") && !has_fixed {
            continue;
        }
        events.push(Attr { name: a.name, value: a.terms }, GFP_KERNEL)?;
        for (suffix, v) in [(".scale", a.scale), (".unit", a.unit)] {
            if v.is_some() {
                let mut n = Name::new();
                write!(n, "{}{}", a.name, suffix).map_err(|_| EINVAL)?;
                names.push(n, GFP_KERNEL)?;
            }
        }
    }
    // Second pass for the .scale/.unit files, whose names live in `names`.
    let mut k = 0;
    for a in t.aliases {
        if a.terms.starts_with("event=0xff") && !has_fixed {
            continue;
        }
        for v in [a.scale, a.unit].into_iter().flatten() {
            events.push(Attr { name: names[k].as_str(), value: v }, GFP_KERNEL)?;
            k += 1;
        }
    }
    Pmu::register(up.name(), up.clone(), &formats, &events)
}

/// Picks the platform of the boot CPU, or refuses with `ENODEV`.
fn detect() -> Result<&'static Platform> {
    let id = cpu::boot_cpu();
    if !id.intel {
        pr_info!("not an Intel CPU; no uncore PMUs\n");
        return Err(ENODEV);
    }
    if id.hypervisor {
        pr_info!("running under a hypervisor, which does not expose the uncore; try sim=<platform>\n");
        return Err(ENODEV);
    }
    platforms::for_cpu(id.family, id.model).ok_or_else(|| {
        pr_info!("CPU family {} model {} has no supported uncore; try sim=<platform>\n", id.family, id.model);
        ENODEV
    })
}

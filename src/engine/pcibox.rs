// SPDX-License-Identifier: GPL-2.0

//! The PCI and MMIO boxes: which PCI function is which box on which
//! package, found by the PCI driver on hardware or enumerated from the
//! register model under `sim=`, with the same decoding and bus-to-socket
//! mapping either way.
//!
//! The registry has one entry per package and PCI role of the platform,
//! allocated at load and never resized: binding, unbinding and rebinding a
//! device only change its entry. Readers (the `read` path, in any context)
//! use an entry without a lock, under RCU; writers (probe, remove) are
//! serialised by a mutex and wait for readers before releasing a device or
//! its MMIO window.
//!
//! A box whose function goes away (unbind, hot removal) stops counting: its
//! events keep their last counts and new events on its package are refused;
//! its PMU's `cpumask` drops the package. A function bound again later gets
//! its box initialised and counts again. A PMU stays registered until the
//! module unloads, because 6.12's perf core frees a PMU's per-CPU contexts
//! on unregistration even while events still point at them.

use super::backend::Sim;
use super::{Core, Ctx};
use crate::hw::desc::{BoxType, PlatformId};
use crate::hw::model::MAX_SOCKETS;
use crate::hw::pci::{self, BarWindow, PciError, Role, UboxRegs};
use crate::sys::cpu;
use crate::sys::mmio::Mmio;
use crate::sys::pci::{Device, DeviceRef, Driver};
use crate::sys::rcu::{Guard, RcuBox};
use crate::sys::sync::{new_irq_lock, IrqLock};
use core::sync::atomic::{AtomicBool, Ordering};
use kernel::prelude::*;
use kernel::sync::{new_mutex, Arc, Mutex};

/// One PCI function of one package.
pub(crate) struct PciEntry {
    /// Its package.
    pub(crate) pkg: usize,
    /// What it is.
    pub(crate) role: Role,
    /// Bound (or, in the simulation, enumerated) and not removed.
    present: AtomicBool,
    /// The bound device (hardware only).
    dev: RcuBox<DeviceRef>,
    /// The MMIO window it holds (Skylake IMC, hardware only).
    mmio: RcuBox<Mmio>,
}

impl PciEntry {
    /// Whether the function is there.
    pub(crate) fn is_present(&self) -> bool {
        self.present.load(Ordering::Acquire)
    }

    /// The bound device.
    pub(crate) fn device<'a>(&'a self, g: &'a Guard) -> Option<&'a DeviceRef> {
        self.dev.get(g)
    }

    /// The MMIO window.
    pub(crate) fn mmio<'a>(&'a self, g: &'a Guard) -> Option<&'a Mmio> {
        self.mmio.get(g)
    }
}

/// Every PCI function the platform may have, on every package.
#[pin_data]
pub(crate) struct Registry {
    entries: KVec<PciEntry>,
    /// Serialises probe, remove and enumeration.
    #[pin]
    writers: Mutex<()>,
}

impl Registry {
    /// The entries of platform `p` on `packages` packages, all absent.
    pub(crate) fn new(p: PlatformId, packages: usize) -> Result<impl PinInit<Self, Error>> {
        let mut roles: KVec<Role> = KVec::new();
        for f in pci::functions(p).iter().filter(|f| f.role != Role::Ubox) {
            if !roles.contains(&f.role) {
                roles.push(f.role, GFP_KERNEL)?;
            }
        }
        let mut entries = KVec::with_capacity(packages * roles.len(), GFP_KERNEL)?;
        for pkg in 0..packages {
            for &role in roles.iter() {
                entries.push(
                    PciEntry {
                        pkg,
                        role,
                        present: AtomicBool::new(false),
                        dev: RcuBox::new(),
                        mmio: RcuBox::new(),
                    },
                    GFP_KERNEL,
                )?;
            }
        }
        Ok(try_pin_init!(Registry {
            entries,
            writers <- new_mutex!((), "rust_uncore:pci"),
        }? Error))
    }

    /// The entry of function `role` of package `pkg`.
    pub(crate) fn entry(&self, pkg: usize, role: Role) -> Option<&PciEntry> {
        self.entries.iter().find(|e| e.pkg == pkg && e.role == role)
    }

    /// The entry of box `i` of type `t` on package `pkg`.
    pub(crate) fn box_entry(&self, pkg: usize, t: &BoxType, i: usize) -> Option<&PciEntry> {
        self.entries.iter().find(|e| {
            e.pkg == pkg
                && matches!(e.role, Role::Box { ty, index } if ty == t.kind && index as usize == i)
        })
    }

    /// The entry of QPI port `port`'s packet match/mask function on `pkg`.
    pub(crate) fn filter_entry(&self, pkg: usize, port: usize) -> Option<&PciEntry> {
        self.entry(
            pkg,
            Role::QpiFilter {
                port: u8::try_from(port).ok()?,
            },
        )
    }

    /// Whether function `role` of package `pkg` is there.
    pub(crate) fn present(&self, pkg: usize, role: Role) -> bool {
        self.entry(pkg, role).is_some_and(PciEntry::is_present)
    }

    /// Records function `role` of package `pkg` as present, with its device
    /// and MMIO window (hardware). `EBUSY` if it is present already.
    fn bind(&self, pkg: usize, role: Role, dev: Option<DeviceRef>, mmio: Option<Mmio>) -> Result {
        self.bind_with(pkg, role, dev, mmio, || Ok(()))
    }

    /// [`Self::bind`], running `before` first under the writers' lock once
    /// the entry is known to be absent (the check and the act in one).
    fn bind_with(
        &self,
        pkg: usize,
        role: Role,
        dev: Option<DeviceRef>,
        mmio: Option<Mmio>,
        before: impl FnOnce() -> Result,
    ) -> Result {
        let _w = self.writers.lock();
        let e = self.entry(pkg, role).ok_or(ENODEV)?;
        if e.is_present() {
            return Err(EBUSY);
        }
        before()?;
        // Nothing is published in an absent entry: no reader waits.
        drop(
            e.dev
                .replace(dev.map(|d| KBox::new(d, GFP_KERNEL)).transpose()?),
        );
        drop(
            e.mmio
                .replace(mmio.map(|m| KBox::new(m, GFP_KERNEL)).transpose()?),
        );
        e.present.store(true, Ordering::Release);
        Ok(())
    }

    /// Marks function `role` of package `pkg` gone and releases its device
    /// and MMIO window once no reader uses them. Process context.
    pub(crate) fn unbind(&self, pkg: usize, role: Role) -> Result {
        let _w = self.writers.lock();
        let e = self.entry(pkg, role).ok_or(ENODEV)?;
        if !e.present.swap(false, Ordering::AcqRel) {
            return Err(ENODEV);
        }
        // Each replace waits for a grace period when it held a value.
        drop(e.mmio.replace(None));
        drop(e.dev.replace(None));
        Ok(())
    }

    /// The number of entries (constant).
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

/// The bus to package map of the platform's uncore buses (in the PCI
/// segment of the U-box devices; the map covers up to 8 sockets).
pub(crate) struct BusMap {
    map: [Option<u8>; 256],
    domain: u32,
}

impl BusMap {
    /// The package of `bus` in segment `domain`.
    fn package(&self, p: PlatformId, domain: u32, bus: u8) -> Option<usize> {
        // Client parts have one package: the host bridge's bus is package 0.
        if pci::ubox_device(p).is_none() {
            return Some(0);
        }
        if domain != self.domain {
            return None;
        }
        self.map[bus as usize].map(|s| s as usize)
    }

    /// An empty map (client parts).
    fn empty() -> Self {
        BusMap {
            map: [None; 256],
            domain: 0,
        }
    }

    /// Builds the map from U-box registers; `to_pkg` turns a physical socket
    /// into a logical package.
    fn build(
        uboxes: &[UboxRegs],
        domain: u32,
        to_pkg: impl Fn(u32) -> Option<usize>,
    ) -> Result<Self> {
        let mut phys = [None; 256];
        pci::bus_to_socket(uboxes, &mut phys).map_err(|e| {
            pr_err!("cannot map uncore buses to sockets: {:?}\n", e);
            ENODEV
        })?;
        let mut map = [None; 256];
        for (m, p) in map.iter_mut().zip(phys.iter()) {
            *m = p.and_then(|s| to_pkg(u32::from(s))).map(|x| x as u8);
        }
        Ok(BusMap { map, domain })
    }
}

/// Where a PCI function is.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PciLocation {
    /// Vendor ID.
    pub(crate) vendor: u16,
    /// Device ID.
    pub(crate) device: u16,
    /// PCI segment.
    pub(crate) domain: u32,
    /// Bus number.
    pub(crate) bus: u8,
    /// Device number.
    pub(crate) dev: u8,
    /// Function number.
    pub(crate) func: u8,
}

impl PciLocation {
    fn of(d: &Device) -> Self {
        PciLocation {
            vendor: d.vendor(),
            device: d.device_id(),
            domain: d.domain(),
            bus: d.bus(),
            dev: d.slot(),
            func: d.func(),
        }
    }
}

/// Decodes a function into its package and role.
fn decode(ctx: &Ctx, map: &BusMap, at: PciLocation) -> Result<(usize, Role)> {
    let p = ctx.platform.id;
    let role = pci::decode(p, at.vendor, at.device, at.dev, at.func).map_err(|e| {
        match e {
            PciError::UnknownDevice => pr_info!(
                "{:04x}:{:04x}: not an uncore device of this platform\n",
                at.vendor,
                at.device
            ),
            PciError::UnexpectedPosition => pr_info!(
                "{:04x}:{:04x} at {:02x}.{}: not where this platform has it\n",
                at.vendor,
                at.device,
                at.dev,
                at.func
            ),
        }
        ENODEV
    })?;
    if role == Role::Ubox {
        return Err(ENODEV);
    }
    let pkg = map.package(p, at.domain, at.bus).ok_or_else(|| {
        pr_info!(
            "{:04x}:{:04x} on bus {:02x}: no socket owns this bus\n",
            at.vendor,
            at.device,
            at.bus
        );
        ENODEV
    })?;
    if pkg >= ctx.packages {
        return Err(ENODEV);
    }
    Ok((pkg, role))
}

/// Maps the platform's MMIO counter window from the device's base address
/// register (Skylake's IMC counters, from the host bridge's MCHBAR).
fn map_window(d: &Device, w: &BarWindow) -> Result<Mmio> {
    d.map_window(w)?.ok_or_else(|| {
        pr_info!("{} is disabled: no {} counters\n", w.name(), w.holds());
        ENODEV
    })
}

/// The hardware PCI driver's callbacks.
#[pin_data]
pub(crate) struct PciHandler {
    ctx: Arc<Ctx>,
    map: KBox<BusMap>,
    /// The PMUs, once registered (to start a bound box and stop a removed
    /// one's events).
    #[pin]
    core: IrqLock<Option<Arc<Core>>>,
}

/// Reads the node-ID registers of every U-box device `id`.
fn uboxes(id: u16) -> Result<(KVec<UboxRegs>, u32)> {
    let mut regs = KVec::new();
    let mut domain = None;
    for d in crate::sys::pci::devices(pci::VENDOR_INTEL, id) {
        if domain.is_some_and(|x| x != d.domain()) {
            pr_err!("U-box devices in several PCI segments are not supported\n");
            return Err(ENODEV);
        }
        domain = Some(d.domain());
        let u = UboxRegs {
            bus: d.bus(),
            nodeid: d.read_config_u32(pci::CPUNODEID)?,
            gidnidmap: d.read_config_u32(pci::GIDNIDMAP)?,
        };
        regs.push(u, GFP_KERNEL)?;
    }
    Ok((regs, domain.unwrap_or(0)))
}

impl PciHandler {
    /// Reads the U-box devices and builds the bus map (hardware).
    pub(crate) fn new(ctx: Arc<Ctx>) -> Result<Arc<Self>> {
        let map = match pci::ubox_device(ctx.platform.id) {
            Some(id) => {
                let (regs, domain) = uboxes(id)?;
                BusMap::build(&regs, domain, cpu::logical_package)?
            }
            None => BusMap::empty(),
        };
        let map = KBox::new(map, GFP_KERNEL)?;
        Arc::pin_init(
            pin_init!(PciHandler { ctx, map, core <- new_irq_lock!(None, "rust_uncore:slot") }),
            GFP_KERNEL,
        )
    }

    /// Hands over the registered PMUs.
    pub(crate) fn set_core(&self, core: Arc<Core>) {
        *self.core.lock() = Some(core);
    }

    /// Gives the PMUs back (at unload: the driver then drops them before
    /// the PCI driver, whose `remove` from here on only unbinds).
    pub(crate) fn take_core(&self) -> Option<Arc<Core>> {
        self.core.lock().take()
    }
}

impl Driver for PciHandler {
    type Data = KBox<(usize, Role)>;

    fn probe(&self, dev: &Device) -> Result<Self::Data> {
        let (pkg, role) = decode(&self.ctx, &self.map, PciLocation::of(dev))?;
        let mmio = self
            .ctx
            .platform
            .mmio_window
            .map(|w| map_window(dev, &w))
            .transpose()?;
        self.ctx
            .registry
            .bind(pkg, role, Some(dev.get()), mmio)
            .inspect_err(|e| {
                if *e == EBUSY {
                    pr_info!(
                        "{:04x}:{:04x}: a second device for the same box, ignored\n",
                        dev.vendor(),
                        dev.device_id()
                    );
                }
            })?;
        // Bound after load: start the box as the load does.
        let core = self.core.lock().clone();
        if let Some(core) = core {
            core.plugged(pkg, role);
        }
        Ok(KBox::new((pkg, role), GFP_KERNEL)?)
    }

    fn remove(&self, _dev: &Device, data: Self::Data) {
        let (pkg, role) = *data;
        let core = self.core.lock().clone();
        match core {
            Some(core) => {
                let _ = core.unplug(pkg, role);
            }
            // Before the PMUs exist (a failed load) or after they are gone
            // (unload): just forget it.
            None => {
                let _ = self.ctx.registry.unbind(pkg, role);
            }
        }
    }
}

/// Enumerates the simulated platform's PCI functions through the same
/// decoding and mapping as the hardware's.
pub(crate) fn enumerate_sim(ctx: &Ctx, sim: &Sim) -> Result {
    let p = ctx.platform.id;
    // The model's registers, read under its lock into fixed arrays: nothing
    // is allocated while it is held.
    let mut ubox = [UboxRegs {
        bus: 0,
        nodeid: 0,
        gidnidmap: 0,
    }; MAX_SOCKETS];
    let mut buses = [0u8; MAX_SOCKETS];
    let n = sim.inspect(|m| -> Result<usize> {
        let n = m.n_sockets.min(MAX_SOCKETS);
        for s in 0..n {
            buses[s] = m.sockets[s].bus;
            if pci::ubox_device(p).is_some() {
                ubox[s] = UboxRegs {
                    bus: buses[s],
                    nodeid: m.cfg_read(s, Role::Ubox, pci::CPUNODEID).map_err(|_| EIO)?,
                    gidnidmap: m.cfg_read(s, Role::Ubox, pci::GIDNIDMAP).map_err(|_| EIO)?,
                };
            }
        }
        Ok(n)
    })?;
    let map = if pci::ubox_device(p).is_none() {
        BusMap::empty()
    } else {
        BusMap::build(&ubox[..n], 0, |s| Some(s as usize))?
    };
    let fns = pci::functions(p);
    for &bus in &buses[..n] {
        for (k, f) in fns.iter().enumerate().filter(|(_, f)| f.role != Role::Ubox) {
            // Client parts: the host bridge is on bus 0 of the one socket.
            let bus = if pci::ubox_device(p).is_none() {
                0
            } else {
                bus
            };
            // A role with several device IDs (the Skylake host bridge, one
            // per part) is plugged once, with its first.
            if fns[..k].iter().any(|g| g.role == f.role) {
                continue;
            }
            // The position of functions the tables fix only by ID (IVB-EP
            // QPI port 2) is 24.2 in the simulation.
            let at = PciLocation {
                vendor: pci::VENDOR_INTEL,
                device: f.device,
                domain: 0,
                bus,
                dev: f.dev.unwrap_or(24),
                func: f.func.unwrap_or(2),
            };
            let (pkg, role) = decode(ctx, &map, at)?;
            ctx.registry.bind(pkg, role, None, None)?;
        }
        if pci::ubox_device(p).is_none() {
            break;
        }
    }
    Ok(())
}

/// Binds the simulated function `role` of package `pkg` again (the
/// simulation's `plug`), as a probe after load would.
pub(crate) fn plug_sim(ctx: &Ctx, sim: &Sim, pkg: usize, role: Role) -> Result {
    // A newly bound device starts from its reset state: reset only when
    // the function is absent, in one step with the bind.
    ctx.registry.bind_with(pkg, role, None, None, || {
        if let Role::Box { ty, index } = role {
            sim.change(pkg, |m| m.reset_box(pkg, ty, index))
                .map_err(|_| EINVAL)?;
        }
        Ok(())
    })
}

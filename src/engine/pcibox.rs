// SPDX-License-Identifier: GPL-2.0

//! The PCI and MMIO boxes: which PCI function is which box on which
//! package, found by the PCI driver on hardware or enumerated from the
//! register model under `sim=`, with the same decoding and bus-to-socket
//! mapping either way.
//!
//! A box whose function goes away (unbind, hot removal) stops counting: its
//! register accesses fail and its events keep their last counts; new events
//! on it are refused. Its PMU stays registered until the module unloads,
//! because 6.12's perf core frees a PMU's per-CPU contexts on unregistration
//! even while events still point at them.

use super::{Core, Ctx};
use crate::hw::desc::PlatformId;
use crate::hw::pci::{self, PciError, Role, UboxRegs};
use crate::sys::cpu;
use crate::sys::mmio::Mmio;
use crate::sys::pci::{Device, DeviceRef, Driver};
use crate::sys::sync::{new_irq_lock, IrqLock};
use kernel::prelude::*;
use kernel::sync::Arc;

/// Size of the Skylake MCHBAR window the IMC counters are in.
const MCHBAR_WINDOW: u64 = crate::hw::platforms::skl::MCHBAR_WINDOW as u64;

/// One PCI function the driver uses.
pub(crate) struct PciEntry {
    /// Its package.
    pub(crate) pkg: usize,
    /// What it is.
    pub(crate) role: Role,
    /// The bound device (`None` in the simulation).
    pub(crate) dev: Option<DeviceRef>,
    /// The MMIO window it holds (Skylake IMC).
    pub(crate) mmio: Option<Mmio>,
    /// Still there (cleared when the function goes away).
    pub(crate) present: bool,
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
            *m = p.and_then(|s| to_pkg(s as u32)).map(|x| x as u8);
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

/// Decodes a function and records it; returns its package and role.
fn record(ctx: &Ctx, map: &BusMap, at: PciLocation, dev: Option<&Device>) -> Result<(usize, Role)> {
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
    let mmio = match (p, role, dev) {
        (PlatformId::Skylake, _, Some(d)) => {
            let (lo, hi) = (
                d.read_config_u32(pci::MCHBAR)?,
                d.read_config_u32(pci::MCHBAR + 4)?,
            );
            let base = pci::mchbar_base(lo, hi).ok_or_else(|| {
                pr_info!("MCHBAR is disabled: no IMC counters\n");
                ENODEV
            })?;
            Some(Mmio::map(base, MCHBAR_WINDOW)?)
        }
        _ => None,
    };
    let mut reg = ctx.pci.lock();
    if reg
        .iter()
        .any(|e| e.present && e.pkg == pkg && e.role == role)
    {
        pr_info!(
            "{:04x}:{:04x}: a second device for the same box, ignored\n",
            at.vendor,
            at.device
        );
        return Err(EBUSY);
    }
    reg.push(
        PciEntry {
            pkg,
            role,
            dev: dev.map(Device::get),
            mmio,
            present: true,
        },
        GFP_ATOMIC,
    )?;
    Ok((pkg, role))
}

/// Marks PCI function `role` of package `pkg` gone, and releases its device
/// and MMIO window (outside the registry's lock).
pub(crate) fn forget(ctx: &Ctx, pkg: usize, role: Role) -> Result {
    let gone = {
        let mut reg = ctx.pci.lock();
        let e = reg
            .iter_mut()
            .find(|e| e.present && e.pkg == pkg && e.role == role)
            .ok_or(ENODEV)?;
        e.present = false;
        (e.dev.take(), e.mmio.take())
    };
    drop(gone);
    Ok(())
}

/// The hardware PCI driver's callbacks.
#[pin_data]
pub(crate) struct PciHandler {
    ctx: Arc<Ctx>,
    map: KBox<BusMap>,
    /// The PMUs, once registered (to stop a removed box's events).
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
            None => BusMap {
                map: [None; 256],
                domain: 0,
            },
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
}

impl Driver for PciHandler {
    type Data = KBox<(usize, Role)>;

    fn probe(&self, dev: &Device) -> Result<Self::Data> {
        let found = record(&self.ctx, &self.map, PciLocation::of(dev), Some(dev))?;
        KBox::new(found, GFP_KERNEL).map_err(Into::into)
    }

    fn remove(&self, _dev: &Device, data: Self::Data) {
        let (pkg, role) = *data;
        let core = self.core.lock().clone();
        match core {
            Some(core) => {
                let _ = core.unplug(pkg, role);
            }
            // Before the PMUs exist (a failed load): just forget it.
            None => {
                let _ = forget(&self.ctx, pkg, role);
            }
        }
    }
}

/// Enumerates the simulated platform's PCI functions through the same
/// decoding and mapping as the hardware's.
pub(crate) fn enumerate_sim(ctx: &Ctx) -> Result {
    let super::backend::Backend::Sim(model) = &ctx.backend else {
        return Err(EINVAL);
    };
    let p = ctx.platform.id;
    let (uboxes, buses) = {
        let m = model.lock();
        let mut u = KVec::new();
        let mut buses = KVec::new();
        for s in 0..m.n_sockets {
            let bus = m.sockets[s].bus;
            buses.push(bus, GFP_ATOMIC)?;
            if pci::ubox_device(p).is_some() {
                let nodeid = m.cfg_read(s, Role::Ubox, pci::CPUNODEID).map_err(|_| EIO)?;
                let gidnidmap = m.cfg_read(s, Role::Ubox, pci::GIDNIDMAP).map_err(|_| EIO)?;
                u.push(
                    UboxRegs {
                        bus,
                        nodeid,
                        gidnidmap,
                    },
                    GFP_ATOMIC,
                )?;
            }
        }
        (u, buses)
    };
    let map = if uboxes.is_empty() {
        BusMap {
            map: [None; 256],
            domain: 0,
        }
    } else {
        BusMap::build(&uboxes, 0, |s| Some(s as usize))?
    };
    for &bus in buses.iter() {
        for f in pci::functions(p).iter().filter(|f| f.role != Role::Ubox) {
            // Client parts: the host bridge is on bus 0 of the one socket.
            let bus = if pci::ubox_device(p).is_none() {
                0
            } else {
                bus
            };
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
            // One host bridge ID is enough for the simulated Skylake.
            if p == PlatformId::Skylake && f.device != pci::SKL[0].device {
                continue;
            }
            record(ctx, &map, at, None)?;
        }
        if pci::ubox_device(p).is_none() {
            break;
        }
    }
    Ok(())
}

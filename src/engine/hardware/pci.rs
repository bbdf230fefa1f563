// SPDX-License-Identifier: GPL-2.0

//! The hardware's PCI driver: it binds the uncore PCI functions of the
//! device table, decodes each into its package and box (`pcibox`), maps the
//! MMIO window where the platform has one, and starts or stops the box
//! when a function is bound or removed after load.

use crate::engine::backend::Backend;
use crate::engine::pcibox::{decode, BusMap, PciLocation};
use crate::engine::{Core, Ctx};
use crate::hw::pci::{self, BarWindow, Role, UboxRegs};
use crate::sys::cpu;
use crate::sys::mmio::Mmio;
use crate::sys::pci::{Binding, Bound, Device, Driver};
use crate::sys::sync::{new_irq_lock, IrqLock};
use kernel::prelude::*;
use kernel::sync::Arc;

/// Where `d` is.
fn location(d: &Device) -> PciLocation {
    PciLocation {
        vendor: d.vendor(),
        device: d.device_id(),
        domain: d.domain(),
        bus: d.bus(),
        dev: d.slot(),
        func: d.func(),
    }
}

/// Maps the platform's MMIO counter window from the device's base address
/// register (Skylake's IMC counters, from the host bridge's MCHBAR).
fn map_window(d: &Device<Bound>, w: &BarWindow) -> Result<Mmio> {
    d.map_window(w)?.ok_or_else(|| {
        pr_info!("{} is disabled: no {} counters\n", w.name(), w.holds());
        ENODEV
    })
}

/// The hardware PCI driver's callbacks.
#[pin_data]
pub(crate) struct PciHandler<R: Backend> {
    ctx: Arc<Ctx<R>>,
    map: KBox<BusMap>,
    /// The PMUs, once registered (to start a bound box and stop a removed
    /// one's events).
    #[pin]
    core: IrqLock<Option<Arc<Core<R>>>>,
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

impl<R: Backend> PciHandler<R> {
    /// Reads the U-box devices and builds the bus map (hardware).
    pub(crate) fn new(ctx: Arc<Ctx<R>>) -> Result<Arc<Self>> {
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
    pub(crate) fn set_core(&self, core: Arc<Core<R>>) {
        *self.core.lock() = Some(core);
    }

    /// Gives the PMUs back (at unload: the driver then drops them before
    /// the PCI driver, whose `remove` from here on only unbinds).
    pub(crate) fn take_core(&self) -> Option<Arc<Core<R>>> {
        self.core.lock().take()
    }
}

impl<R: Backend> Driver for PciHandler<R> {
    type Data = KBox<(usize, Role)>;

    fn probe(&self, dev: &Device<Bound>, binding: Binding) -> Result<Self::Data> {
        let (pkg, role) = decode(&self.ctx, &self.map, location(dev))?;
        let mmio = self
            .ctx
            .platform
            .mmio_window
            .map(|w| map_window(dev, &w))
            .transpose()?;
        let bind = || {
            self.ctx
                .registry
                .bind(pkg, role, Some(binding), mmio)
                .inspect_err(|e| {
                    if *e == EBUSY {
                        pr_info!(
                            "{:04x}:{:04x}: a second device for the same box, ignored\n",
                            dev.vendor(),
                            dev.device_id()
                        );
                    }
                })
        };
        // The driver data first: nothing can fail once the function is
        // bound (a probe that failed after the bind would leave the entry
        // present with no device, and every probe after it `EBUSY`).
        let data = KBox::new((pkg, role), GFP_KERNEL)?;
        // Bound after load: start the box as the load does, in one control
        // transition with the bind.
        let core = self.core.lock().clone();
        match core {
            Some(core) => core.plug(pkg, role, bind)?,
            None => bind()?,
        }
        Ok(data)
    }

    fn remove(&self, _dev: &Device<Bound>, data: Self::Data) {
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

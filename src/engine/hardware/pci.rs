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

/// Why the PCI PMUs are missing: said in one line ([`PciHandler::new`]).
pub(crate) enum NoPci {
    /// The U-box devices give no bus map.
    Map(pci::MapError),
    /// U-box devices in several PCI segments.
    Segments,
    /// A U-box device's configuration read, or an allocation, failed.
    Kernel(Error),
}

impl core::fmt::Display for NoPci {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            NoPci::Map(e) => write!(f, "cannot map uncore buses to sockets: {}", e),
            NoPci::Segments => write!(f, "U-box devices in several PCI segments"),
            NoPci::Kernel(e) => write!(f, "reading the U-box devices failed ({:?})", e),
        }
    }
}

impl From<Error> for NoPci {
    fn from(e: Error) -> Self {
        NoPci::Kernel(e)
    }
}

/// Reads the node-ID registers of every U-box device `id`.
fn uboxes(id: u16) -> core::result::Result<(KVec<UboxRegs>, u32), NoPci> {
    let mut regs = KVec::new();
    let mut domain = None;
    for d in crate::sys::pci::devices(pci::VENDOR_INTEL, id) {
        if domain.is_some_and(|x| x != d.domain()) {
            return Err(NoPci::Segments);
        }
        domain = Some(d.domain());
        let u = UboxRegs {
            bus: d.bus(),
            nodeid: d.read_config_u32(pci::CPUNODEID)?,
            gidnidmap: d.read_config_u32(pci::GIDNIDMAP)?,
        };
        regs.push(u, GFP_KERNEL)
            .map_err(|_| NoPci::Kernel(ENOMEM))?;
    }
    Ok((regs, domain.unwrap_or(0)))
}

impl<R: Backend> PciHandler<R> {
    /// Reads the U-box devices and builds the bus map (hardware).
    pub(crate) fn new(ctx: Arc<Ctx<R>>) -> core::result::Result<Arc<Self>, NoPci> {
        let map = match pci::ubox_device(ctx.platform.id) {
            Some(id) => {
                let (regs, domain) = uboxes(id)?;
                BusMap::build(&regs, domain, cpu::logical_package).map_err(NoPci::Map)?
            }
            None => BusMap::empty(),
        };
        let map = KBox::new(map, GFP_KERNEL).map_err(|_| NoPci::Kernel(ENOMEM))?;
        Ok(Arc::pin_init(
            pin_init!(PciHandler { ctx, map, core <- new_irq_lock!(None, "rust_uncore:slot") }),
            GFP_KERNEL,
        )?)
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
        let at = location(dev);
        let (pkg, role) = decode(&self.ctx, &self.map, at)?;
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
                            "{}: a second device for the same box, ignored\n",
                            format_args!("{}", at)
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
            Some(core) => core.plug(pkg, role, at, bind)?,
            None => bind()?,
        }
        Ok(data)
    }

    fn remove(&self, dev: &Device<Bound>, data: Self::Data) {
        let (pkg, role) = *data;
        let core = self.core.lock().clone();
        match core {
            Some(core) => {
                let _ = core.unplug(pkg, role, location(dev));
            }
            // Before the PMUs exist (a failed load) or after they are gone
            // (unload): just forget it.
            None => {
                let _ = self.ctx.registry.unbind(pkg, role);
            }
        }
    }
}

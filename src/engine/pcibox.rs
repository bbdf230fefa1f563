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

use super::backend::Backend;
use super::Ctx;
use crate::hw::desc::{BoxType, PlatformId};
use crate::hw::pci::{self, PciError, Role, UboxRegs};
use crate::sys::mmio::Mmio;
use crate::sys::pci::Binding;
#[cfg(not(feature = "sim"))]
use crate::sys::pci::{Bound, Device};
#[cfg(not(feature = "sim"))]
use crate::sys::rcu::Guard;
use crate::sys::rcu::RcuBox;
use core::sync::atomic::{AtomicBool, Ordering};
use kernel::prelude::*;
use kernel::sync::{new_mutex, Mutex};

/// One PCI function of one package.
pub(crate) struct PciEntry {
    /// Its package.
    pub(crate) pkg: usize,
    /// What it is.
    pub(crate) role: Role,
    /// Bound (or, in the simulation, enumerated) and not removed.
    present: AtomicBool,
    /// The bound device's binding (hardware only).
    dev: RcuBox<Binding>,
    /// The MMIO window it holds (Skylake IMC, hardware only).
    mmio: RcuBox<Mmio>,
    /// The simulation's broken function (`plug ... broken=1`): bound, but
    /// its configuration-space writes fail.
    #[cfg(feature = "sim")]
    pub(crate) broken: AtomicBool,
}

impl PciEntry {
    /// Whether the function is there.
    pub(crate) fn is_present(&self) -> bool {
        self.present.load(Ordering::Acquire)
    }

    /// The bound device, while it is bound.
    #[cfg(not(feature = "sim"))]
    pub(crate) fn device<'a>(&'a self, g: &'a Guard<'_>) -> Option<&'a Device<Bound>> {
        self.dev.get(g)?.device(g)
    }

    /// The MMIO window.
    #[cfg(not(feature = "sim"))]
    pub(crate) fn mmio<'a>(&'a self, g: &'a Guard<'_>) -> Option<&'a Mmio> {
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
                        #[cfg(feature = "sim")]
                        broken: AtomicBool::new(false),
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
    pub(crate) fn bind(
        &self,
        pkg: usize,
        role: Role,
        dev: Option<Binding>,
        mmio: Option<Mmio>,
    ) -> Result {
        self.bind_with(pkg, role, dev, mmio, || Ok(()))
    }

    /// [`Self::bind`], running `before` first under the writers' lock once
    /// the entry is known to be absent (the check and the act in one).
    pub(crate) fn bind_with(
        &self,
        pkg: usize,
        role: Role,
        dev: Option<Binding>,
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
                .replace(dev.map(|d| KBox::new(d, GFP_KERNEL)).transpose()?)?,
        );
        drop(
            e.mmio
                .replace(mmio.map(|m| KBox::new(m, GFP_KERNEL)).transpose()?)?,
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
        drop(e.mmio.replace(None)?);
        drop(e.dev.replace(None)?);
        Ok(())
    }

    /// The number of entries (constant; the simulation's `stats`).
    #[cfg(feature = "sim")]
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
    pub(crate) fn empty() -> Self {
        BusMap {
            map: [None; 256],
            domain: 0,
        }
    }

    /// Builds the map from U-box registers; `to_pkg` turns a physical socket
    /// into a logical package. The caller logs a failure: it is the one line
    /// that says why the PCI PMUs are missing.
    pub(crate) fn build(
        uboxes: &[UboxRegs],
        domain: u32,
        to_pkg: impl Fn(u32) -> Option<usize>,
    ) -> core::result::Result<Self, pci::MapError> {
        let mut phys = [None; 256];
        pci::bus_to_socket(uboxes, &mut phys)?;
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

impl core::fmt::Display for PciLocation {
    /// As the kernel names a PCI device, then its IDs as the PCI core logs
    /// them: "0000:7f:10.0 [8086:3cb0]".
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "{:04x}:{:02x}:{:02x}.{} [{:04x}:{:04x}]",
            self.domain, self.bus, self.dev, self.func, self.vendor, self.device
        )
    }
}

/// Decodes a function into its package and role.
pub(crate) fn decode<R: Backend>(
    ctx: &Ctx<R>,
    map: &BusMap,
    at: PciLocation,
) -> Result<(usize, Role)> {
    let p = ctx.platform.id;
    let role = pci::decode(p, at.vendor, at.device, at.dev, at.func).map_err(|e| {
        // (Through `format_args!`: the 7.x print macros take the kernel's
        // own `Display`.)
        match e {
            PciError::UnknownDevice => pr_info!(
                "{}: not an uncore device of this platform\n",
                format_args!("{}", at)
            ),
            PciError::UnexpectedPosition => pr_info!(
                "{}: not where this platform has it\n",
                format_args!("{}", at)
            ),
        }
        ENODEV
    })?;
    if role == Role::Ubox {
        return Err(ENODEV);
    }
    let pkg = map.package(p, at.domain, at.bus).ok_or_else(|| {
        pr_info!("{}: no socket owns this bus\n", format_args!("{}", at));
        ENODEV
    })?;
    if pkg >= ctx.packages {
        return Err(ENODEV);
    }
    Ok((pkg, role))
}

// SPDX-License-Identifier: GPL-2.0

//! A PCI driver for the module's static ID table (`uncore_helpers.c`, which
//! also gives the module its PCI aliases), configuration-space access, and
//! the U-box node-ID registers used to map buses to sockets.
//!
//! C header: [`include/linux/pci.h`](srctree/include/linux/pci.h)

use super::ffi;
use core::marker::PhantomData;
use core::ptr::NonNull;
use kernel::error::{from_result, to_result, Result};
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;
use kernel::sync::Arc;

/// A bound PCI function.
///
/// # Invariants
///
/// Points to a `struct pci_dev` bound to the module's driver; the driver
/// keeps it only between its `probe` and `remove` callbacks.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct PciDev(NonNull<ffi::PciDevRaw>);

// SAFETY: Configuration-space accessors lock internally and may be called
// from any CPU and any non-NMI context.
unsafe impl Send for PciDev {}
// SAFETY: As above.
unsafe impl Sync for PciDev {}

impl PciDev {
    /// Reads the configuration dword at `off`.
    pub(crate) fn read32(&self, off: u32) -> Result<u32> {
        let mut v = 0u32;
        // SAFETY: The device is bound (type invariant); `v` is writable.
        to_result(unsafe { ffi::ru_pci_read32(self.0.as_ptr(), off, &mut v) })?;
        Ok(v)
    }

    /// Writes the configuration dword at `off`.
    pub(crate) fn write32(&self, off: u32, v: u32) -> Result {
        // SAFETY: The device is bound (type invariant).
        to_result(unsafe { ffi::ru_pci_write32(self.0.as_ptr(), off, v) })
    }
}

/// Where a probed function is.
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

/// The driver's PCI callbacks (process context).
pub(crate) trait PciOps: Send + Sync + 'static {
    /// A function of the ID table appeared; refuse it with an error.
    fn probe(&self, dev: PciDev, at: PciLocation) -> Result;
    /// A probed function goes away; `dev` is unusable afterwards.
    fn remove(&self, dev: PciDev);
}

struct Adapter<T: PciOps>(PhantomData<T>);

impl<T: PciOps> Adapter<T> {
    const OPS: ffi::RuPciOps = ffi::RuPciOps { probe: Some(Self::probe_cb), remove: Some(Self::remove_cb) };

    /// # Safety
    ///
    /// Called by the PCI core with the registration's data and a device
    /// being bound.
    unsafe extern "C" fn probe_cb(
        data: *mut c_void,
        pdev: *mut ffi::PciDevRaw,
        vendor: u16,
        device: u16,
        domain: u32,
        bus: u32,
        devfn: u32,
    ) -> c_int {
        from_result(|| {
            // SAFETY: `data` is the registration's `T`, alive while registered.
            let t = unsafe { &*(data as *const T) };
            let dev = PciDev(NonNull::new(pdev).ok_or(EINVAL)?);
            let at = PciLocation { vendor, device, domain, bus: bus as u8, dev: (devfn >> 3) as u8, func: (devfn & 7) as u8 };
            t.probe(dev, at)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by the PCI core with the registration's data and a bound device.
    unsafe extern "C" fn remove_cb(data: *mut c_void, pdev: *mut ffi::PciDevRaw) {
        // SAFETY: `data` is the registration's `T`, alive while registered.
        let t = unsafe { &*(data as *const T) };
        if let Some(p) = NonNull::new(pdev) {
            t.remove(PciDev(p));
        }
    }
}

/// The registered PCI driver (one at a time); unregistering it (on drop)
/// removes every bound device.
///
/// # Invariants
///
/// `raw` is a registered driver whose data is `Arc::into_raw` of `data`.
pub(crate) struct PciDriver<T: PciOps> {
    raw: NonNull<ffi::RuPciDriver>,
    data: *const T,
    _ops: KBox<ffi::RuPciOps>,
}

// SAFETY: The driver is only unregistered in `Drop`; `T` is `Send + Sync`.
unsafe impl<T: PciOps> Send for PciDriver<T> {}
// SAFETY: No `&self` method touches the registration.
unsafe impl<T: PciOps> Sync for PciDriver<T> {}

impl<T: PciOps> PciDriver<T> {
    /// Registers the driver; `probe` runs for present devices before this returns.
    pub(crate) fn register(ops: Arc<T>) -> Result<Self> {
        let table = KBox::new(Adapter::<T>::OPS, GFP_KERNEL)?;
        let data = Arc::into_raw(ops);
        let mut err: c_int = 0;
        // SAFETY: `table` and `data` live in the returned object until `Drop`.
        let raw = unsafe { ffi::ru_pci_register(&*table, data as *mut c_void, &mut err) };
        match NonNull::new(raw) {
            Some(raw) => Ok(PciDriver { raw, data, _ops: table }),
            None => {
                // SAFETY: `data` came from `Arc::into_raw` and was not kept.
                drop(unsafe { Arc::from_raw(data) });
                to_result(err)?;
                Err(ENOMEM)
            }
        }
    }
}

impl<T: PciOps> PciDriver<T> {
    /// The driver object.
    pub(crate) fn ops(&self) -> &T {
        // SAFETY: `data` is the `T` this object owns.
        unsafe { &*self.data }
    }
}

impl<T: PciOps> Drop for PciDriver<T> {
    fn drop(&mut self) {
        // SAFETY: `raw` is registered; unregistering runs `remove` for every bound device and then no callback uses `data`.
        unsafe { ffi::ru_pci_unregister(self.raw.as_ptr()) };
        // SAFETY: `data` came from `Arc::into_raw` in `register`.
        drop(unsafe { Arc::from_raw(self.data) });
    }
}

/// A U-box device's node-ID registers.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct UboxInfo {
    /// PCI segment.
    pub(crate) domain: u32,
    /// Bus.
    pub(crate) bus: u8,
    /// `CPUNODEID`.
    pub(crate) nodeid: u32,
    /// `GIDNIDMAP`.
    pub(crate) gidnidmap: u32,
}

/// Reads every U-box device `device` (up to `out.len()`); returns how many.
pub(crate) fn uboxes(device: u16, out: &mut [UboxInfo]) -> Result<usize> {
    let mut raw = [ffi::RuUbox::default(); 8];
    let max = out.len().min(raw.len());
    // SAFETY: `raw` is writable for `max` entries.
    let n = unsafe { ffi::ru_pci_uboxes(device, raw.as_mut_ptr(), max as u32) };
    to_result(n.min(0))?;
    let n = (n as usize).min(max);
    for (o, r) in out.iter_mut().zip(&raw[..n]) {
        *o = UboxInfo { domain: r.domain, bus: r.bus as u8, nodeid: r.nodeid, gidnidmap: r.gidnidmap };
    }
    Ok(n)
}

/// The logical package of physical socket `phys`, if it exists.
pub(crate) fn logical_package(phys: u32) -> Option<usize> {
    // SAFETY: Reads topology data.
    let p = unsafe { ffi::ru_phys_to_logical_pkg(phys) };
    (p >= 0).then_some(p as usize)
}

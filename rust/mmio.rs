// SPDX-License-Identifier: GPL-2.0

//! A mapped MMIO window, read with 32-bit accesses.
//!
//! C header: [`include/asm-generic/io.h`](srctree/include/asm-generic/io.h)

use super::bindings;
use core::ffi::c_void;
use core::ptr::NonNull;
use kernel::prelude::*;

/// An `ioremap`ped window of `size` bytes.
///
/// # Invariants
///
/// `addr` maps `size` bytes, owned by this object until drop.
pub struct Mmio {
    addr: NonNull<c_void>,
    size: u64,
}

// SAFETY: MMIO reads are safe from any CPU and context.
unsafe impl Send for Mmio {}
// SAFETY: As above; there are no writes.
unsafe impl Sync for Mmio {}

impl Mmio {
    /// Maps `size` bytes at physical address `phys`. Only for this layer:
    /// the driver maps a window a device places ([`super::pci::Device::map_window`]).
    pub(super) fn map(phys: u64, size: u64) -> Result<Self> {
        let len = usize::try_from(size).map_err(|_| EINVAL)?;
        // SAFETY: `ioremap` accepts any address and size and returns NULL on failure.
        let addr = NonNull::new(unsafe { bindings::ioremap(phys, len) }).ok_or(ENOMEM)?;
        Ok(Mmio { addr, size })
    }

    /// Reads the 32-bit register at `off`.
    pub fn read32(&self, off: u32) -> Result<u32> {
        if u64::from(off) + 4 > self.size || off % 4 != 0 {
            return Err(EINVAL);
        }
        // SAFETY: `off` is an aligned offset inside the mapping (type invariant).
        Ok(unsafe { bindings::ru_readl(self.addr.as_ptr().cast::<u8>().add(off as usize).cast()) })
    }
}

impl Drop for Mmio {
    fn drop(&mut self) {
        // SAFETY: `addr` came from `ioremap` and is no longer used.
        unsafe { bindings::iounmap(self.addr.as_ptr()) };
    }
}

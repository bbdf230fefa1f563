// SPDX-License-Identifier: GPL-2.0

//! An interrupt-safe raw spinlock protecting data (6.12's Rust has no
//! `SpinLockIrq`): usable from process context, hard interrupts and timer
//! callbacks; never from NMI context.
//!
//! C header: [`include/linux/spinlock.h`](srctree/include/linux/spinlock.h)

use super::ffi;
use core::cell::UnsafeCell;
use core::ops::{Deref, DerefMut};
use core::ptr::NonNull;
use kernel::error::{code::ENOMEM, Result};

/// Data of type `T` behind an IRQ-safe raw spinlock.
///
/// # Invariants
///
/// `raw` points to a `struct ru_lock` allocated by `ru_lock_alloc` and owned
/// by this object; `data` is only reached through a guard holding the lock.
pub(crate) struct IrqLock<T> {
    raw: NonNull<ffi::RuLock>,
    data: UnsafeCell<T>,
}

// SAFETY: The lock serialises all access to `data`, so sharing the lock
// between threads is as safe as sending `T` between them.
unsafe impl<T: Send> Sync for IrqLock<T> {}
// SAFETY: The raw lock is plain memory owned by this object.
unsafe impl<T: Send> Send for IrqLock<T> {}

/// Lockdep classes: locks of one class are never nested; the nesting order
/// is `Box` -> `Global` -> `Pci` -> `Model`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LockClass {
    /// A box's state.
    Box = 0,
    /// A package's global control state.
    Global = 1,
    /// The simulation's register model.
    Model = 2,
    /// The registry of PCI functions.
    Pci = 3,
    /// A slot handing an object to a callback.
    Slot = 4,
}

impl<T> IrqLock<T> {
    /// A new lock of class `class` around `data`.
    pub(crate) fn new(class: LockClass, data: T) -> Result<Self> {
        // SAFETY: Allocates and initialises a lock; null on failure.
        let raw = NonNull::new(unsafe { ffi::ru_lock_alloc(class as u32) }).ok_or(ENOMEM)?;
        Ok(IrqLock { raw, data: UnsafeCell::new(data) })
    }

    /// Takes the lock with interrupts disabled.
    pub(crate) fn lock(&self) -> IrqGuard<'_, T> {
        // SAFETY: `raw` is a valid lock by the type invariant.
        let flags = unsafe { ffi::ru_lock_irqsave(self.raw.as_ptr()) };
        IrqGuard { lock: self, flags }
    }

}

impl<T> Drop for IrqLock<T> {
    fn drop(&mut self) {
        // SAFETY: `raw` was allocated by `ru_lock_alloc`, and `&mut self` proves that no guard holds it.
        unsafe { ffi::ru_lock_free(self.raw.as_ptr()) };
    }
}

/// Holds an [`IrqLock`]; releases it (restoring interrupts) when dropped.
pub(crate) struct IrqGuard<'a, T> {
    lock: &'a IrqLock<T>,
    flags: kernel::ffi::c_ulong,
}

impl<T> Deref for IrqGuard<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        // SAFETY: The guard holds the lock, so no one else accesses the data.
        unsafe { &*self.lock.data.get() }
    }
}

impl<T> DerefMut for IrqGuard<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        // SAFETY: The guard holds the lock, and `&mut self` makes this the only reference through it.
        unsafe { &mut *self.lock.data.get() }
    }
}

impl<T> Drop for IrqGuard<'_, T> {
    fn drop(&mut self) {
        // SAFETY: The guard holds the lock taken with these flags.
        unsafe { ffi::ru_unlock_irqrestore(self.lock.raw.as_ptr(), self.flags) };
    }
}

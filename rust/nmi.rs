// SPDX-License-Identifier: GPL-2.0

//! An `NMI_LOCAL` handler, `irq_work` to leave NMI context, and sending an
//! NMI to a CPU.
//!
//! NMI context: the handler must not allocate, sleep, take a lock that
//! non-NMI code may hold, or panic; it should only decide whether the NMI is
//! its own and queue an [`IrqWork`], which runs in hard interrupt context on
//! the same CPU right after.
//!
//! C headers: [`arch/x86/include/asm/nmi.h`](srctree/arch/x86/include/asm/nmi.h),
//! [`include/linux/irq_work.h`](srctree/include/linux/irq_work.h)

use super::ffi;
use core::ptr::NonNull;
use kernel::error::{to_result, Result};
use kernel::ffi::c_void;
use kernel::prelude::*;
use kernel::sync::Arc;

/// An NMI handler.
pub(crate) trait NmiHandler: Send + Sync + 'static {
    /// Runs in NMI context on the CPU that took the NMI; returns whether the
    /// NMI was this handler's (other handlers see it either way).
    fn nmi(&self) -> bool;
}

/// The registered NMI handler (one per module); unregistering (on drop)
/// waits for a running handler.
///
/// # Invariants
///
/// The C side holds `data`, from `Arc::into_raw`, until `Drop`.
pub(crate) struct Nmi<T: NmiHandler> {
    data: *const T,
}

// SAFETY: The registration is only removed in `Drop`; `T` is `Send + Sync`.
unsafe impl<T: NmiHandler> Send for Nmi<T> {}
// SAFETY: No `&self` method.
unsafe impl<T: NmiHandler> Sync for Nmi<T> {}

impl<T: NmiHandler> Nmi<T> {
    /// Registers `h`.
    pub(crate) fn register(h: Arc<T>) -> Result<Self> {
        let data = Arc::into_raw(h);
        // SAFETY: `cb::<T>` matches the callback type and `data` stays valid until `Drop` unregisters it.
        let r = unsafe { ffi::ru_nmi_register(Some(Self::cb), data as *mut c_void) };
        if let Err(e) = to_result(r) {
            // SAFETY: `data` came from `Arc::into_raw` and was not kept.
            drop(unsafe { Arc::from_raw(data) });
            return Err(e);
        }
        Ok(Nmi { data })
    }

    /// # Safety
    ///
    /// `data` must be the registered `T`.
    unsafe extern "C" fn cb(data: *mut c_void) -> bool {
        // SAFETY: By the function's requirement.
        let h = unsafe { &*(data as *const T) };
        h.nmi()
    }
}

impl<T: NmiHandler> Drop for Nmi<T> {
    fn drop(&mut self) {
        // SAFETY: Unregistering waits for running handlers; then `data` is unused.
        unsafe { ffi::ru_nmi_unregister() };
        // SAFETY: `data` came from `Arc::into_raw` in `register`.
        drop(unsafe { Arc::from_raw(self.data) });
    }
}

/// Sends an NMI to `cpu` (the simulation's way of raising an uncore PMI).
pub(crate) fn send(cpu: u32) {
    // SAFETY: Sends an IPI with the NMI vector; valid for any online CPU, which the caller passes.
    unsafe { ffi::ru_send_nmi(cpu) }
}

/// Work for an `irq_work`.
pub(crate) trait IrqWorkHandler: Send + Sync + 'static {
    /// Runs in hard interrupt context on the CPU that queued it.
    fn run(&self);
}

/// An `irq_work` owning its handler.
///
/// # Invariants
///
/// `raw` is from `ru_irq_work_alloc` with data `Arc::into_raw` of `data`.
pub(crate) struct IrqWork<T: IrqWorkHandler> {
    raw: NonNull<ffi::RuIrqWork>,
    data: *const T,
}

// SAFETY: Queueing is safe from any context; `T` is `Send + Sync`.
unsafe impl<T: IrqWorkHandler> Send for IrqWork<T> {}
// SAFETY: As above.
unsafe impl<T: IrqWorkHandler> Sync for IrqWork<T> {}

impl<T: IrqWorkHandler> IrqWork<T> {
    /// A new work running `h`.
    pub(crate) fn new(h: Arc<T>) -> Result<Self> {
        let data = Arc::into_raw(h);
        // SAFETY: `run_cb::<T>` matches; `data` lives until `Drop`.
        let raw = unsafe { ffi::ru_irq_work_alloc(Some(Self::run_cb), data as *mut c_void) };
        match NonNull::new(raw) {
            Some(raw) => Ok(IrqWork { raw, data }),
            None => {
                // SAFETY: `data` came from `Arc::into_raw` and was not kept.
                drop(unsafe { Arc::from_raw(data) });
                Err(ENOMEM)
            }
        }
    }

    /// # Safety
    ///
    /// `data` must be this work's `T`.
    unsafe extern "C" fn run_cb(data: *mut c_void) {
        // SAFETY: By the function's requirement.
        let h = unsafe { &*(data as *const T) };
        h.run();
    }

    /// Queues the work on this CPU (NMI-safe); false if already queued.
    pub(crate) fn queue(&self) -> bool {
        // SAFETY: `raw` is valid by the type invariant.
        unsafe { ffi::ru_irq_work_queue(self.raw.as_ptr()) }
    }
}

impl<T: IrqWorkHandler> Drop for IrqWork<T> {
    fn drop(&mut self) {
        // SAFETY: Freeing waits for a queued or running work first.
        unsafe { ffi::ru_irq_work_free(self.raw.as_ptr()) };
        // SAFETY: `data` came from `Arc::into_raw` in `new`.
        drop(unsafe { Arc::from_raw(self.data) });
    }
}

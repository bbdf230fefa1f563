// SPDX-License-Identifier: GPL-2.0

//! An `NMI_LOCAL` handler, `irq_work` to leave NMI context, and sending an
//! NMI to a CPU.
//!
//! NMI context: a handler must not allocate, sleep, take a lock that
//! non-NMI code may hold, or panic. It should only decide whether the NMI
//! is its own and queue an [`IrqWork`], which runs in hard interrupt
//! context on the same CPU right after.
//!
//! C headers: [`arch/x86/include/asm/nmi.h`](srctree/arch/x86/include/asm/nmi.h),
//! [`include/linux/irq_work.h`](srctree/include/linux/irq_work.h)

use super::bindings;
use super::cpu::CpuId;
use core::ffi::c_void;
use core::ptr::{addr_of, addr_of_mut, null_mut};
use core::sync::atomic::{AtomicPtr, Ordering};
use kernel::error::to_result;
use kernel::ffi::{c_int, c_uint};
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::Arc;
use kernel::types::Opaque;

/// An NMI handler.
pub(crate) trait NmiHandler: Send + Sync + 'static {
    /// Runs in NMI context on the CPU that took the NMI; returns whether the
    /// NMI was this handler's (the other handlers see it either way).
    fn nmi(&self) -> bool;
}

/// The handler object of the registered handler: a `struct nmiaction` has
/// no data pointer, so the one registration a module may have publishes
/// its handler here.
static HANDLER: AtomicPtr<c_void> = AtomicPtr::new(null_mut());

/// A registered `NMI_LOCAL` handler (at most one per module: a second
/// registration fails with `EBUSY`). Dropping it unregisters the handler
/// and waits until no CPU runs it.
///
/// # Invariants
///
/// `action` is registered with [`Self::handle`] as its handler and
/// [`HANDLER`] points to `handler`'s object, from the end of initialisation
/// until drop.
#[pin_data(PinnedDrop)]
pub(crate) struct Registration<T: NmiHandler> {
    handler: Arc<T>,
    name: &'static CStr,
    #[pin]
    action: Opaque<bindings::nmiaction>,
}

// SAFETY: The NMI core owns the action while it is registered; `T` is `Send + Sync`.
unsafe impl<T: NmiHandler> Send for Registration<T> {}
// SAFETY: There is no `&self` method.
unsafe impl<T: NmiHandler> Sync for Registration<T> {}

impl<T: NmiHandler> Registration<T> {
    /// Registers `handler` as the `NMI_LOCAL` handler `name`.
    pub(crate) fn new(name: &'static CStr, handler: Arc<T>) -> impl PinInit<Self, Error> {
        // SAFETY: On success every field is initialised and the action registered at its final,
        // pinned address; on failure nothing is registered or initialised.
        unsafe {
            super::compat::pin_init_from_closure(move |slot: *mut Self| {
                let obj = core::ptr::from_ref::<T>(&handler)
                    .cast_mut()
                    .cast::<c_void>();
                if HANDLER
                    .compare_exchange(null_mut(), obj, Ordering::AcqRel, Ordering::Acquire)
                    .is_err()
                {
                    return Err(EBUSY);
                }
                addr_of_mut!((*slot).handler).write(handler);
                addr_of_mut!((*slot).name).write(name);
                let action = super::compat::opaque_raw(addr_of!((*slot).action));
                action.write(bindings::nmiaction {
                    handler: Some(Self::handle),
                    name: name.as_char_ptr(),
                    ..Default::default()
                });
                // The list head points to itself, as `register_nmi_handler()` sets it up.
                let list = addr_of_mut!((*action).list);
                (*list).next = list;
                (*list).prev = list;
                let r = to_result(bindings::__register_nmi_handler(
                    bindings::NMI_LOCAL as c_uint,
                    action,
                ));
                if r.is_err() {
                    HANDLER.store(null_mut(), Ordering::Release);
                    core::ptr::drop_in_place(addr_of_mut!((*slot).handler));
                }
                r
            })
        }
    }

    /// The NMI core's handler.
    ///
    /// # Safety
    ///
    /// Called by the NMI core for the registered action.
    unsafe extern "C" fn handle(_type: c_uint, _regs: *mut bindings::pt_regs) -> c_int {
        let obj = HANDLER.load(Ordering::Acquire).cast::<T>();
        if obj.is_null() {
            return bindings::NMI_DONE as c_int;
        }
        // SAFETY: While this handler is registered, `HANDLER` points to the `T` of the one
        // registration, a `Registration<T>` (type invariant), kept alive until unregistering
        // has waited for every running handler.
        if unsafe { (*obj).nmi() } {
            bindings::NMI_HANDLED as c_int
        } else {
            bindings::NMI_DONE as c_int
        }
    }
}

#[pinned_drop]
impl<T: NmiHandler> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: The action is registered under this name (type invariant); unregistering
        // waits for running handlers (RCU), after which none reads `HANDLER`'s object.
        unsafe {
            bindings::unregister_nmi_handler(bindings::NMI_LOCAL as c_uint, self.name.as_char_ptr())
        };
        HANDLER.store(null_mut(), Ordering::Release);
    }
}

/// Sends an NMI to `cpu` (the simulation's way of raising an uncore PMI).
pub(crate) fn send(cpu: CpuId) {
    // SAFETY: Sends an IPI with the NMI vector to a possible CPU; an offline CPU ignores it.
    unsafe { bindings::ru_send_nmi(cpu.as_u32()) }
}

/// Work for an `irq_work`.
pub(crate) trait IrqWorkHandler: Send + Sync + 'static {
    /// Runs in hard interrupt context on the CPU that queued it.
    fn run(&self);
}

/// An `irq_work` in hard-interrupt mode, calling its handler. Dropping it
/// waits for a queued or running work.
///
/// # Invariants
///
/// `work` is initialised with [`Self::run`] as its function.
#[pin_data(PinnedDrop)]
pub(crate) struct IrqWork<T: IrqWorkHandler> {
    #[pin]
    work: Opaque<bindings::irq_work>,
    handler: Arc<T>,
}

// SAFETY: Queueing is safe from any context; `T` is `Send + Sync`.
unsafe impl<T: IrqWorkHandler> Send for IrqWork<T> {}
// SAFETY: As above.
unsafe impl<T: IrqWorkHandler> Sync for IrqWork<T> {}

impl<T: IrqWorkHandler> IrqWork<T> {
    /// An idle work running `handler`.
    pub(crate) fn new(handler: Arc<T>) -> impl PinInit<Self> {
        pin_init!(Self {
            // SAFETY: The helper initialises the work in place with a function of the right type,
            // only ever called for a work inside an `IrqWork<T>`.
            work <- Opaque::ffi_init(|slot| unsafe { bindings::ru_init_irq_work_hard(slot, Some(Self::run)) }),
            handler,
        })
    }

    /// The work's function.
    ///
    /// # Safety
    ///
    /// Called by the irq_work core with the work of a live `IrqWork<T>`.
    unsafe extern "C" fn run(work: *mut bindings::irq_work) {
        // SAFETY: `work` is the `work` field of an `IrqWork<T>`, kept alive by `PinnedDrop` until
        // the work is idle.
        let this = unsafe { &*super::compat::container_of!(work, Self, work) };
        this.handler.run();
    }

    /// Queues the work on this CPU (NMI-safe); false if it was already queued.
    pub(crate) fn queue(&self) -> bool {
        // SAFETY: The work is initialised (type invariant) and pinned.
        unsafe { bindings::irq_work_queue(self.work.get()) }
    }
}

#[pinned_drop]
impl<T: IrqWorkHandler> PinnedDrop for IrqWork<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: The work is initialised; `irq_work_sync` waits until it is neither queued nor
        // running.
        unsafe { bindings::irq_work_sync(self.work.get()) };
    }
}

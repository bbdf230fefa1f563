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
use super::cpu::{without_irqs, CpuId, InNmi, IrqsOff};
use core::cmp::min;
use core::ffi::c_void;
use core::ptr::{addr_of, addr_of_mut, null_mut};
use core::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, Ordering};
use kernel::error::to_result;
use kernel::ffi::{c_int, c_uint};
use kernel::prelude::*;
use kernel::sync::Arc;
use kernel::types::Opaque;

/// An NMI handler.
pub trait NmiHandler: Send + Sync + 'static {
    /// Runs in NMI context on the CPU that took the NMI; returns whether the
    /// NMI was this handler's (the other handlers see it either way).
    fn nmi(&self, nmi: &InNmi) -> bool;
}

/// The handler object of the registered handler: a `struct nmiaction` has
/// no data pointer, so the one registration a module may have publishes
/// its handler here.
static HANDLER: AtomicPtr<c_void> = AtomicPtr::new(null_mut());

/// The registered handler's counts, one per CPU number: the NMIs [`send`]
/// sent to that CPU and not yet claimed. The handler claims them all in
/// the next NMI of that CPU (two sent NMIs may arrive as one), so none this
/// module sends is left to the kernel as of "unknown reason"; it reports
/// how many it took, so that the kernel swallows a second, back-to-back
/// NMI it finds no reason for.
static PENDING: AtomicPtr<AtomicU32> = AtomicPtr::new(null_mut());

/// [`send`] may send: a registration is live and not being dropped.
static ACCEPTING: AtomicBool = AtomicBool::new(false);

/// Calls of [`send`] running (which may use [`PENDING`]'s counts).
static SENDERS: AtomicU32 = AtomicU32::new(0);

/// The module's name (`KBUILD_MODNAME`, as the `module!` macro gives it
/// to the kernel's print functions), NUL-terminated: the name of its NMI
/// action.
fn module_name() -> *const kernel::ffi::c_char {
    crate::__LOG_PREFIX.as_ptr().cast()
}

/// The pending count of CPU `cpu`.
///
/// # Safety
///
/// `flags` must be [`PENDING`]'s value while a registration is live (it
/// points to one count per CPU number), and the reference must not
/// outlive that registration.
unsafe fn pending_of<'a>(flags: *mut AtomicU32, cpu: CpuId) -> &'a AtomicU32 {
    // SAFETY: The caller guarantees `flags` holds a flag for every CPU number, which `cpu` is.
    unsafe { &*flags.add(cpu.as_u32() as usize) }
}

/// A registered `NMI_LOCAL` handler (at most one per module: a second
/// registration fails with `EBUSY`), named after the module. Dropping it
/// waits for the NMIs [`send`] sent, unregisters the handler and waits
/// until no CPU runs it.
///
/// The NMI core unregisters by name, the first action of that name on its
/// list: a name another module also used would remove that module's action
/// and leave this one on the list after the module is gone. The module's
/// own name is the kernel's only name no other module has, so it is the
/// one used, not one the caller chooses.
///
/// # Invariants
///
/// `action` is registered with [`Self::handle`] as its handler, [`HANDLER`]
/// points to `handler`'s object and [`PENDING`] to `pending`'s counts (one
/// per CPU number), from the end of initialisation until the handler is
/// unregistered in drop.
#[pin_data(PinnedDrop)]
pub struct Registration<T: NmiHandler> {
    handler: Arc<T>,
    pending: KVec<AtomicU32>,
    #[pin]
    action: Opaque<bindings::nmiaction>,
}

// SAFETY: The NMI core owns the action while it is registered; `T` is `Send + Sync`; the flags
// are atomics.
unsafe impl<T: NmiHandler> Send for Registration<T> {}
// SAFETY: There is no `&self` method.
unsafe impl<T: NmiHandler> Sync for Registration<T> {}

impl<T: NmiHandler> Registration<T> {
    /// Registers `handler` as the `NMI_LOCAL` handler of this module, under
    /// the module's name.
    pub fn new(handler: Arc<T>) -> impl PinInit<Self, Error> {
        let pending = (|| -> Result<KVec<AtomicU32>> {
            let n = CpuId::all().count();
            let mut v = KVec::with_capacity(n, GFP_KERNEL)?;
            for _ in 0..n {
                v.push(AtomicU32::new(0), GFP_KERNEL)?;
            }
            Ok(v)
        })();
        // SAFETY: On success every field is initialised and the action registered at its final,
        // pinned address; on failure nothing is registered or initialised.
        unsafe {
            super::compat::pin_init_from_closure(move |slot: *mut Self| {
                let pending = pending?;
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
                addr_of_mut!((*slot).pending).write(pending);
                let action = super::compat::opaque_raw(addr_of!((*slot).action));
                action.write(bindings::nmiaction {
                    handler: Some(Self::handle),
                    name: module_name(),
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
                match r {
                    // INVARIANT: Registered, and both statics published: `send` can target the
                    // handler only from here.
                    Ok(()) => {
                        PENDING.store((*slot).pending.as_mut_ptr(), Ordering::SeqCst);
                        ACCEPTING.store(true, Ordering::SeqCst);
                    }
                    Err(_) => {
                        HANDLER.store(null_mut(), Ordering::Release);
                        core::ptr::drop_in_place(addr_of_mut!((*slot).pending));
                        core::ptr::drop_in_place(addr_of_mut!((*slot).handler));
                    }
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
        // SAFETY: This is an NMI handler, running until it returns.
        let nmi = unsafe { InNmi::new() };
        // SAFETY: While this handler is registered, `HANDLER` points to the `T` of the one
        // registration, a `Registration<T>` (type invariant), kept alive until unregistering
        // has waited for every running handler.
        let ours = unsafe { (*obj).nmi(&nmi) };
        // The NMIs `send` sent here are claimed, whatever the handler said.
        let flags = PENDING.load(Ordering::Acquire);
        let sent = if flags.is_null() {
            0
        } else {
            // SAFETY: `PENDING` is the live registration's counts (type invariant): it is
            // cleared, and the counts freed, only after unregistering waited for this handler.
            let pending = unsafe { pending_of(flags, nmi.cpu()) };
            pending.swap(0, Ordering::AcqRel)
        };
        // How many NMIs this handled: `NMI_DONE` (0) for none, `NMI_HANDLED` (1) for one, more
        // for more (the kernel then swallows a back-to-back NMI it finds no reason for).
        let handled = min(u32::from(ours).saturating_add(sent), 1000);
        c_int::try_from(handled).unwrap_or(bindings::NMI_HANDLED as c_int)
    }
}

#[pinned_drop]
impl<T: NmiHandler> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        // No new send: wait for those running, then (up to 100 ms) for the
        // NMIs they sent to arrive and be claimed, with the counts still
        // published to the handler.
        ACCEPTING.store(false, Ordering::SeqCst);
        while SENDERS.load(Ordering::SeqCst) != 0 {
            core::hint::spin_loop();
        }
        for _ in 0..10_000 {
            if self.pending.iter().all(|f| f.load(Ordering::Acquire) == 0) {
                break;
            }
            super::cpu::delay_us(10);
        }
        // SAFETY: The action is registered under the module's name (type invariant), which no
        // other module's action has; unregistering waits for running handlers (RCU), after which
        // none reads `HANDLER`'s object or the counts.
        unsafe { bindings::unregister_nmi_handler(bindings::NMI_LOCAL as c_uint, module_name()) };
        PENDING.store(null_mut(), Ordering::SeqCst);
        HANDLER.store(null_mut(), Ordering::Release);
    }
}

/// Unmasks this CPU's local APIC performance-counter interrupt (LVTPC) in
/// NMI delivery mode, as the core PMU's handler does after each PMI: the
/// APIC masks the entry when it delivers one, and no later PMI, core or
/// uncore, reaches this CPU until it is unmasked. The core PMU's handler
/// does it only while core events are active, so an uncore PMI's handler
/// must too. A CPU without a local APIC gets no PMIs: nothing to do.
/// (Through the exported `apic`: `apic_write()`'s static call is not
/// exported.) The mask on delivery: Intel SDM Vol. 3, the local APIC's
/// performance-counter LVT entry; the kernel's `intel_pmu_handle_irq()`
/// unmasks it the same way.
pub fn rearm_pmi(_nmi: &InNmi) {
    // SAFETY: Writes this CPU's own LVTPC (NMI context: no migration), if it has a local APIC,
    // with the value the core PMU writes there at boot and in its own NMI handler (`APIC_DM_NMI`,
    // unmasked). No memory is touched.
    unsafe { bindings::ru_apic_lvtpc_nmi() }
}

/// Sends an NMI to online CPU `cpu`, which this module's registered
/// handler claims (the simulation's way of raising an uncore PMI).
/// `ENODEV` if no handler is registered or `cpu` is offline.
pub fn send(cpu: CpuId) -> Result {
    SENDERS.fetch_add(1, Ordering::SeqCst);
    let flags = PENDING.load(Ordering::SeqCst);
    let r = if !ACCEPTING.load(Ordering::SeqCst) || flags.is_null() {
        Err(ENODEV)
    } else {
        // SAFETY: `flags` was published by a live registration, which cannot free it while this
        // call is counted in `SENDERS` (its drop waits for that).
        let pending = unsafe { pending_of(flags, cpu) };
        // With interrupts off here, no CPU goes offline (that needs every online CPU to run its
        // stopper).
        without_irqs(|_| {
            if !cpu.is_online() {
                return Err(ENODEV);
            }
            pending.fetch_add(1, Ordering::AcqRel);
            // SAFETY: Sends an IPI with the NMI vector to an online CPU (it stays online while
            // interrupts are off here); its handler claims it by the flag just set.
            unsafe { bindings::ru_send_nmi(cpu.as_u32()) };
            Ok(())
        })
    };
    SENDERS.fetch_sub(1, Ordering::SeqCst);
    r
}

/// Work for an `irq_work`.
pub trait IrqWorkHandler: Send + Sync + 'static {
    /// Runs in hard interrupt context on the CPU that queued it.
    fn run(&self, irq: &IrqsOff);
}

/// An `irq_work` in hard-interrupt mode, calling its handler. Dropping it
/// waits for a queued or running work.
///
/// # Invariants
///
/// `work` is initialised with [`Self::run`] as its function.
#[pin_data(PinnedDrop)]
pub struct IrqWork<T: IrqWorkHandler> {
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
    pub fn new(handler: Arc<T>) -> impl PinInit<Self> {
        pin_init!(Self {
            // SAFETY: The helper initialises the work in place with a function of the right type,
            // only ever called for a work inside an `IrqWork<T>`.
            work <- Opaque::ffi_init(|slot| unsafe {
                bindings::ru_init_irq_work_hard(slot, Some(Self::run))
            }),
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
        // SAFETY: An `irq_work` in hard-interrupt mode runs with interrupts off, for this call.
        this.handler.run(&unsafe { IrqsOff::new() });
    }

    /// Queues the work on this CPU (NMI-safe); false if it was already queued.
    pub fn queue(&self) -> bool {
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

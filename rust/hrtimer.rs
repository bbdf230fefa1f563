// SPDX-License-Identifier: GPL-2.0

//! A periodic high-resolution timer in hard-interrupt mode, pinned to the
//! CPU that starts it (`HRTIMER_MODE_REL_PINNED_HARD`).
//!
//! The callback runs in hard interrupt context, also on `PREEMPT_RT`: it
//! must not sleep or allocate.
//!
//! C header: [`include/linux/hrtimer.h`](srctree/include/linux/hrtimer.h)

use super::bindings;
use super::compat;
use super::cpu::IrqsOff;
use core::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use kernel::ffi::c_uint;
use kernel::prelude::*;
use kernel::sync::{Arc, ArcBorrow};
use kernel::types::Opaque;

/// What a timer does when it fires.
pub trait TimerHandler: Send + Sync + 'static {
    /// Runs in hard interrupt context; returns whether to fire again one
    /// period later.
    fn fire(&self, irq: &IrqsOff) -> bool;
}

/// The timer's mode: relative expiry, pinned to a CPU, hard interrupt.
const MODE: bindings::hrtimer_mode = bindings::hrtimer_mode_HRTIMER_MODE_REL_PINNED_HARD;

/// The start of every timer's [`Inner`]: the hrtimer and the function that
/// runs it (its `Inner<T>`'s [`Inner::run`]), found from the hrtimer by the
/// one C function of the timers (`ru_hrtimer_function`, whose type is the
/// one kCFI checks the hrtimer core's call against).
#[repr(C)]
struct Head {
    timer: Opaque<bindings::hrtimer>,
    run: unsafe fn(*mut bindings::hrtimer) -> bool,
}

/// Runs the timer `timer` (called by `ru_hrtimer_function`, its function):
/// whether it fires again.
///
/// # Safety
///
/// Called by the hrtimer core, through `ru_hrtimer_function`, with the
/// timer of a live [`Inner`].
#[no_mangle]
unsafe extern "C" fn rusys_hrtimer_run(timer: *mut bindings::hrtimer) -> c_uint {
    // SAFETY: Only `Inner`s have `ru_hrtimer_function` as their function; an `Inner` is
    // `repr(C)` and starts with a `Head` (its `timer` and `run` fields), alive for the call.
    let run = unsafe { (*timer.cast::<Head>()).run };
    // SAFETY: `run` is the timer's own `Inner<T>::run`, called by its hrtimer.
    c_uint::from(unsafe { run(timer) })
}

/// No CPU runs the callback.
const NOT_RUNNING: i32 = -1;

/// What a [`Timer`] refers to, reference-counted so that a callback that
/// drops its own timer (through whatever its handler owns) keeps it alive
/// until it returns.
///
/// # Invariants
///
/// `timer` is initialised with `ru_hrtimer_function` as its function and
/// `run` is [`Self::run`], from the end of initialisation until drop; the
/// two start the struct, as a [`Head`]. `running_on` is the CPU running the
/// callback, set and cleared by the callback itself. Once `dead` is set the
/// timer is never queued again; a callback that finds it set does not
/// restart the timer.
#[pin_data]
#[repr(C)]
struct Inner<T: TimerHandler> {
    #[pin]
    timer: Opaque<bindings::hrtimer>,
    run: unsafe fn(*mut bindings::hrtimer) -> bool,
    period_ns: AtomicU64,
    running_on: AtomicI32,
    dead: AtomicBool,
    handler: Arc<T>,
}

// SAFETY: The hrtimer core serialises starting, cancelling and running the timer; the handler is
// `Send + Sync`.
unsafe impl<T: TimerHandler> Send for Inner<T> {}
// SAFETY: As above; `&self` methods only call hrtimer functions, which lock internally, and
// atomics.
unsafe impl<T: TimerHandler> Sync for Inner<T> {}

impl<T: TimerHandler> Inner<T> {
    /// Whether this is the timer's own callback, on this CPU (which runs
    /// nothing else until it returns, but an NMI). The callback runs with
    /// interrupts off: with them on, this is not it; with them off, this
    /// code cannot move to another CPU between reading its number and
    /// comparing it.
    fn in_own_callback(&self) -> bool {
        // SAFETY: Reads this CPU's interrupt state; no arguments.
        if !unsafe { bindings::ru_irqs_disabled() } {
            return false;
        }
        // SAFETY: Reads this CPU's number; no arguments.
        let cpu = unsafe { bindings::ru_this_cpu() };
        i32::try_from(cpu).is_ok_and(|c| self.running_on.load(Ordering::Acquire) == c)
    }

    /// The timer's function: whether it fires again.
    ///
    /// # Safety
    ///
    /// Called by the hrtimer core (through `ru_hrtimer_function`) with the
    /// timer of a live `Inner<T>`.
    unsafe fn run(timer: *mut bindings::hrtimer) -> bool {
        // `timer` is the `timer` field of an `Inner<T>` (the only timers with this function).
        let inner = super::compat::container_of!(timer, Self, timer).cast_const();
        // SAFETY: `inner` is the data of a live `Arc<Inner<T>>`: a `Timer` keeps it alive until
        // no callback runs (its drop waits for the callback, or, dropped by the callback itself,
        // leaves it to the reference taken here).
        let this: Arc<Self> = unsafe { ArcBorrow::from_raw(inner) }.into();
        // SAFETY: Reads this CPU's number; no arguments.
        let cpu = unsafe { bindings::ru_this_cpu() };
        this.running_on
            .store(i32::try_from(cpu).unwrap_or(NOT_RUNNING), Ordering::Release);
        // SAFETY: A hard-interrupt timer's callback runs with interrupts off, for this call.
        let again = this.handler.fire(&unsafe { IrqsOff::new() });
        this.running_on.store(NOT_RUNNING, Ordering::Release);
        if !again || this.dead.load(Ordering::Acquire) {
            // The hrtimer core does not touch a timer that is not restarted
            // after its function returns: `this` may be the last reference.
            return false;
        }
        let period = i64::try_from(this.period_ns.load(Ordering::Relaxed)).unwrap_or(i64::MAX);
        // SAFETY: The timer is running its own callback, the one context where it may be
        // forwarded; `ktime_get` is what `hrtimer_forward_now` reads for a monotonic timer.
        unsafe { bindings::hrtimer_forward(this.timer.get(), bindings::ktime_get(), period) };
        // `this` is not the last reference: the timer is not dead, so its `Timer` lives.
        true
    }
}

/// A timer that calls its handler every period while the handler asks for
/// it. Dropping the timer cancels it and waits for a running callback; its
/// own callback may drop it too (through whatever its handler owns): the
/// timer then stops when the callback returns.
pub struct Timer<T: TimerHandler> {
    inner: Arc<Inner<T>>,
}

impl<T: TimerHandler> Timer<T> {
    /// A stopped timer calling `handler`.
    pub fn new(handler: Arc<T>) -> Result<Self> {
        let inner = Arc::pin_init(
            pin_init!(Inner {
                // SAFETY: The set-up initialises the timer in place, not queued; its function
                // calls `run` below, and only while the timer is inside this `Inner`.
                timer <- Opaque::ffi_init(|slot: *mut bindings::hrtimer| unsafe {
                    compat::hrtimer_setup(
                        slot,
                        bindings::ru_hrtimer_function,
                        bindings::CLOCK_MONOTONIC as i32,
                        MODE,
                    );
                }),
                run: Inner::<T>::run,
                period_ns: AtomicU64::new(0),
                running_on: AtomicI32::new(NOT_RUNNING),
                dead: AtomicBool::new(false),
                handler,
            }),
            GFP_KERNEL,
        )?;
        Ok(Self { inner })
    }

    /// Starts (or restarts) the timer on the current CPU, firing every
    /// `period_ns` nanoseconds. In NMI context (the timer base's lock may be
    /// held by the code the NMI interrupted) or from the timer's own
    /// callback (its handler's return value restarts it): `EINVAL`, nothing
    /// started.
    pub fn start(&self, period_ns: u64) -> Result {
        if super::cpu::in_nmi() || self.inner.in_own_callback() {
            return Err(EINVAL);
        }
        self.inner.period_ns.store(period_ns, Ordering::Relaxed);
        let expiry = i64::try_from(period_ns).unwrap_or(i64::MAX);
        // SAFETY: The timer is initialised (type invariant of `Inner`) and pinned in its `Arc`.
        unsafe { bindings::hrtimer_start_range_ns(self.inner.timer.get(), expiry, 0, MODE) };
        Ok(())
    }

    /// Whether the timer is queued or its callback runs.
    pub fn is_active(&self) -> bool {
        // SAFETY: The timer is initialised (type invariant); `hrtimer_active` only reads it.
        unsafe { bindings::hrtimer_active(self.inner.timer.get()) }
    }

    /// Stops the timer and waits for a running callback to finish. With
    /// interrupts off (the timer's own callback among others: it would
    /// wait for itself) or in NMI context: `EINVAL`, nothing done.
    ///
    /// # Examples
    ///
    /// ```ignore
    /// // Process context: the timer stops.
    /// timer.cancel()?;
    /// // From a `TimerHandler::fire` (interrupts off): refused.
    /// assert_eq!(timer.cancel(), Err(EINVAL));
    /// ```
    pub fn cancel(&self) -> Result {
        // SAFETY: Reads this CPU's interrupt state; no arguments.
        if super::cpu::in_nmi() || unsafe { bindings::ru_irqs_disabled() } {
            return Err(EINVAL);
        }
        // SAFETY: The timer is initialised (type invariant); interrupts are on, so this is not
        // the timer's own callback (a hard-interrupt timer's runs with them off).
        unsafe { bindings::hrtimer_cancel(self.inner.timer.get()) };
        Ok(())
    }
}

impl<T: TimerHandler> Drop for Timer<T> {
    fn drop(&mut self) {
        // INVARIANT: From here the timer is never queued again: `start` needs this `Timer`,
        // and a running callback does not restart it.
        self.inner.dead.store(true, Ordering::Release);
        if self.inner.in_own_callback() {
            // The callback holds its own reference and stops the timer when it returns:
            // waiting for it here would never end.
            return;
        }
        if super::cpu::in_nmi() {
            if self.is_active() {
                // The base's lock may be held by the code the NMI interrupted, so the timer
                // cannot be cancelled from here: the reference stays with the timer, and the
                // timer's callback, which finds it dead, is its last user (a queued timer
                // fires once more, then stops; its memory is not freed).
                core::mem::forget(self.inner.clone());
            }
            // Neither queued nor running, and nothing else can queue it: dropped as is.
            return;
        }
        // SAFETY: The timer is initialised (type invariant). This is not its own callback
        // (checked above) nor an NMI, so the cancel returns once a running callback has
        // finished; hard-interrupt callbacks cannot run on this CPU while it waits.
        unsafe { bindings::hrtimer_cancel(self.inner.timer.get()) };
    }
}

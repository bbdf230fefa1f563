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
use core::sync::atomic::{AtomicU64, Ordering};
use kernel::ffi::c_uint;
use kernel::prelude::*;
use kernel::sync::Arc;
use kernel::types::Opaque;

/// What a timer does when it fires.
pub trait TimerHandler: Send + Sync + 'static {
    /// Runs in hard interrupt context; returns whether to fire again one
    /// period later.
    fn fire(&self, irq: &IrqsOff) -> bool;
}

/// The timer's mode: relative expiry, pinned to a CPU, hard interrupt.
const MODE: bindings::hrtimer_mode = bindings::hrtimer_mode_HRTIMER_MODE_REL_PINNED_HARD;

/// The start of every [`Timer`]: the hrtimer and the function that runs
/// it (its `Timer<T>`'s [`Timer::run`]), found from the hrtimer by the one
/// C function of the timers (`ru_hrtimer_function`, whose type is the one
/// kCFI checks the hrtimer core's call against).
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
/// timer of a live [`Timer`].
#[no_mangle]
unsafe extern "C" fn rusys_hrtimer_run(timer: *mut bindings::hrtimer) -> c_uint {
    // SAFETY: Only `Timer`s have `ru_hrtimer_function` as their function; a `Timer` is
    // `repr(C)` and starts with a `Head` (its `timer` and `run` fields), alive for the call.
    let run = unsafe { (*timer.cast::<Head>()).run };
    // SAFETY: `run` is the timer's own `Timer<T>::run`, called by its hrtimer.
    c_uint::from(unsafe { run(timer) })
}

/// A timer that calls its handler every period while the handler asks for
/// it. Dropping the timer cancels it and waits for a running callback.
///
/// # Invariants
///
/// `timer` is initialised with `ru_hrtimer_function` as its function and
/// `run` is [`Self::run`], from the end of initialisation until drop; the
/// two start the struct, as a [`Head`].
#[pin_data(PinnedDrop)]
#[repr(C)]
pub struct Timer<T: TimerHandler> {
    #[pin]
    timer: Opaque<bindings::hrtimer>,
    run: unsafe fn(*mut bindings::hrtimer) -> bool,
    period_ns: AtomicU64,
    handler: Arc<T>,
}

// SAFETY: The hrtimer core serialises starting, cancelling and running the timer; the handler is
// `Send + Sync`.
unsafe impl<T: TimerHandler> Send for Timer<T> {}
// SAFETY: As above; `&self` methods only call hrtimer functions, which lock internally.
unsafe impl<T: TimerHandler> Sync for Timer<T> {}

impl<T: TimerHandler> Timer<T> {
    /// A stopped timer calling `handler`.
    pub fn new(handler: Arc<T>) -> impl PinInit<Self> {
        pin_init!(Self {
            // SAFETY: The set-up initialises the timer in place, not queued; its function calls
            // `run` below, and only while the timer is inside this `Timer`.
            timer <- Opaque::ffi_init(|slot: *mut bindings::hrtimer| unsafe {
                compat::hrtimer_setup(
                    slot,
                    bindings::ru_hrtimer_function,
                    bindings::CLOCK_MONOTONIC as i32,
                    MODE,
                );
            }),
            run: Self::run,
            period_ns: AtomicU64::new(0),
            handler,
        })
    }

    /// Starts (or restarts) the timer on the current CPU, firing every
    /// `period_ns` nanoseconds. In NMI context (the timer base's lock may be
    /// held by the code the NMI interrupted): `EINVAL`, nothing started.
    pub fn start(&self, period_ns: u64) -> Result {
        if super::cpu::in_nmi() {
            return Err(EINVAL);
        }
        self.period_ns.store(period_ns, Ordering::Relaxed);
        let expiry = i64::try_from(period_ns).unwrap_or(i64::MAX);
        // SAFETY: The timer is initialised (type invariant) and pinned.
        unsafe { bindings::hrtimer_start_range_ns(self.timer.get(), expiry, 0, MODE) };
        Ok(())
    }

    /// Whether the timer is queued or its callback runs.
    pub fn is_active(&self) -> bool {
        // SAFETY: The timer is initialised (type invariant); `hrtimer_active` only reads it.
        unsafe { bindings::hrtimer_active(self.timer.get()) }
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
        unsafe { bindings::hrtimer_cancel(self.timer.get()) };
        Ok(())
    }

    /// The timer's function: whether it fires again.
    ///
    /// # Safety
    ///
    /// Called by the hrtimer core (through `ru_hrtimer_function`) with the
    /// timer of a live `Timer<T>`.
    unsafe fn run(timer: *mut bindings::hrtimer) -> bool {
        // SAFETY: `timer` is the `timer` field of a `Timer<T>` (the only timers with this
        // function), which `PinnedDrop` keeps alive until no callback runs.
        let this = unsafe { &*super::compat::container_of!(timer, Self, timer) };
        // SAFETY: A hard-interrupt timer's callback runs with interrupts off, for this call.
        if !this.handler.fire(&unsafe { IrqsOff::new() }) {
            return false;
        }
        let period = i64::try_from(this.period_ns.load(Ordering::Relaxed)).unwrap_or(i64::MAX);
        // SAFETY: The timer is running its own callback, the one context where it may be
        // forwarded; `ktime_get` is what `hrtimer_forward_now` reads for a monotonic timer.
        unsafe { bindings::hrtimer_forward(timer, bindings::ktime_get(), period) };
        true
    }
}

#[pinned_drop]
impl<T: TimerHandler> PinnedDrop for Timer<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: The timer is initialised (type invariant). Its callback holds no reference
        // that could drop it (`run` borrows it), so this is not the callback.
        unsafe { bindings::hrtimer_cancel(self.timer.get()) };
    }
}

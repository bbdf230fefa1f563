// SPDX-License-Identifier: GPL-2.0

//! The contexts perf calls a PMU's callbacks in, as the tokens the callbacks receive.
//!
//! - `event_init`: no token; process context, may sleep.
//! - `add`, `del`, `enable`, `disable`: [`LocalInterruptDisabled`]; interrupts off, on the CPU
//!   the change is for, under that CPU context's raw lock; never NMI.
//! - `start`, `stop`: [`StartStopContext`]; on the event's CPU, no sleeping; maybe NMI, maybe
//!   interrupts on.
//! - `read`: [`ReadContext`]; interrupts off, no sleeping; maybe NMI, maybe another CPU.
//!
//! `start` and `stop` are called from perf's scheduling paths with interrupts off, and also
//! from where perf throttles and unthrottles a group (`perf_event_throttle_group()`,
//! `perf_event_unthrottle_group()`): the overflow of any member of the event's group throttles
//! all of them, in an NMI when that member is a hardware event with an NMI, in task context with
//! interrupts on when it is a software event counted there (page faults, say); the tick
//! unthrottles them. `read` is called with interrupts off, from a cross-CPU call or a local read
//! (`perf_event_read_local()`, BPF's), and from the output of a sample
//! (`perf_output_read_group()`), in an NMI for a hardware event's sample.
//!
//! Neither token licenses what is not NMI-safe: an interrupt-disabling lock (a `SpinLockIrq`
//! takes a `&LocalInterruptDisabled`, which they do not give), the timekeeping clocks behind
//! `kernel::time::Instant` (`ktime_get()` can spin forever when an NMI interrupts its update), or
//! anything that may sleep. Both give the NMI-safe monotonic clock.
//!
//! C header: [`include/linux/perf_event.h`](srctree/include/linux/perf_event.h)

use crate::{bindings, interrupt::LocalInterruptDisabled};
use core::marker::PhantomData;

/// The context of [`Pmu::read`](super::Pmu::read): interrupts off, possibly NMI.
///
/// The CPU is the event's or, for an event of a PMU that lets other CPUs read
/// ([`Pmu::READ_IN_PACKAGE`](super::Pmu::READ_IN_PACKAGE), or a
/// [`Scope`](super::Scope)), another CPU of the event's package or scope. It is neither `Send`
/// nor `Sync`, and only lent for the call.
///
/// # Invariants
///
/// Interrupts are off on the CPU that runs the callback, for as long as the reference lives; the
/// callback may run in NMI context.
///
/// # Examples
///
/// ```
/// use kernel::perf::{Event, Pmu, ReadContext};
///
/// // The count of an event whose counter is a clock: NMI-safe, as `read` must be.
/// fn read<T: Pmu>(event: &Event<T>, ctx: &ReadContext) {
///     let now = ctx.mono_fast_ns();
///     let prev = event.prev_count_xchg(now);
///     event.count_add(now.saturating_sub(prev));
/// }
/// ```
pub struct ReadContext(PhantomData<*mut ()>);

impl ReadContext {
    /// Returns the token for the running `read` callback.
    ///
    /// # Safety
    ///
    /// Interrupts must be off on this CPU for `'a`, and the reference must not outlive the
    /// callback.
    pub(super) unsafe fn assume<'a>() -> &'a Self {
        const READ: &ReadContext = &ReadContext(PhantomData);
        // SAFETY: By the function's safety requirements, interrupts are off for `'a`; the proof
        // is only made for its assertion under lockdep (`lockdep_assert_irqs_disabled()`, which
        // is NMI-safe) and not kept.
        let _ = unsafe { LocalInterruptDisabled::assume_disabled() };
        // INVARIANT: By the function's safety requirements.
        READ
    }

    /// Returns the monotonic clock in nanoseconds, as `ktime_get_mono_fast_ns()` reads it: safe
    /// in NMI, where `kernel::time::Instant::now()` is not.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::ReadContext;
    ///
    /// fn since(ctx: &ReadContext, start: u64) -> u64 {
    ///     ctx.mono_fast_ns().saturating_sub(start)
    /// }
    /// ```
    pub fn mono_fast_ns(&self) -> u64 {
        mono_fast_ns()
    }
}

/// The context of [`Pmu::start`](super::Pmu::start) and [`Pmu::stop`](super::Pmu::stop): on the
/// event's CPU without sleeping, possibly in NMI, possibly with interrupts on.
///
/// It is neither `Send` nor `Sync`, and only lent for the call; `add` and `del`, which run with
/// interrupts off, can make one from their [`LocalInterruptDisabled`] to start or stop the event
/// themselves ([`StartStopContext::from_irqs_off`]).
///
/// # Invariants
///
/// The code runs on one CPU without sleeping for as long as the reference lives; it may run in
/// NMI context, and interrupts may be on.
///
/// # Examples
///
/// ```
/// use kernel::perf::{Event, HwState, HwStates, Pmu, StartStopContext};
///
/// // `start` for an event whose counter is a clock.
/// fn start<T: Pmu>(event: &Event<T>, ctx: &StartStopContext) {
///     event.prev_count_set(ctx.mono_fast_ns());
///     event.set_state(HwStates::empty());
/// }
/// # let _ = HwState::Stopped;
/// ```
pub struct StartStopContext(PhantomData<*mut ()>);

/// The one value of [`StartStopContext`], which carries no data.
const START_STOP: &StartStopContext = &StartStopContext(PhantomData);

impl StartStopContext {
    /// Returns the token for the running `start` or `stop` callback.
    ///
    /// # Safety
    ///
    /// The caller must run on one CPU without sleeping for `'a`, and the reference must not
    /// outlive the callback.
    pub(super) unsafe fn assume<'a>() -> &'a Self {
        // INVARIANT: By the function's safety requirements.
        START_STOP
    }

    /// Returns the token for code that runs with interrupts off, for as long as `irq` is
    /// borrowed: `add` starting its event, `del` stopping it.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::interrupt::LocalInterruptDisabled;
    /// use kernel::perf::{Event, EventFlag, EventFlags, Pmu, StartStopContext};
    ///
    /// // `add` with `PERF_EF_START` is `add` and then `start`.
    /// fn add<T: Pmu>(pmu: &T, event: &Event<T>, flags: EventFlags, irq: &LocalInterruptDisabled) {
    ///     if flags.contains(EventFlag::Start) {
    ///         pmu.start(event, flags, StartStopContext::from_irqs_off(irq));
    ///     }
    /// }
    /// ```
    pub fn from_irqs_off(_irq: &LocalInterruptDisabled) -> &Self {
        // INVARIANT: With interrupts off the code stays on its CPU and cannot sleep, for as
        // long as `irq` is borrowed, which bounds the result's life.
        START_STOP
    }

    /// Returns the monotonic clock in nanoseconds, as [`ReadContext::mono_fast_ns`] does.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::StartStopContext;
    ///
    /// fn stamp(ctx: &StartStopContext) -> u64 {
    ///     ctx.mono_fast_ns()
    /// }
    /// ```
    pub fn mono_fast_ns(&self) -> u64 {
        mono_fast_ns()
    }
}

/// `ktime_get_mono_fast_ns()`.
fn mono_fast_ns() -> u64 {
    // SAFETY: `ktime_get_mono_fast_ns()` reads the monotonic clock in any context, NMI
    // included; it takes no arguments.
    unsafe { bindings::ktime_get_mono_fast_ns() }
}

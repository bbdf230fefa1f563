// SPDX-License-Identifier: GPL-2.0

//! The PMU trait and its registration.
//!
//! C header: [`include/linux/perf_event.h`](srctree/include/linux/perf_event.h)

use super::{
    attr::{Attr, AttrGroups},
    context::{ReadContext, StartStopContext},
    event::{Event, NewEvent},
    Capabilities, Capability, EventFlags, Scope, TaskContext,
};
use crate::{
    bindings,
    cpu::CpuId,
    cpumask::Cpumask,
    device::{Bound, Device},
    devres,
    error::{from_result, to_result, VTABLE_DEFAULT_ERROR},
    interrupt::LocalInterruptDisabled,
    prelude::*,
    str::CString,
    types::{ForeignOwnable, Opaque}, //
};
use core::marker::PhantomData;

/// The callbacks of a PMU (`struct pmu`).
///
/// Each callback gets the token of the context perf calls it in:
/// `event_init` none (process context); `add`, `del`, `enable` and `disable`
/// `&LocalInterruptDisabled` (interrupts off, on the event's CPU or, for `enable` and `disable`,
/// the CPU the batch of changes is for; never NMI); `start` and `stop` a [`StartStopContext`]
/// (on the event's CPU, but also from perf's throttling of the event's group, which may be in
/// NMI or with interrupts on); `read` a [`ReadContext`] (interrupts off, possibly NMI, on the
/// event's CPU or, for a PMU that lets other CPUs read, another CPU of its package or scope).
/// Only the token of `add`, `del`, `enable` and `disable` licenses interrupt-disabling locks.
/// (On PREEMPT_RT a `SpinLockIrq` sleeps, which perf's raw context lock does not allow there.)
///
/// `enable` and `disable` bracket a batch of `add`, `del`, `start` and `stop` calls on one CPU;
/// they nest (only the outermost pair reaches the PMU), and perf may call them with none of the
/// PMU's events on that CPU.
///
/// The abstraction has no overflow interrupt to offer a PMU: every PMU has
/// `PERF_PMU_CAP_NO_INTERRUPT`, and perf refuses sampling events before `event_init`.
///
/// # Examples
///
/// A PMU that counts the nanoseconds its events run for. As perf requires, `add` without
/// [`EventFlag::Start`](super::EventFlag::Start) leaves the event stopped, `del` brings its count
/// up to date, and a stopped event does not count.
///
/// ```
/// use kernel::interrupt::LocalInterruptDisabled;
/// use kernel::perf::{
///     Event, EventFlag, EventFlags, HwState, HwStates, NewEvent, Pmu, ReadContext,
///     StartStopContext, TaskContext,
/// };
/// use kernel::prelude::*;
///
/// struct Clock;
///
/// impl Clock {
///     fn update(ev: &Event<Self>, now: u64) {
///         let prev = ev.prev_count_xchg(now);
///         ev.count_add(now.saturating_sub(prev));
///     }
/// }
///
/// #[vtable]
/// impl Pmu for Clock {
///     const CAPABILITIES: kernel::perf::Capabilities = kernel::perf::Capabilities::empty();
///     const TASK_CONTEXT: TaskContext = TaskContext::Software;
///     type EventData = ();
///
///     fn event_init(&self, event: &mut NewEvent<Self>) -> Result<()> {
///         if event.config().config != 0 {
///             return Err(EINVAL);
///         }
///         Ok(())
///     }
///
///     fn add(&self, ev: &Event<Self>, flags: EventFlags, irq: &LocalInterruptDisabled) -> Result {
///         ev.set_state(HwState::Stopped | HwState::UpToDate);
///         if flags.contains(EventFlag::Start) {
///             self.start(ev, flags, StartStopContext::from_irqs_off(irq));
///         }
///         Ok(())
///     }
///
///     fn del(&self, ev: &Event<Self>, _flags: EventFlags, irq: &LocalInterruptDisabled) {
///         let ctx = StartStopContext::from_irqs_off(irq);
///         self.stop(ev, EventFlag::Update.into(), ctx);
///     }
///
///     fn start(&self, ev: &Event<Self>, _flags: EventFlags, ctx: &StartStopContext) {
///         ev.prev_count_set(ctx.mono_fast_ns());
///         ev.set_state(HwStates::empty());
///     }
///
///     fn stop(&self, ev: &Event<Self>, _flags: EventFlags, ctx: &StartStopContext) {
///         if !ev.state().contains(HwState::Stopped) {
///             Self::update(ev, ctx.mono_fast_ns());
///         }
///         ev.set_state(HwState::Stopped | HwState::UpToDate);
///     }
///
///     fn read(&self, ev: &Event<Self>, ctx: &ReadContext) {
///         if !ev.state().contains(HwState::Stopped) {
///             Self::update(ev, ctx.mono_fast_ns());
///         }
///     }
/// }
/// # // The contract, through perf: a counter on CPU 0 opened disabled counts nothing, counts
/// # // while enabled (`add`), is brought up to date when disabled (`del`) and stays put while
/// # // off, then counts on from there when enabled again.
/// # use kernel::{bindings, error::from_err_ptr, perf::Registration};
/// # let pmu = KBox::pin_init(
/// #     Registration::new::<core::convert::Infallible>(
/// #         kernel::module::this_module::<crate::LocalModule>(),
/// #         c"rust_doctest_clock",
/// #         Clock,
/// #         &[],
/// #         &[],
/// #     ),
/// #     GFP_KERNEL,
/// # )?;
/// # let mut attr = bindings::perf_event_attr {
/// #     type_: pmu.pmu_type(),
/// #     size: core::mem::size_of::<bindings::perf_event_attr>() as u32,
/// #     ..Default::default()
/// # };
/// # attr.set_disabled(1);
/// # let (task, context) = (core::ptr::null_mut(), core::ptr::null_mut());
/// # // SAFETY: `attr` is valid for the call, which copies it; no task, handler or context.
/// # let ev = unsafe {
/// #     bindings::perf_event_create_kernel_counter(&mut attr, 0, task, None, context)
/// # };
/// # let ev = from_err_ptr(ev)?;
/// # let count = || {
/// #     let (mut enabled, mut running) = (0, 0);
/// #     // SAFETY: `ev` is the counter opened above, released at the end.
/// #     unsafe { bindings::perf_event_read_value(ev, &mut enabled, &mut running) }
/// # };
/// # let spin = |ns: u64| {
/// #     // SAFETY: No precondition; NMI-safe.
/// #     let end = unsafe { bindings::ktime_get_mono_fast_ns() } + ns;
/// #     // SAFETY: As above.
/// #     while unsafe { bindings::ktime_get_mono_fast_ns() } < end {}
/// # };
/// # assert_eq!(count(), 0);
/// # // SAFETY: As in `count`.
/// # unsafe { bindings::perf_event_enable(ev) };
/// # spin(2_000_000);
/// # // SAFETY: As in `count`.
/// # unsafe { bindings::perf_event_disable(ev) };
/// # let off = count();
/// # assert!(off >= 2_000_000);
/// # spin(2_000_000);
/// # assert_eq!(count(), off);
/// # // SAFETY: As in `count`.
/// # unsafe { bindings::perf_event_enable(ev) };
/// # spin(2_000_000);
/// # assert!(count() >= off + 2_000_000);
/// # // SAFETY: As in `count`; the counter is not used afterwards.
/// # unsafe { bindings::perf_event_release_kernel(ev) };
/// # Ok::<(), Error>(())
/// ```
#[vtable]
pub trait Pmu: Send + Sync + Sized + 'static {
    /// What the PMU can do, or cannot (`pmu->capabilities`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Capabilities, Capability};
    ///
    /// // A PMU without an overflow interrupt, which cannot filter by privilege level.
    /// const CAPABILITIES: Capabilities = Capabilities::empty()
    ///     .with(Capability::NoInterrupt)
    ///     .with(Capability::NoExclude);
    /// assert!(CAPABILITIES.contains(Capability::NoExclude));
    /// ```
    const CAPABILITIES: Capabilities;

    /// Where the PMU's per-task events are scheduled (`pmu->task_ctx_nr`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::TaskContext;
    ///
    /// // A PMU of counters shared by every task on a CPU: CPU-wide events only.
    /// const TASK_CONTEXT: TaskContext = TaskContext::Invalid;
    /// # let _ = TASK_CONTEXT;
    /// ```
    const TASK_CONTEXT: TaskContext;

    /// The CPUs one of the PMU's counters serves (`pmu->scope`); a PMU with a scope other than
    /// [`Scope::None`] has no [`Pmu::cpumask`] of its own.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::Scope;
    ///
    /// // One counter block per package: perf keeps one CPU of each in `cpumask`.
    /// const SCOPE: Scope = Scope::Package;
    /// # let _ = SCOPE;
    /// ```
    const SCOPE: Scope = Scope::None;

    /// Whether any CPU of the package of an event's CPU may read the event while it counts
    /// (`PERF_EV_CAP_READ_ACTIVE_PKG` on every event of the PMU): [`Pmu::read`] may then run on
    /// those CPUs, as it may on the CPUs of a [`Scope`].
    ///
    /// For such a PMU, and one with a scope, [`Event::count_add`] is an atomic add that other
    /// CPUs' adds cannot lose; otherwise it is `local64_add()`, atomic on the event's CPU only.
    ///
    /// # Examples
    ///
    /// ```
    /// // Counters of a package-wide block, which every CPU of the package can read.
    /// const READ_IN_PACKAGE: bool = true;
    /// # let _ = READ_IN_PACKAGE;
    /// ```
    const READ_IN_PACKAGE: bool = false;

    /// What the PMU keeps for each of its events: [`Pmu::event_init`] returns it, every later
    /// callback borrows it ([`Event::data`]).
    /// What the PMU keeps for each of its events, as the pointer perf holds for it
    /// (`event->pmu_private`): [`Pmu::event_init`] returns it, every later callback borrows it
    /// ([`Event::data`], [`GroupMember::data`](super::GroupMember::data)) and [`Pmu::destroy`]
    /// gets it back. A `KBox` gives each event data of its own, an `Arc` lets events share one
    /// object (as C PMUs share a counter box through `pmu_private`), `()` keeps nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    /// use kernel::prelude::*;
    /// use kernel::sync::Arc;
    ///
    /// // The counter box every event of one unit uses: `event_init` returns a reference to it.
    /// struct CounterBox {
    ///     base: u32,
    /// }
    ///
    /// fn event_init(unit: &Arc<CounterBox>) -> Result<Arc<CounterBox>> {
    ///     Ok(unit.clone())
    /// }
    ///
    /// fn base<T: Pmu<EventData = Arc<CounterBox>>>(event: &Event<T>) -> u32 {
    ///     event.data().base
    /// }
    ///
    /// let unit = Arc::new(CounterBox { base: 0xc10 }, GFP_KERNEL)?;
    /// let data = event_init(&unit)?;
    /// assert!(Arc::ptr_eq(&unit, &data));
    /// # Ok::<(), Error>(())
    /// ```
    type EventData: ForeignOwnable + Send + Sync;

    /// Checks a new event of this PMU and returns its data.
    ///
    /// It only sees events opened for this PMU (`attr.type` is its type): the abstraction
    /// answers `ENOENT` for the others, so that perf offers them to other PMUs. An `ENOENT`
    /// returned from here becomes `EINVAL` (perf would otherwise look for another PMU for an
    /// event that is this one's).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{NewEvent, Pmu};
    /// use kernel::prelude::*;
    ///
    /// // The usual checks, for a PMU whose event code is `config:0-7`.
    /// fn event_init<T: Pmu>(event: &mut NewEvent<T>) -> Result<u8> {
    ///     if event.is_per_task() || event.cpu().is_none() {
    ///         return Err(EINVAL);
    ///     }
    ///     u8::try_from(event.config().config).map_err(|_| EINVAL)
    /// }
    /// ```
    fn event_init(&self, event: &mut NewEvent<Self>) -> Result<Self::EventData>;

    /// Takes back an event's data when perf destroys the event (`event->destroy`): once per
    /// event whose [`Pmu::event_init`] succeeded, after the event's last other callback, also
    /// when perf fails the event after `event_init` or revokes it while the PMU unregisters.
    /// Without it the data is dropped. Process context.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::sync::atomic::{AtomicU32, Ordering};
    /// use kernel::prelude::*;
    /// use kernel::sync::Arc;
    ///
    /// // A counter box shared by its events: the last one to go switches it off.
    /// struct CounterBox {
    ///     users: AtomicU32,
    /// }
    ///
    /// fn destroy(data: Arc<CounterBox>) -> bool {
    ///     data.users.fetch_sub(1, Ordering::Relaxed) == 1
    /// }
    ///
    /// let unit = Arc::new(CounterBox { users: AtomicU32::new(2) }, GFP_KERNEL)?;
    /// assert!(!destroy(unit.clone()));
    /// assert!(destroy(unit));
    /// # Ok::<(), Error>(())
    /// ```
    fn destroy(&self, _data: Self::EventData) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Schedules the event on a counter, and starts it if `flags` has
    /// [`Start`](super::EventFlag::Start).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, EventFlag, EventFlags, HwState, Pmu};
    ///
    /// // The bookkeeping of `add`, for a PMU with one counter per event.
    /// fn add<T: Pmu>(event: &Event<T>, flags: EventFlags) -> bool {
    ///     event.set_state(HwState::Stopped | HwState::UpToDate);
    ///     flags.contains(EventFlag::Start)
    /// }
    /// ```
    fn add(&self, event: &Event<Self>, flags: EventFlags, irq: &LocalInterruptDisabled) -> Result;

    /// Stops the event (updating its count) and takes it off its counter.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, EventFlag, EventFlags, Pmu, StartStopContext};
    /// use kernel::interrupt::LocalInterruptDisabled;
    ///
    /// // `del` usually stops the event with an update, then frees its counter.
    /// fn del<T: Pmu>(pmu: &T, event: &Event<T>, irq: &LocalInterruptDisabled) {
    ///     let ctx = StartStopContext::from_irqs_off(irq);
    ///     pmu.stop(event, EventFlags::from(EventFlag::Update), ctx);
    /// }
    /// ```
    fn del(&self, event: &Event<Self>, flags: EventFlags, irq: &LocalInterruptDisabled);

    /// Starts counting.
    ///
    /// Besides `add`'s, perf calls it from the tick and from a period change, to start a
    /// throttled group again (see [`StartStopContext`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, HwStates, Pmu};
    ///
    /// // `start` records the counter's value and marks the event running.
    /// fn start<T: Pmu>(event: &Event<T>, counter: u64) {
    ///     event.prev_count_set(counter);
    ///     event.set_state(HwStates::empty());
    /// }
    /// ```
    fn start(&self, event: &Event<Self>, flags: EventFlags, ctx: &StartStopContext);

    /// Stops counting, updating the count if `flags` has [`Update`](super::EventFlag::Update).
    ///
    /// Besides `del`'s, perf calls it without `Update` to throttle the event's group when one of
    /// its members overflowed too often: in NMI for a hardware event, with interrupts on for a
    /// software event counted in task context (see [`StartStopContext`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, EventFlag, EventFlags, HwState, Pmu};
    ///
    /// // `stop` brings the count up to date once, then marks the event stopped.
    /// fn stop<T: Pmu>(event: &Event<T>, flags: EventFlags, counter: u64) {
    ///     if flags.contains(EventFlag::Update) && !event.state().contains(HwState::UpToDate) {
    ///         let prev = event.prev_count_xchg(counter);
    ///         event.count_add(counter.wrapping_sub(prev));
    ///     }
    ///     event.set_state(HwState::Stopped | HwState::UpToDate);
    /// }
    /// ```
    fn stop(&self, event: &Event<Self>, flags: EventFlags, ctx: &StartStopContext);

    /// Updates the event's count from its counter.
    ///
    /// It may run in NMI (a sample of a group with a hardware event, `perf_event_read_local()`):
    /// only NMI-safe code, which the [`ReadContext`] token is made for.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// // A 48-bit counter: the difference is taken modulo its width.
    /// fn read<T: Pmu>(event: &Event<T>, counter: u64) {
    ///     let prev = event.prev_count_xchg(counter);
    ///     event.count_add(counter.wrapping_sub(prev) & ((1 << 48) - 1));
    /// }
    /// ```
    fn read(&self, event: &Event<Self>, ctx: &ReadContext);

    /// Lets the PMU's counters on this CPU run after a batch of changes (`pmu_enable`).
    ///
    /// A PMU implements both [`Pmu::enable`] and [`Pmu::disable`] or neither: perf calls
    /// `pmu_disable` whenever the PMU has a `pmu_enable`, so a PMU with only one of them fails
    /// to build.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::sync::atomic::{AtomicBool, Ordering};
    ///
    /// // A global enable bit, set again once the batch is done.
    /// fn enable(global: &AtomicBool) {
    ///     global.store(true, Ordering::Relaxed);
    /// }
    /// # enable(&AtomicBool::new(false));
    /// ```
    fn enable(&self, _irq: &LocalInterruptDisabled) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Stops the PMU's counters on this CPU before a batch of changes (`pmu_disable`).
    ///
    /// Implemented together with [`Pmu::enable`], or not at all.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::sync::atomic::{AtomicBool, Ordering};
    ///
    /// // A global enable bit, cleared while perf changes the PMU's events.
    /// fn disable(global: &AtomicBool) {
    ///     global.store(false, Ordering::Relaxed);
    /// }
    /// # disable(&AtomicBool::new(true));
    /// ```
    fn disable(&self, _irq: &LocalInterruptDisabled) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }

    /// Sets in `mask`, empty on entry, the CPUs the PMU's `cpumask` file shows, for a PMU
    /// without a [`Scope`]: the CPUs its CPU-wide events should be opened on. It runs each time
    /// the file is read, in process context, so the file shows the CPUs as the PMU's hotplug
    /// callbacks last chose them, under whatever lock the PMU keeps them. A PMU without it has
    /// no such file.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::cpu::CpuId;
    /// use kernel::cpumask::{Cpumask, CpumaskVar};
    /// use kernel::prelude::*;
    /// use kernel::sync::{new_mutex, Mutex};
    ///
    /// // The CPU that reads the counters, which the PMU's CPU hotplug callbacks change.
    /// fn cpumask(reader: &Mutex<Option<CpuId>>, mask: &mut Cpumask) {
    ///     if let Some(cpu) = *reader.lock() {
    ///         mask.set(cpu);
    ///     }
    /// }
    ///
    /// let reader = KBox::pin_init(new_mutex!(CpuId::from_u32(0)), GFP_KERNEL)?;
    /// let mut mask = CpumaskVar::new_zero(GFP_KERNEL)?;
    /// cpumask(&reader, &mut mask);
    /// assert_eq!(mask.weight(), 1);
    /// # Ok::<(), Error>(())
    /// ```
    fn cpumask(&self, _mask: &mut Cpumask) {
        build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// The `struct pmu` callbacks of a [`Registration<T>`].
pub(super) struct Adapter<T: Pmu>(PhantomData<T>);

impl<T: Pmu> Adapter<T> {
    /// Returns the PMU object of a registration's `struct pmu`.
    ///
    /// # Safety
    ///
    /// `pmu` must be the `struct pmu` of a live [`Registration<T>`], which must outlive `'a`.
    pub(super) unsafe fn ops<'a>(pmu: *mut bindings::pmu) -> &'a T {
        let pmu = pmu.cast::<Opaque<bindings::pmu>>();
        // SAFETY: By the function's safety requirements, `pmu` is the `pmu` field of a
        // `Registration<T>`.
        let registration = unsafe { crate::container_of!(pmu, Registration<T>, pmu) };
        // SAFETY: By the function's safety requirements, the registration is live (and pinned)
        // for `'a`.
        unsafe { &(*registration).ops }
    }

    /// Returns the PMU object and the event of a callback other than `event_init`.
    ///
    /// # Safety
    ///
    /// `ev` must be the event perf passed to the running callback of a registered `T` PMU, and
    /// the references must not outlive that callback.
    unsafe fn parts<'a>(ev: *mut bindings::perf_event) -> (&'a T, &'a Event<T>) {
        // SAFETY: By the function's safety requirements, the event is live for `'a` and its `pmu`
        // is the registration's.
        let ops = unsafe { Self::ops((*ev).pmu) };
        // SAFETY: As above; its `event_init` succeeded (perf calls no other callback otherwise).
        let ev = unsafe { Event::from_raw(ev) };
        (ops, ev)
    }

    /// # Safety
    ///
    /// Called by perf with a new event whose `pmu` is a [`Registration<T>`]'s.
    unsafe extern "C" fn event_init_callback(ev: *mut bindings::perf_event) -> c_int {
        from_result(|| {
            // SAFETY: perf calls `event_init` with a live event, whose `pmu` it set.
            let pmu = unsafe { (*ev).pmu };
            // SAFETY: That `pmu` is this PMU's, registered, for the call.
            let ops = unsafe { Self::ops(pmu) };
            // SAFETY: perf calls `event_init` with an event not yet published, for the call.
            let new = unsafe { NewEvent::from_raw(ev) };
            // perf offers raw and hardware events to every PMU until one takes them.
            if !new.is_for_this_pmu() {
                return Err(ENOENT);
            }
            // An `ENOENT` would make perf look for another PMU for an event that is this one's.
            let data = ops
                .event_init(new)
                .map_err(|e| if e == ENOENT { EINVAL } else { e })?
                .into_foreign();
            if T::READ_IN_PACKAGE {
                new.set_readable_in_package();
            }
            // INVARIANT: From here the event's `pmu_private` holds its data, which its `destroy`
            // takes back: perf calls `destroy` once for an event whose `event_init` succeeded,
            // whether it fails later, is freed or is revoked.
            // SAFETY: The event is not yet published: nothing else uses the field.
            unsafe { (*ev).pmu_private = data };
            // SAFETY: As above.
            unsafe { (*ev).destroy = Some(Self::destroy_callback) };
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by perf once for an event of a [`Registration<T>`] whose `event_init` succeeded.
    unsafe extern "C" fn destroy_callback(ev: *mut bindings::perf_event) {
        // SAFETY: perf passes a live event; no other callback of it runs from now on.
        let private = unsafe { (*ev).pmu_private };
        // SAFETY: As above; the event no longer points to the data taken back below.
        unsafe { (*ev).pmu_private = core::ptr::null_mut() };
        // SAFETY: `private` is what `into_foreign` returned in `event_init`; no borrow of it
        // remains (callbacks borrow it for their call only) and this is its one `from_foreign`.
        let data = unsafe { T::EventData::from_foreign(private) };
        if T::HAS_DESTROY {
            // SAFETY: The event's `pmu` is still this PMU's, registered (`perf_pmu_unregister()`
            // destroys the events it revokes before it returns).
            let pmu = unsafe { (*ev).pmu };
            // SAFETY: As above.
            unsafe { Self::ops(pmu) }.destroy(data);
        } else {
            drop(data);
        }
    }

    /// # Safety
    ///
    /// Called by perf with an event of a [`Registration<T>`], with interrupts off, on the
    /// event's CPU (`event_sched_in()`, under the context's raw lock).
    unsafe extern "C" fn add_callback(ev: *mut bindings::perf_event, flags: c_int) -> c_int {
        from_result(|| {
            // SAFETY: perf calls `add` with an event of this PMU, live for the call, whose
            // `event_init` succeeded.
            let (ops, ev) = unsafe { Self::parts(ev) };
            // SAFETY: perf calls `add` with interrupts off, for the call.
            let irq = unsafe { LocalInterruptDisabled::assume_disabled() };
            ops.add(ev, EventFlags::from_raw(flags), irq)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by perf with an event of a [`Registration<T>`], with interrupts off, on the
    /// event's CPU (`event_sched_out()`, under the context's raw lock).
    unsafe extern "C" fn del_callback(ev: *mut bindings::perf_event, flags: c_int) {
        // SAFETY: As in `add_callback`.
        let (ops, ev) = unsafe { Self::parts(ev) };
        // SAFETY: perf calls `del` with interrupts off, for the call.
        let irq = unsafe { LocalInterruptDisabled::assume_disabled() };
        ops.del(ev, EventFlags::from_raw(flags), irq);
    }

    /// # Safety
    ///
    /// Called by perf with an event of a [`Registration<T>`], on the event's CPU without
    /// sleeping (in NMI, with interrupts on or off: see [`StartStopContext`]).
    unsafe extern "C" fn start_callback(ev: *mut bindings::perf_event, flags: c_int) {
        // SAFETY: As in `add_callback`.
        let (ops, ev) = unsafe { Self::parts(ev) };
        // SAFETY: perf calls `start` on one CPU, without sleeping, for the call.
        let ctx = unsafe { StartStopContext::assume() };
        ops.start(ev, EventFlags::from_raw(flags), ctx);
    }

    /// # Safety
    ///
    /// Called by perf with an event of a [`Registration<T>`], as `start_callback`.
    unsafe extern "C" fn stop_callback(ev: *mut bindings::perf_event, flags: c_int) {
        // SAFETY: As in `add_callback`.
        let (ops, ev) = unsafe { Self::parts(ev) };
        // SAFETY: perf calls `stop` on one CPU, without sleeping, for the call.
        let ctx = unsafe { StartStopContext::assume() };
        ops.stop(ev, EventFlags::from_raw(flags), ctx);
    }

    /// # Safety
    ///
    /// Called by perf with an event of a [`Registration<T>`], with interrupts off, possibly in
    /// NMI (see [`ReadContext`]).
    unsafe extern "C" fn read_callback(ev: *mut bindings::perf_event) {
        // SAFETY: As in `add_callback`.
        let (ops, ev) = unsafe { Self::parts(ev) };
        // SAFETY: perf reads with interrupts off (a cross-CPU call, a local read with interrupts
        // saved, or an NMI), for the call.
        let ctx = unsafe { ReadContext::assume() };
        ops.read(ev, ctx);
    }

    /// # Safety
    ///
    /// Called by perf with the `struct pmu` of a [`Registration<T>`], with interrupts off.
    unsafe extern "C" fn enable_callback(pmu: *mut bindings::pmu) {
        // SAFETY: perf passes this PMU, registered for the call.
        let ops = unsafe { Self::ops(pmu) };
        // SAFETY: perf calls `pmu_enable` with interrupts off, for the call.
        let irq = unsafe { LocalInterruptDisabled::assume_disabled() };
        ops.enable(irq);
    }

    /// # Safety
    ///
    /// Called by perf with the `struct pmu` of a [`Registration<T>`], with interrupts off.
    unsafe extern "C" fn disable_callback(pmu: *mut bindings::pmu) {
        // SAFETY: perf passes this PMU, registered for the call.
        let ops = unsafe { Self::ops(pmu) };
        // SAFETY: perf calls `pmu_disable` with interrupts off, for the call.
        let irq = unsafe { LocalInterruptDisabled::assume_disabled() };
        ops.disable(irq);
    }

    /// Fails the build for a PMU with both a scope and a `cpumask` of its own.
    const ONE_CPUMASK: () = assert!(
        !T::HAS_CPUMASK || matches!(T::SCOPE, Scope::None),
        "a PMU with a scope gets its cpumask file from perf"
    );

    /// Fails the build for a PMU with `enable` but not `disable`, or the reverse: perf checks
    /// only `pmu_enable` when it registers a PMU and then calls `pmu_disable` too, and fills in
    /// both when `pmu_enable` is missing, which would discard a lone `disable`.
    const ENABLE_WITH_DISABLE: () = assert!(
        T::HAS_ENABLE == T::HAS_DISABLE,
        "a PMU implements both enable and disable, or neither"
    );

    /// The `struct pmu` of a `T` PMU owned by `module`, with these attribute groups, under the
    /// device `parent` (NULL: none).
    fn build(
        module: &'static ThisModule,
        groups: *mut *const bindings::attribute_group,
        parent: *mut bindings::device,
    ) -> bindings::pmu {
        let () = Self::ONE_CPUMASK;
        let () = Self::ENABLE_WITH_DISABLE;
        bindings::pmu {
            module: module.as_ptr(),
            parent,
            attr_groups: groups,
            task_ctx_nr: T::TASK_CONTEXT.as_raw(),
            // No overflow interrupt to offer: perf refuses sampling events for every PMU.
            capabilities: u32::from(T::CAPABILITIES.with(Capability::NoInterrupt)) as c_int,
            scope: T::SCOPE.as_raw(),
            event_init: Some(Self::event_init_callback),
            add: Some(Self::add_callback),
            del: Some(Self::del_callback),
            start: Some(Self::start_callback),
            stop: Some(Self::stop_callback),
            read: Some(Self::read_callback),
            pmu_enable: if T::HAS_ENABLE {
                Some(Self::enable_callback)
            } else {
                None
            },
            pmu_disable: if T::HAS_DISABLE {
                Some(Self::disable_callback)
            } else {
                None
            },
            ..Default::default()
        }
    }
}

impl EventFlags {
    /// The flags of a callback's `flags` argument, only the known ones kept.
    fn from_raw(flags: c_int) -> Self {
        let mut f = Self::empty();
        for flag in [
            super::EventFlag::Start,
            super::EventFlag::Reload,
            super::EventFlag::Update,
        ] {
            if flags as u32 & flag as u32 != 0 {
                f |= flag;
            }
        }
        f
    }
}

/// A registered PMU.
///
/// It owns its `struct pmu`, its name and sysfs attributes, and the PMU object `T` whose
/// callbacks perf runs, pinned with it (so `T` may hold locks, work items or timers inline);
/// dropping it unregisters the PMU, which revokes the PMU's remaining events
/// (`perf_pmu_unregister()`), and may sleep. A PMU of a device is registered with
/// [`Registration::new_foreign_owned`], under that device, until the device is unbound.
///
/// # Invariants
///
/// `pmu` is registered with perf, with `sysfs`'s name and attribute groups and `ops`'s
/// callbacks, from the end of its initialisation until it is dropped.
///
/// # Examples
///
/// ```
/// use kernel::interrupt::LocalInterruptDisabled;
/// use kernel::perf::{
///     Attr, Event, EventFlags, NewEvent, Pmu, ReadContext, Registration, StartStopContext,
///     TaskContext,
/// };
/// use kernel::prelude::*;
/// use kernel::sync::{new_mutex, Mutex};
///
/// // A PMU that takes two events at a time, counted under a mutex it holds inline.
/// #[pin_data]
/// struct Limited {
///     #[pin]
///     open: Mutex<u32>,
/// }
///
/// #[vtable]
/// impl Pmu for Limited {
///     const CAPABILITIES: kernel::perf::Capabilities = kernel::perf::Capabilities::empty();
///     const TASK_CONTEXT: TaskContext = TaskContext::Invalid;
///     type EventData = ();
///
///     fn event_init(&self, _event: &mut NewEvent<Self>) -> Result {
///         let mut open = self.open.lock();
///         if *open == 2 {
///             return Err(EBUSY);
///         }
///         *open += 1;
///         Ok(())
///     }
///
///     fn destroy(&self, _: ()) {
///         *self.open.lock() -= 1;
///     }
///
///     fn add(&self, _: &Event<Self>, _: EventFlags, _: &LocalInterruptDisabled) -> Result {
///         Ok(())
///     }
///
///     fn del(&self, _: &Event<Self>, _: EventFlags, _: &LocalInterruptDisabled) {}
///     fn start(&self, _: &Event<Self>, _: EventFlags, _: &StartStopContext) {}
///     fn stop(&self, _: &Event<Self>, _: EventFlags, _: &StartStopContext) {}
///     fn read(&self, _: &Event<Self>, _: &ReadContext) {}
/// }
///
/// let formats = [Attr { name: c"event", value: c"config:0-7" }];
/// let pmu = KBox::pin_init(
///     Registration::new(
///         kernel::module::this_module::<crate::LocalModule>(),
///         c"rust_doctest_pmu",
///         pin_init!(Limited { open <- new_mutex!(0) }),
///         &formats,
///         &[],
///     ),
///     GFP_KERNEL,
/// )?;
/// assert!(pmu.pmu_type() > 0);
/// assert_eq!(*pmu.ops().open.lock(), 0);
/// # // Kernel counters on CPU 0: two open, a third is refused, `destroy` counts them down.
/// # use kernel::{bindings, error::from_err_ptr};
/// # let attr = bindings::perf_event_attr {
/// #     type_: pmu.pmu_type(),
/// #     size: core::mem::size_of::<bindings::perf_event_attr>() as u32,
/// #     ..Default::default()
/// # };
/// # let open = || {
/// #     let attr = core::ptr::from_ref(&attr).cast_mut();
/// #     let (task, context) = (core::ptr::null_mut(), core::ptr::null_mut());
/// #     // SAFETY: `attr` is valid for the call, which copies it; no task, handler or context.
/// #     let ev = unsafe {
/// #         bindings::perf_event_create_kernel_counter(attr, 0, task, None, context)
/// #     };
/// #     from_err_ptr(ev)
/// # };
/// # let (a, b) = (open()?, open()?);
/// # assert_eq!(open().err(), Some(EBUSY));
/// # assert_eq!(*pmu.ops().open.lock(), 2);
/// # for event in [a, b] {
/// #     // SAFETY: `event` is a counter opened above, released once.
/// #     unsafe { bindings::perf_event_release_kernel(event) };
/// # }
/// # assert_eq!(*pmu.ops().open.lock(), 0);
/// # Ok::<(), Error>(())
/// ```
#[pin_data(PinnedDrop)]
pub struct Registration<T: Pmu> {
    sysfs: Sysfs,
    #[pin]
    ops: T,
    #[pin]
    pmu: Opaque<bindings::pmu>,
}

/// A PMU's name and attribute groups, which its `struct pmu` points to (both on the heap: moving
/// this does not move them).
struct Sysfs {
    name: CString,
    attrs: KBox<AttrGroups>,
}

// SAFETY: Dropping a registration from another thread than the one that made it is fine:
// `perf_pmu_register()` and `perf_pmu_unregister()` may be called from any thread (in process
// context). `T` is `Send` (a bound of `Pmu`); the name and attribute groups are owned heap data
// that only perf and sysfs read, the latter through the PMU's files, which the unregister
// removes before they are freed.
unsafe impl<T: Pmu> Send for Registration<T> {}

// SAFETY: A shared registration gives access to `ops` as `&T`, and `T` is `Sync` (a bound of
// `Pmu`); to the PMU's type, which perf sets in `perf_pmu_register()` and does not change
// afterwards; and to perf functions on the PMU that lock what they change. Perf's own accesses
// to the `struct pmu` and to the attribute groups are synchronised by perf and sysfs.
unsafe impl<T: Pmu> Sync for Registration<T> {}

impl<T: Pmu> Registration<T> {
    /// Registers a PMU named `name`, with these `format/` and `events/` files, driven by the
    /// object `ops` initialises in place (a value of `T` is an initialiser of itself).
    ///
    /// Nothing stays registered on error.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Attr, Pmu, Registration};
    /// use kernel::prelude::*;
    ///
    /// const FORMATS: &[Attr<'static>] = &[Attr { name: c"event", value: c"config:0-7" }];
    ///
    /// fn register<T: Pmu>(
    ///     module: &'static ThisModule,
    ///     ops: impl PinInit<T, Error>,
    /// ) -> impl PinInit<Registration<T>, Error> {
    ///     Registration::new(module, c"my_pmu", ops, FORMATS, &[])
    /// }
    /// ```
    pub fn new<E>(
        module: &'static ThisModule,
        name: &CStr,
        ops: impl PinInit<T, E>,
        formats: &[Attr<'_>],
        events: &[Attr<'_>],
    ) -> impl PinInit<Self, Error>
    where
        Error: From<E>,
    {
        Self::init(module, name, core::ptr::null_mut(), ops, formats, events)
    }

    /// Registers a PMU as [`Registration::new`] does, as a child of `parent` in sysfs
    /// (`pmu->parent`), and leaves the registration to the device: it is dropped, and the PMU
    /// unregistered, when the device is unbound from its driver (`devres`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::faux;
    /// use kernel::perf::{Pmu, Registration};
    /// use kernel::prelude::*;
    ///
    /// // A PMU under a faux device, unregistered when the device is.
    /// fn register<T: Pmu>(
    ///     module: &'static ThisModule,
    ///     dev: &faux::Registration,
    ///     ops: T,
    /// ) -> Result {
    ///     Registration::new_foreign_owned(dev.as_ref().as_ref(), module, c"my_pmu", ops, &[], &[])
    /// }
    /// ```
    pub fn new_foreign_owned<E>(
        parent: &Device<Bound>,
        module: &'static ThisModule,
        name: &CStr,
        ops: impl PinInit<T, E>,
        formats: &[Attr<'_>],
        events: &[Attr<'_>],
    ) -> Result
    where
        Error: From<E>,
    {
        let init = Self::init(module, name, parent.as_raw(), ops, formats, events);
        devres::register::<Self, Error>(parent, init, GFP_KERNEL)
    }

    /// Registers the PMU under the device `parent` (NULL: none), which must stay bound while
    /// the registration lives.
    fn init<E>(
        module: &'static ThisModule,
        name: &CStr,
        parent: *mut bindings::device,
        ops: impl PinInit<T, E>,
        formats: &[Attr<'_>],
        events: &[Attr<'_>],
    ) -> impl PinInit<Self, Error>
    where
        Error: From<E>,
    {
        let sysfs: Result<Sysfs> = CString::try_from(name)
            .map_err(|_| ENOMEM)
            .and_then(|name| {
                Ok(Sysfs {
                    name,
                    attrs: AttrGroups::new::<T>(formats, events)?,
                })
            });
        let (name_ptr, groups) = match &sysfs {
            Ok(s) => (s.name.as_char_ptr(), s.attrs.groups_ptr()),
            Err(_) => (core::ptr::null(), core::ptr::null_mut()),
        };
        try_pin_init!(Self {
            sysfs: sysfs?,
            // Before the PMU: its callbacks may run as soon as it is registered.
            ops <- ops,
            pmu <- Opaque::try_ffi_init(move |pmu: *mut bindings::pmu| -> Result {
                // SAFETY: `pmu` is the field's place, valid for writes.
                unsafe { pmu.write(Adapter::<T>::build(module, groups, parent)) };
                // SAFETY: `pmu` is initialised and pinned; `name_ptr` and `groups` point into
                // `sysfs`, initialised above and dropped only after the PMU is unregistered, or
                // with it if registering fails; `ops`, which the callbacks use, is initialised;
                // `parent` is NULL or a device the caller keeps bound, which perf takes a
                // reference to.
                to_result(unsafe { bindings::perf_pmu_register(pmu, name_ptr, -1) })?;
                // INVARIANT: The PMU is registered from here, with `sysfs`'s name and groups and
                // `ops`'s callbacks, the last step of the initialisation; only the drop
                // unregisters it.
                Ok(())
            }),
        }? Error)
    }

    /// Returns the PMU object, pinned with the registration.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Pmu, Registration};
    ///
    /// fn ops<T: Pmu>(pmu: &Registration<T>) -> &T {
    ///     pmu.ops()
    /// }
    /// ```
    pub fn ops(&self) -> &T {
        &self.ops
    }

    /// Returns the PMU's type: the `attr.type` of its events.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Pmu, Registration};
    ///
    /// fn dynamic<T: Pmu>(pmu: &Registration<T>) -> bool {
    ///     // Types above the generic ones (`PERF_TYPE_MAX`) are given at registration.
    ///     pmu.pmu_type() >= 6
    /// }
    /// ```
    pub fn pmu_type(&self) -> u32 {
        // SAFETY: The PMU is registered (type invariant); `perf_pmu_register()` set `type`,
        // which nothing changes afterwards.
        unsafe { (*self.pmu.get()).type_ as u32 }
    }

    /// Moves the PMU's events on CPU `from` to CPU `to` (`perf_pmu_migrate_context()`), for a
    /// PMU without a [`Scope`] when `from` goes offline, from a CPU hotplug callback for `from`
    /// (where `to` stays online meanwhile). `EINVAL` for one CPU twice (perf would take its
    /// context's mutex twice) or an offline `to` (perf would install the events where nothing
    /// runs them).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::cpu::CpuId;
    /// use kernel::perf::{Pmu, Registration};
    ///
    /// // In the PMU's CPU offline callback: its events follow the next reader.
    /// fn offline<T: Pmu>(pmu: &Registration<T>, cpu: CpuId, next: Option<CpuId>) {
    ///     if let Some(next) = next {
    ///         let _ = pmu.migrate(cpu, next);
    ///     }
    /// }
    /// ```
    pub fn migrate(&self, from: CpuId, to: CpuId) -> Result {
        // SAFETY: Reads the online mask; `to` is below `nr_cpu_ids`.
        if from == to || !unsafe { bindings::cpu_online(to.as_u32()) } {
            return Err(EINVAL);
        }
        // SAFETY: The PMU is registered (type invariant); perf locks both CPUs' contexts.
        unsafe { bindings::perf_pmu_migrate_context(self.pmu.get(), from.into(), to.into()) };
        Ok(())
    }
}

#[pinned_drop]
impl<T: Pmu> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        // SAFETY: The PMU is registered (type invariant), without `event_unmapped`, so the
        // unregister cannot fail with `EBUSY`; a drop runs in process context. It removes the
        // sysfs files (waiting for their readers), waits for running callbacks and revokes the
        // remaining events (calling their `destroy`); afterwards nothing refers to the fields
        // dropped after this.
        let ret = unsafe { bindings::perf_pmu_unregister(self.pmu.get()) };
        crate::warn_on!(ret != 0);
    }
}

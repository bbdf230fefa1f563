// SPDX-License-Identifier: GPL-2.0

//! perf events as a PMU's callbacks see them.
//!
//! C header: [`include/linux/perf_event.h`](srctree/include/linux/perf_event.h)

use super::{pmu::Pmu, Scope};
use crate::{
    bindings,
    cpu::CpuId,
    impl_flags,
    prelude::*,
    types::{ForeignOwnable, Opaque}, //
};
use core::marker::PhantomData;

/// The configuration words of an event's attributes (`attr.config`, `attr.config1` and
/// `attr.config2`), which the PMU's `format/` files describe.
///
/// # Examples
///
/// ```
/// use kernel::perf::Config;
///
/// let c = Config { config: 0x34, ..Config::default() };
/// assert_eq!(c.config & 0xff, 0x34);
/// assert_eq!(c.config1, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Config {
    /// `attr.config`.
    pub config: u64,
    /// `attr.config1`.
    pub config1: u64,
    /// `attr.config2`.
    pub config2: u64,
}

/// Reads the configuration words of an event.
///
/// # Safety
///
/// `ev` must point to a live event.
unsafe fn config_of(ev: *mut bindings::perf_event) -> Config {
    // SAFETY: The caller guarantees that the event is live; perf does not change an event's
    // attributes after creating it.
    let attr = unsafe { &(*ev).attr };
    // SAFETY: The union holds plain integers; `config1` is the view a PMU reads.
    let config1 = unsafe { attr.__bindgen_anon_3.config1 };
    // SAFETY: As above, for `config2`.
    let config2 = unsafe { attr.__bindgen_anon_4.config2 };
    Config {
        config: attr.config,
        config1,
        config2,
    }
}

/// The identity of an event, to recognise it in a later callback.
///
/// It can only be compared: it is neither turned back into an event nor printed (it is made from
/// the event's address).
///
/// # Examples
///
/// ```
/// use kernel::perf::{Event, EventId, Pmu};
///
/// fn same<T: Pmu>(a: &Event<T>, b: EventId) -> bool {
///     a.id() == b
/// }
/// ```
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct EventId(usize);

impl_flags!(
    /// The state of an event's counter as its PMU records it (`hw.state`, `PERF_HES_*`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{HwState, HwStates};
    ///
    /// let s = HwState::Stopped | HwState::UpToDate;
    /// assert!(s.contains(HwState::UpToDate));
    /// assert!(!HwStates::empty().contains(HwState::Stopped));
    /// ```
    #[derive(Debug, Clone, Default, Copy, PartialEq, Eq)]
    pub struct HwStates(u32);

    /// One of the [`HwStates`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{HwState, HwStates};
    ///
    /// assert_eq!(u32::from(HwStates::from(HwState::Stopped)), 1);
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum HwState {
        /// The counter is stopped (`PERF_HES_STOPPED`).
        Stopped = bindings::PERF_HES_STOPPED,
        /// The event's count is up to date with the counter (`PERF_HES_UPTODATE`).
        UpToDate = bindings::PERF_HES_UPTODATE,
        /// For the architecture's use (`PERF_HES_ARCH`).
        Arch = bindings::PERF_HES_ARCH,
    }
);

/// An event of the PMU `T`, as its callbacks other than `event_init` receive it.
///
/// # Invariants
///
/// An `&Event<T>` is only made from the event perf passes to a callback of a registered `T`
/// PMU, and lives no longer than that callback, for which perf keeps the event alive. The
/// event's `event_init` succeeded: its `pmu_private` holds its `T::EventData`, made foreign
/// then ([`ForeignOwnable::into_foreign`]) and taken back by its `destroy` callback, after
/// every other callback.
///
/// # Examples
///
/// ```
/// use kernel::perf::{Event, Pmu};
///
/// fn count_since_last<T: Pmu>(event: &Event<T>, now: u64) {
///     let prev = event.prev_count_xchg(now);
///     event.count_add(now.wrapping_sub(prev));
/// }
/// ```
#[repr(transparent)]
pub struct Event<T: Pmu>(Opaque<bindings::perf_event>, PhantomData<T>);

impl<T: Pmu> Event<T> {
    /// Creates a reference to an [`Event`] from a valid pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must be the event perf passed to the running callback (other than `event_init`)
    /// of a registered `T` PMU, and the returned reference must not outlive that callback.
    pub(super) unsafe fn from_raw<'a>(ptr: *mut bindings::perf_event) -> &'a Self {
        // SAFETY: `Event` is a transparent wrapper of `perf_event`, live for `'a` by the
        // function's safety requirements.
        unsafe { &*ptr.cast() }
    }

    /// Returns the raw `struct perf_event` pointer.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn is_null<T: Pmu>(event: &Event<T>) -> bool {
    ///     event.as_raw().is_null()
    /// }
    /// ```
    pub fn as_raw(&self) -> *mut bindings::perf_event {
        self.0.get()
    }

    /// Returns the event's identity.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn same<T: Pmu>(a: &Event<T>, b: &Event<T>) -> bool {
    ///     a.id() == b.id()
    /// }
    /// ```
    pub fn id(&self) -> EventId {
        EventId(self.as_raw() as usize)
    }

    /// Returns the event's configuration words.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn code<T: Pmu>(event: &Event<T>) -> u8 {
    ///     (event.config().config & 0xff) as u8
    /// }
    /// ```
    pub fn config(&self) -> Config {
        // SAFETY: The event is live (type invariant).
        unsafe { config_of(self.as_raw()) }
    }

    /// Returns the data `event_init` returned for the event, borrowed for the callback (for a
    /// `KBox<U>` or an `Arc<U>`, a reference to the `U`).
    ///
    /// # Examples
    ///
    /// ```
    /// use core::sync::atomic::{AtomicU64, Ordering};
    /// use kernel::perf::{Event, Pmu};
    /// use kernel::prelude::*;
    ///
    /// // Each event's own copy of its counter's last value.
    /// struct Last {
    ///     value: AtomicU64,
    /// }
    ///
    /// fn last<T: Pmu<EventData = KBox<Last>>>(event: &Event<T>) -> u64 {
    ///     event.data().value.load(Ordering::Relaxed)
    /// }
    /// ```
    pub fn data(&self) -> <T::EventData as ForeignOwnable>::Borrowed<'_> {
        // SAFETY: The event is live for the callback (type invariant).
        let private = unsafe { (*self.as_raw()).pmu_private };
        // SAFETY: `private` is what `into_foreign` returned for the event's data, which the
        // event's `destroy` takes back with `from_foreign` only after this callback, when the
        // borrow has ended (type invariant).
        unsafe { T::EventData::borrow(private) }
    }

    /// Returns the CPU the event counts on, `None` for a per-task event on any CPU.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn per_cpu<T: Pmu>(event: &Event<T>) -> bool {
    ///     event.cpu().is_some()
    /// }
    /// ```
    pub fn cpu(&self) -> Option<CpuId> {
        // SAFETY: The event is live (type invariant); perf sets its CPU before `event_init`
        // returns and does not change it while the event is installed.
        CpuId::from_i32(unsafe { (*self.as_raw()).cpu })
    }

    /// Adds `delta` to the event's count.
    ///
    /// For a PMU whose events only their own CPU reads, this is `local64_add()`, atomic against
    /// the updates of that CPU (the only ones). For a PMU that lets other CPUs read
    /// ([`Pmu::READ_IN_PACKAGE`], or a [`Scope`]), where `read` on one CPU may add while the
    /// event's CPU does, it is an atomic add across CPUs.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn one_more<T: Pmu>(event: &Event<T>) {
    ///     event.count_add(1);
    /// }
    /// ```
    pub fn count_add(&self, delta: u64) {
        // The value is reinterpreted as the `s64` the counter holds.
        let delta = delta as i64;
        if T::READ_IN_PACKAGE || !matches!(T::SCOPE, Scope::None) {
            // SAFETY: The event is live (type invariant).
            unsafe { bindings::perf_event_count_add_atomic(self.as_raw(), delta) };
        } else {
            // SAFETY: The event is live (type invariant); `count` is a `local64_t`, which only
            // this CPU updates: no other CPU reads the PMU's events.
            unsafe { bindings::local64_add(delta, &raw mut (*self.as_raw()).count) };
        }
    }

    /// Returns the counter value the PMU last recorded (`hw.prev_count`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn delta<T: Pmu>(event: &Event<T>, now: u64) -> u64 {
    ///     now.wrapping_sub(event.prev_count())
    /// }
    /// ```
    pub fn prev_count(&self) -> u64 {
        // SAFETY: `prev_count_ptr` points to a live `local64_t`.
        unsafe { bindings::local64_read(self.prev_count_ptr()) as u64 }
    }

    /// Records `value` as the counter's value (`hw.prev_count`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn restart<T: Pmu>(event: &Event<T>, now: u64) {
    ///     event.prev_count_set(now);
    /// }
    /// ```
    pub fn prev_count_set(&self, value: u64) {
        // SAFETY: `prev_count_ptr` points to a live `local64_t`.
        unsafe { bindings::local64_set(self.prev_count_ptr(), value as i64) };
    }

    /// Records `value` as the counter's value and returns the one recorded before
    /// (`local64_xchg()` on `hw.prev_count`): the usual way to count the difference since the
    /// last update.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, Pmu};
    ///
    /// fn update<T: Pmu>(event: &Event<T>, now: u64) {
    ///     let prev = event.prev_count_xchg(now);
    ///     event.count_add(now.wrapping_sub(prev));
    /// }
    /// ```
    pub fn prev_count_xchg(&self, value: u64) -> u64 {
        // SAFETY: `prev_count_ptr` points to a live `local64_t`.
        unsafe { bindings::local64_xchg(self.prev_count_ptr(), value as i64) as u64 }
    }

    /// Returns a pointer to the event's `hw.prev_count`, which perf leaves to the PMU.
    fn prev_count_ptr(&self) -> *mut bindings::local64_t {
        // SAFETY: The event is live (type invariant): the field is in bounds.
        unsafe { &raw mut (*self.as_raw()).hw.prev_count }
    }

    /// Returns the counter's state as the PMU recorded it (`hw.state`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, HwState, Pmu};
    ///
    /// fn running<T: Pmu>(event: &Event<T>) -> bool {
    ///     !event.state().contains(HwState::Stopped)
    /// }
    /// ```
    pub fn state(&self) -> HwStates {
        let ev = self.as_raw();
        // SAFETY: The event is live (type invariant); `hw.state` is an `int` the event's PMU
        // keeps. It is read once, as `READ_ONCE()`.
        let state = unsafe { (&raw const (*ev).hw.state).read_volatile() };
        HwStates::from_raw(state as u32)
    }

    /// Records the counter's state (`hw.state`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Event, HwState, HwStates, Pmu};
    ///
    /// fn stopped<T: Pmu>(event: &Event<T>) {
    ///     event.set_state(HwState::Stopped | HwState::UpToDate);
    /// }
    /// ```
    pub fn set_state(&self, state: HwStates) {
        let ev = self.as_raw();
        // SAFETY: As in `state`: written once, as `WRITE_ONCE()`.
        unsafe { (&raw mut (*ev).hw.state).write_volatile(u32::from(state) as i32) };
    }
}

impl HwStates {
    /// The states of a raw `hw.state` value, only the known flags kept.
    fn from_raw(value: u32) -> Self {
        let mut s = Self::empty();
        for f in [HwState::Stopped, HwState::UpToDate, HwState::Arch] {
            if value & f as u32 != 0 {
                s |= f;
            }
        }
        s
    }
}

/// An event being created, as `event_init` receives it.
///
/// It is not installed yet: it has no driver data and no count, and the PMU may still move it to
/// another CPU.
///
/// # Invariants
///
/// Made only from the event perf passes to `event_init` of a registered `T` PMU, for that call;
/// perf has not published the event anywhere yet.
///
/// # Examples
///
/// ```
/// use kernel::perf::{NewEvent, Pmu};
/// use kernel::prelude::*;
///
/// fn check<T: Pmu>(event: &NewEvent<T>) -> Result {
///     if event.is_sampling() || event.has_exclude() {
///         return Err(EINVAL);
///     }
///     Ok(())
/// }
/// ```
#[repr(transparent)]
pub struct NewEvent<T: Pmu>(Opaque<bindings::perf_event>, PhantomData<T>);

impl<T: Pmu> NewEvent<T> {
    /// Creates a reference to a [`NewEvent`] from a valid pointer.
    ///
    /// # Safety
    ///
    /// `ptr` must be the event perf passed to the running `event_init`, and the returned
    /// reference must not outlive that call.
    pub(super) unsafe fn from_raw<'a>(ptr: *mut bindings::perf_event) -> &'a mut Self {
        // SAFETY: `NewEvent` is a transparent wrapper of `perf_event`, live and not yet
        // published for `'a` by the function's safety requirements.
        unsafe { &mut *ptr.cast() }
    }

    fn as_raw(&self) -> *mut bindings::perf_event {
        self.0.get()
    }

    /// Returns the event's configuration words.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{NewEvent, Pmu};
    ///
    /// fn code<T: Pmu>(event: &NewEvent<T>) -> u64 {
    ///     event.config().config & 0xff
    /// }
    /// ```
    pub fn config(&self) -> Config {
        // SAFETY: The event is live (type invariant).
        unsafe { config_of(self.as_raw()) }
    }

    /// Whether the event was opened for this PMU (`attr.type` is the PMU's type): perf offers
    /// events of other types to PMUs that may take them, which the `event_init` trampoline
    /// refuses with `ENOENT`.
    pub(super) fn is_for_this_pmu(&self) -> bool {
        let ev = self.as_raw();
        // SAFETY: The event is live and its `pmu` is the PMU whose `event_init` runs.
        unsafe { (*ev).attr.type_ == (*(*ev).pmu).type_ as u32 }
    }

    /// Returns the CPU the event was opened on, `None` for a per-task event on any CPU.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{NewEvent, Pmu};
    ///
    /// fn cpu_wide<T: Pmu>(event: &NewEvent<T>) -> bool {
    ///     event.cpu().is_some() && !event.is_per_task()
    /// }
    /// ```
    pub fn cpu(&self) -> Option<CpuId> {
        // SAFETY: The event is live (type invariant).
        CpuId::from_i32(unsafe { (*self.as_raw()).cpu })
    }

    /// Whether the event samples (`is_sampling_event()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{NewEvent, Pmu};
    ///
    /// fn counts_only<T: Pmu>(event: &NewEvent<T>) -> bool {
    ///     !event.is_sampling()
    /// }
    /// ```
    pub fn is_sampling(&self) -> bool {
        // SAFETY: The event is live (type invariant); the helper only reads its attributes.
        unsafe { bindings::is_sampling_event(self.as_raw()) }
    }

    /// Whether the event asks for any `exclude_*` filter (`event_has_any_exclude_flag()`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{NewEvent, Pmu};
    ///
    /// fn unfiltered<T: Pmu>(event: &NewEvent<T>) -> bool {
    ///     !event.has_exclude()
    /// }
    /// ```
    pub fn has_exclude(&self) -> bool {
        // SAFETY: The event is live (type invariant); the helper only reads its attributes.
        unsafe { bindings::event_has_any_exclude_flag(self.as_raw()) }
    }

    /// Whether the event counts for a task (`PERF_ATTACH_TASK`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{NewEvent, Pmu};
    ///
    /// fn per_task<T: Pmu>(event: &NewEvent<T>) -> bool {
    ///     event.is_per_task()
    /// }
    /// ```
    pub fn is_per_task(&self) -> bool {
        // SAFETY: The event is live (type invariant).
        unsafe { (*self.as_raw()).attach_state & bindings::PERF_ATTACH_TASK != 0 }
    }

    /// Moves the event to `cpu`, for a PMU whose counters serve several CPUs and are read on one
    /// of them.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::cpu::CpuId;
    /// use kernel::perf::{NewEvent, Pmu};
    ///
    /// fn to_first<T: Pmu>(event: &mut NewEvent<T>, first: CpuId) {
    ///     event.set_cpu(first);
    /// }
    /// ```
    pub fn set_cpu(&mut self, cpu: CpuId) {
        // SAFETY: The event is live and not yet published (type invariant): `&mut self` is its
        // only user.
        unsafe { (*self.as_raw()).cpu = i32::from(cpu) };
    }

    /// Lets any CPU of the package of the event's CPU read the event while it counts
    /// (`PERF_EV_CAP_READ_ACTIVE_PKG`), for a PMU with [`Pmu::READ_IN_PACKAGE`].
    pub(super) fn set_readable_in_package(&mut self) {
        // SAFETY: As in `set_cpu`.
        unsafe { (*self.as_raw()).event_caps |= bindings::PERF_EV_CAP_READ_ACTIVE_PKG as i32 };
    }

    /// Calls `f` for each other member of the event's group that belongs to the same PMU, the
    /// group leader first, stopping at the first error.
    ///
    /// A PMU checks this way that the whole group fits its counters; which members count
    /// towards that is its choice ([`GroupMember::state`]: x86's PMUs leave out the members
    /// that are off). perf holds the group
    /// leader's context mutex around `event_init` for a member of a group (which keeps the
    /// group as it is) only for PMUs outside the software context: for a PMU in it
    /// ([`TaskContext::Software`](super::TaskContext::Software)) this fails with `EINVAL`
    /// when the event is not its group's leader. A new group leader has no other member.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{NewEvent, Pmu};
    /// use kernel::prelude::*;
    ///
    /// fn fits<T: Pmu>(event: &NewEvent<T>, counters: usize) -> Result {
    ///     let mut n = 1;
    ///     event.for_each_group_member(|member| {
    ///         if !member.state().is_enabled() {
    ///             return Ok(());
    ///         }
    ///         n += 1;
    ///         if n > counters { Err(EINVAL) } else { Ok(()) }
    ///     })
    /// }
    /// ```
    pub fn for_each_group_member(&self, mut f: impl FnMut(&GroupMember<T>) -> Result) -> Result {
        let ev = self.as_raw();
        // SAFETY: The event is live (type invariant); perf set its PMU.
        let pmu = unsafe { (*ev).pmu };
        // SAFETY: As above; perf set its group leader.
        let leader = unsafe { (*ev).group_leader };
        if leader == ev {
            return Ok(());
        }
        // SAFETY: `pmu` is the PMU whose `event_init` runs, registered.
        if unsafe { (*pmu).task_ctx_nr } == bindings::perf_event_task_context_perf_sw_context {
            return Err(EINVAL);
        }
        // The event is a member of a group of a PMU outside the software context:
        // `perf_try_init_event()` holds the leader's context mutex for the call, which keeps the
        // leader, its sibling list and the siblings' PMUs as they are (perf revokes an event of
        // an unregistering PMU under it too), and each sibling live.
        // SAFETY: `leader` is live; the helper only asserts the mutex under lockdep.
        unsafe { bindings::lockdep_assert_event_ctx(leader) };
        // SAFETY: `leader` is live and keeps its PMU for the call.
        if unsafe { (*leader).pmu } == pmu {
            // SAFETY: The leader is an event of this `T` PMU (its `pmu`), whose `event_init`
            // succeeded (it is in the group), live for the call.
            f(unsafe { GroupMember::from_raw(leader) })?;
        }
        // SAFETY: `leader` is live; the field is in bounds.
        let head = unsafe { &raw mut (*leader).sibling_list };
        // SAFETY: The list is kept as it is for the call: `head` is a valid list head.
        let mut pos = unsafe { (*head).next };
        while pos != head {
            // SAFETY: `pos` is the `sibling_list` of a sibling, an entry of the list.
            let sibling = unsafe { crate::container_of!(pos, bindings::perf_event, sibling_list) };
            // SAFETY: `pos` is an entry of the list, in a live sibling.
            if unsafe { (*sibling).pmu } == pmu {
                // SAFETY: As for the leader.
                f(unsafe { GroupMember::from_raw(sibling) })?;
            }
            // SAFETY: `pos` is an entry of the list, kept as it is for the call.
            pos = unsafe { (*pos).next };
        }
        Ok(())
    }
}

/// Another member of a new event's group, as [`NewEvent::for_each_group_member`] shows it.
///
/// # Invariants
///
/// Made only from a live group member of the `T` PMU during `event_init`, for that call, which
/// keeps it in the group: its `event_init` succeeded, so its `pmu_private` holds its
/// `T::EventData`, which its `destroy` takes back only after it left the group.
///
/// # Examples
///
/// ```
/// use kernel::perf::{GroupMember, Pmu};
///
/// fn code<T: Pmu>(member: &GroupMember<T>) -> u64 {
///     member.config().config
/// }
/// ```
#[repr(transparent)]
pub struct GroupMember<T: Pmu>(Opaque<bindings::perf_event>, PhantomData<T>);

impl<T: Pmu> GroupMember<T> {
    /// # Safety
    ///
    /// `ptr` must be a live group member of a registered `T` PMU during `event_init`, and the
    /// returned reference must not outlive that call.
    unsafe fn from_raw<'a>(ptr: *mut bindings::perf_event) -> &'a Self {
        // SAFETY: A transparent wrapper, live for `'a` by the function's safety requirements.
        unsafe { &*ptr.cast() }
    }

    /// Returns the member's configuration words.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{GroupMember, Pmu};
    ///
    /// fn code<T: Pmu>(member: &GroupMember<T>) -> u64 {
    ///     member.config().config & 0xff
    /// }
    /// ```
    pub fn config(&self) -> Config {
        // SAFETY: The member is live (type invariant).
        unsafe { config_of(self.0.get()) }
    }

    /// Returns the data the member's `event_init` returned, borrowed for the call: what a PMU
    /// decided for the member then (its counter, its shared registers) need not be worked out
    /// again from its configuration.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{GroupMember, Pmu};
    /// use kernel::prelude::*;
    ///
    /// // The counters each event needs, decided in its `event_init`.
    /// struct Needs {
    ///     counters: u32,
    /// }
    ///
    /// fn counters<T: Pmu<EventData = KBox<Needs>>>(member: &GroupMember<T>) -> u32 {
    ///     member.data().counters
    /// }
    /// ```
    pub fn data(&self) -> <T::EventData as ForeignOwnable>::Borrowed<'_> {
        // SAFETY: The member is live (type invariant).
        let private = unsafe { (*self.0.get()).pmu_private };
        // SAFETY: `private` is what `into_foreign` returned for the member's data, which its
        // `destroy` takes back only after it left the group, after this call (type invariant).
        unsafe { T::EventData::borrow(private) }
    }

    /// Returns the member's state (`event->state`).
    ///
    /// A snapshot: perf turns a member on or off only under the context mutex it holds around
    /// `event_init` (for a PMU outside the software context), but schedules it in and out,
    /// between [`EventState::Inactive`] and [`EventState::Active`] or into
    /// [`EventState::Error`], under the context's lock, which `event_init` does not hold.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{GroupMember, Pmu};
    ///
    /// // Only the members that may count take a counter.
    /// fn takes_a_counter<T: Pmu>(member: &GroupMember<T>) -> bool {
    ///     member.state().is_enabled()
    /// }
    /// ```
    pub fn state(&self) -> EventState {
        // SAFETY: The member is live (type invariant); perf writes `state` with `WRITE_ONCE()`
        // and may do so meanwhile, so it is read once, volatile.
        let state = unsafe { core::ptr::read_volatile(&raw const (*self.0.get()).state) };
        EventState::from_raw(state)
    }
}

/// The state of an event, as perf keeps it (`enum perf_event_state`).
///
/// # Examples
///
/// ```
/// use kernel::perf::EventState;
///
/// assert!(EventState::Inactive.is_enabled());
/// assert!(!EventState::Off.is_enabled());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventState {
    /// Exited with its task, revoked with its PMU, or being freed (`PERF_EVENT_STATE_EXIT`,
    /// `PERF_EVENT_STATE_REVOKED`, `PERF_EVENT_STATE_DEAD`): it counts no more.
    Gone,
    /// Could not be scheduled, pinned (`PERF_EVENT_STATE_ERROR`); enabling it again may work.
    Error,
    /// Disabled (`PERF_EVENT_STATE_OFF`).
    Off,
    /// Enabled, not on a counter now (`PERF_EVENT_STATE_INACTIVE`).
    Inactive,
    /// Enabled and on a counter (`PERF_EVENT_STATE_ACTIVE`).
    Active,
}

impl EventState {
    /// The state of perf's value `state`; below `PERF_EVENT_STATE_ERROR` it is
    /// [`EventState::Gone`].
    fn from_raw(state: bindings::perf_event_state) -> Self {
        match state {
            bindings::perf_event_state_PERF_EVENT_STATE_ACTIVE => Self::Active,
            bindings::perf_event_state_PERF_EVENT_STATE_INACTIVE => Self::Inactive,
            bindings::perf_event_state_PERF_EVENT_STATE_OFF => Self::Off,
            bindings::perf_event_state_PERF_EVENT_STATE_ERROR => Self::Error,
            _ => Self::Gone,
        }
    }

    /// Whether the event is enabled, [`EventState::Inactive`] or [`EventState::Active`]
    /// (`state > PERF_EVENT_STATE_OFF`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::EventState;
    ///
    /// assert!(EventState::Active.is_enabled());
    /// assert!(!EventState::Error.is_enabled());
    /// assert!(!EventState::Gone.is_enabled());
    /// ```
    pub fn is_enabled(self) -> bool {
        matches!(self, Self::Inactive | Self::Active)
    }
}

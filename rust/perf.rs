// SPDX-License-Identifier: GPL-2.0

//! perf PMUs: a trait for the driver's callbacks (in the style of
//! `kernel::net::phy`), one trampoline per C callback, and registration.
//!
//! C header: [`include/linux/perf_event.h`](srctree/include/linux/perf_event.h)

use super::ffi;
use core::marker::PhantomData;
use core::ptr::NonNull;
use kernel::error::{from_result, to_result, Result};
use kernel::ffi::{c_int, c_void};
use kernel::prelude::*;
use kernel::sync::Arc;

/// `PERF_EF_START`: start the event after adding it.
pub(crate) const EF_START: u32 = 0x01;
/// `PERF_EF_UPDATE`: update the count when stopping.
pub(crate) const EF_UPDATE: u32 = 0x04;

/// A perf event, as passed to a PMU callback.
///
/// # Invariants
///
/// Points to a `struct perf_event` that perf keeps alive while the driver
/// may use it: during a callback, and between `add` and `del`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Event(NonNull<ffi::PerfEvent>);

// SAFETY: An `Event` is a handle; all accesses go through C helpers that
// are safe from any CPU while perf keeps the event alive.
unsafe impl Send for Event {}
// SAFETY: As above.
unsafe impl Sync for Event {}

/// What the driver needs to know about an event at `event_init`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct EventInfo {
    /// `attr.type`.
    pub(crate) attr_type: u32,
    /// The type of the PMU the event is being created for.
    pub(crate) pmu_type: u32,
    /// `attr.config`.
    pub(crate) config: u64,
    /// `attr.config1`.
    pub(crate) config1: u64,
    /// `attr.config2`.
    pub(crate) config2: u64,
    /// The CPU it was opened on (-1: any CPU).
    pub(crate) cpu: i32,
    /// A sampling event.
    pub(crate) sampling: bool,
    /// Any `exclude_*` flag set.
    pub(crate) excludes: bool,
    /// A per-task event.
    pub(crate) per_task: bool,
}

impl Event {
    /// # Safety
    ///
    /// `ev` must be a live event passed by perf to a PMU callback.
    unsafe fn from_raw(ev: *mut ffi::PerfEvent) -> Option<Self> {
        NonNull::new(ev).map(Event)
    }

    /// The event's attributes and context.
    pub(crate) fn info(&self) -> EventInfo {
        let mut i = ffi::RuEventInfo::default();
        // SAFETY: The event is live (type invariant) and `i` is writable.
        unsafe { ffi::ru_event_info(self.0.as_ptr(), &mut i) };
        EventInfo {
            attr_type: i.type_,
            pmu_type: i.pmu_type,
            config: i.config,
            config1: i.config1,
            config2: i.config2,
            cpu: i.cpu,
            sampling: i.flags & ffi::RU_EV_SAMPLING != 0,
            excludes: i.flags & ffi::RU_EV_EXCLUDE != 0,
            per_task: i.flags & ffi::RU_EV_TASK != 0,
        }
    }

    /// Moves the event to `cpu` (only from `event_init`) and lets any CPU of
    /// its package read it.
    pub(crate) fn set_cpu(&self, cpu: u32) {
        // SAFETY: The event is live and still being initialised.
        unsafe { ffi::ru_event_set_cpu(self.0.as_ptr(), cpu as c_int) }
    }

    /// Adds `delta` to the event's count.
    pub(crate) fn add_count(&self, delta: u64) {
        // SAFETY: The event is live; `local64_add` is safe in any context.
        unsafe { ffi::ru_event_add_count(self.0.as_ptr(), delta) }
    }

    /// Calls `f` for the other members of the event's group that belong to
    /// the same PMU (the leader first), stopping at the first error.
    pub(crate) fn for_each_group_member(&self, mut f: impl FnMut(Event) -> Result) -> Result {
        type F<'a> = &'a mut dyn FnMut(Event) -> Result;
        let mut fr: F<'_> = &mut f;

        /// # Safety
        ///
        /// `ctx` must point to an `F` and `sib` to a live event.
        unsafe extern "C" fn cb(ctx: *mut c_void, sib: *mut ffi::PerfEvent) -> c_int {
            // SAFETY: `ctx` is the `F` passed below, alive for the call.
            let f = unsafe { &mut *(ctx as *mut F<'_>) };
            // SAFETY: perf passes group members that outlive the call.
            match unsafe { Event::from_raw(sib) } {
                Some(e) => from_result(|| f(e).map(|()| 0)),
                None => 0,
            }
        }
        // SAFETY: The event is live; `cb` matches the callback type and `fr` outlives the call.
        let r = unsafe { ffi::ru_event_group_for_each(self.0.as_ptr(), Some(cb), &mut fr as *mut F<'_> as *mut c_void) };
        to_result(r)
    }
}

/// The driver's side of a PMU.
pub(crate) trait PmuOps: Send + Sync + 'static {
    /// Validates and initialises a new event.
    fn event_init(&self, ev: Event) -> Result;
    /// Schedules the event on a counter.
    fn add(&self, ev: Event, flags: u32) -> Result;
    /// Removes the event from its counter.
    fn del(&self, ev: Event, flags: u32);
    /// Starts counting.
    fn start(&self, ev: Event, flags: u32);
    /// Stops counting.
    fn stop(&self, ev: Event, flags: u32);
    /// Updates the event's count.
    fn read(&self, ev: Event);
    /// Lets the PMU's counters run (after a batch of changes).
    fn enable(&self);
    /// Freezes the PMU's counters (before a batch of changes).
    fn disable(&self);
}

struct Adapter<T: PmuOps>(PhantomData<T>);

impl<T: PmuOps> Adapter<T> {
    const OPS: ffi::RuPmuOps = ffi::RuPmuOps {
        event_init: Some(Self::event_init_cb),
        add: Some(Self::add_cb),
        del: Some(Self::del_cb),
        start: Some(Self::start_cb),
        stop: Some(Self::stop_cb),
        read: Some(Self::read_cb),
        pmu_enable: Some(Self::enable_cb),
        pmu_disable: Some(Self::disable_cb),
    };

    /// # Safety
    ///
    /// `data` must be the data pointer of a registered PMU of type `T`.
    unsafe fn ops<'a>(data: *mut c_void) -> &'a T {
        // SAFETY: By the function's requirement `data` points to the `T` the registration owns, alive while the PMU is registered.
        unsafe { &*(data as *const T) }
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data and a live event.
    unsafe extern "C" fn event_init_cb(data: *mut c_void, ev: *mut ffi::PerfEvent) -> c_int {
        from_result(|| {
            // SAFETY: Called by perf for this PMU with a live event.
            let (t, ev) = unsafe { (Self::ops(data), Event::from_raw(ev).ok_or(EINVAL)?) };
            t.event_init(ev)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data and a live event.
    unsafe extern "C" fn add_cb(data: *mut c_void, ev: *mut ffi::PerfEvent, flags: c_int) -> c_int {
        from_result(|| {
            // SAFETY: Called by perf for this PMU with a live event.
            let (t, ev) = unsafe { (Self::ops(data), Event::from_raw(ev).ok_or(EINVAL)?) };
            t.add(ev, flags as u32)?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data and a live event.
    unsafe extern "C" fn del_cb(data: *mut c_void, ev: *mut ffi::PerfEvent, flags: c_int) {
        // SAFETY: Called by perf for this PMU with a live event.
        if let (t, Some(ev)) = unsafe { (Self::ops(data), Event::from_raw(ev)) } {
            t.del(ev, flags as u32);
        }
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data and a live event.
    unsafe extern "C" fn start_cb(data: *mut c_void, ev: *mut ffi::PerfEvent, flags: c_int) {
        // SAFETY: Called by perf for this PMU with a live event.
        if let (t, Some(ev)) = unsafe { (Self::ops(data), Event::from_raw(ev)) } {
            t.start(ev, flags as u32);
        }
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data and a live event.
    unsafe extern "C" fn stop_cb(data: *mut c_void, ev: *mut ffi::PerfEvent, flags: c_int) {
        // SAFETY: Called by perf for this PMU with a live event.
        if let (t, Some(ev)) = unsafe { (Self::ops(data), Event::from_raw(ev)) } {
            t.stop(ev, flags as u32);
        }
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data and a live event.
    unsafe extern "C" fn read_cb(data: *mut c_void, ev: *mut ffi::PerfEvent) {
        // SAFETY: Called by perf for this PMU with a live event.
        if let (t, Some(ev)) = unsafe { (Self::ops(data), Event::from_raw(ev)) } {
            t.read(ev);
        }
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data.
    unsafe extern "C" fn enable_cb(data: *mut c_void) {
        // SAFETY: Called by perf for this PMU.
        unsafe { Self::ops(data) }.enable();
    }

    /// # Safety
    ///
    /// Called by perf with the registration's data.
    unsafe extern "C" fn disable_cb(data: *mut c_void) {
        // SAFETY: Called by perf for this PMU.
        unsafe { Self::ops(data) }.disable();
    }
}

/// One `format/` or `events/` file of a PMU.
pub(crate) struct Attr<'a> {
    /// File name.
    pub(crate) name: &'a str,
    /// Content.
    pub(crate) value: &'a str,
}

/// A PMU being built, then registered.
///
/// # Invariants
///
/// `raw` is a `struct ru_pmu` from `ru_pmu_alloc` whose data is
/// `Arc::into_raw` of the `T` this object owns.
pub(crate) struct Pmu<T: PmuOps> {
    raw: NonNull<ffi::RuPmu>,
    data: *const T,
    _ops: KBox<ffi::RuPmuOps>,
}

// SAFETY: The C PMU is only changed through `&mut self` or by perf, which
// serialises its callbacks; `T` is `Send + Sync`.
unsafe impl<T: PmuOps> Send for Pmu<T> {}
// SAFETY: `&self` methods only read the PMU type or migrate contexts, which
// perf serialises internally.
unsafe impl<T: PmuOps> Sync for Pmu<T> {}

impl<T: PmuOps> Pmu<T> {
    /// Builds a PMU driven by `ops`, with these `format/` and `events/`
    /// files, and registers it as `name`. Nothing stays registered on error.
    pub(crate) fn register(name: &str, ops: Arc<T>, formats: &[Attr<'_>], events: &[Attr<'_>]) -> Result<Self> {
        let table = KBox::new(Adapter::<T>::OPS, GFP_KERNEL)?;
        let data = Arc::into_raw(ops);
        // SAFETY: `table` and `data` live in the returned object until `Drop`.
        let raw = unsafe { ffi::ru_pmu_alloc(&*table, data as *mut c_void, formats.len() as u32, events.len() as u32) };
        let Some(raw) = NonNull::new(raw) else {
            // SAFETY: `data` came from `Arc::into_raw` and was not kept.
            drop(unsafe { Arc::from_raw(data) });
            return Err(ENOMEM);
        };
        // From here `Drop` cleans up.
        let pmu = Pmu { raw, data, _ops: table };
        for (events_group, list) in [(false, formats), (true, events)] {
            for (i, a) in list.iter().enumerate() {
                // SAFETY: `raw` is valid; the strings are read for their given lengths and copied.
                to_result(unsafe {
                    ffi::ru_pmu_set_attr(
                        raw.as_ptr(),
                        events_group,
                        i as u32,
                        a.name.as_ptr(),
                        a.name.len(),
                        a.value.as_ptr(),
                        a.value.len(),
                    )
                })?;
            }
        }
        // SAFETY: `raw` is valid and fully built; the name is copied.
        to_result(unsafe { ffi::ru_pmu_register(raw.as_ptr(), name.as_ptr(), name.len()) })?;
        Ok(pmu)
    }

    /// Moves every event of this PMU on CPU `from` to CPU `to`.
    pub(crate) fn migrate(&self, from: u32, to: u32) {
        // SAFETY: `raw` is a registered PMU; perf locks the contexts.
        unsafe { ffi::ru_pmu_migrate(self.raw.as_ptr(), from as c_int, to as c_int) }
    }

    /// The driver object.
    pub(crate) fn ops(&self) -> &T {
        // SAFETY: `data` is the `T` this object owns.
        unsafe { &*self.data }
    }
}

impl<T: PmuOps> Drop for Pmu<T> {
    fn drop(&mut self) {
        // SAFETY: `raw` is valid; unregistering waits for perf to stop using it, then it is freed, and no callback can reach `data` afterwards.
        unsafe {
            ffi::ru_pmu_unregister(self.raw.as_ptr());
            ffi::ru_pmu_free(self.raw.as_ptr());
        }
        // SAFETY: `data` came from `Arc::into_raw` in `register`.
        drop(unsafe { Arc::from_raw(self.data) });
    }
}

/// Whether a PMU named `name` already exists (e.g. the kernel's own C
/// uncore driver's).
pub(crate) fn name_taken(name: &str) -> bool {
    // SAFETY: The helper reads `name` for its length.
    unsafe { ffi::ru_pmu_name_taken(name.as_ptr(), name.len()) }
}

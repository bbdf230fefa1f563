// SPDX-License-Identifier: GPL-2.0

//! perf PMUs: a `#[vtable]` trait for a PMU's callbacks (in the style of
//! `kernel::net::phy`), one trampoline per `struct pmu` callback, the
//! events the callbacks receive, and a pinned [`Registration`] that owns
//! its `struct pmu` and sysfs attributes and unregisters on drop.
//!
//! Events are borrowed: a callback's `&Event` lives as long as the callback,
//! which is as long as perf guarantees the event. A driver that needs to
//! recognise an event later keeps its [`EventId`], which cannot be
//! dereferenced. Code that runs outside the event's callbacks (a timer, an
//! interrupt work) reaches it only through an [`EventSlots`] entry, which
//! holds the event from its `add` until its `del`, the window in which perf
//! keeps it alive; the `del` trampoline empties the entry, whatever the
//! driver does.
//!
//! C header: [`include/linux/perf_event.h`](srctree/include/linux/perf_event.h)

mod attrs;
mod slots;

use super::bindings;
use super::cpu::{CpuId, IrqsOff, OnPackage};
use super::cpumask::CpuMask;
use attrs::AttrGroups;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicBool, AtomicI32, AtomicI64, AtomicUsize, Ordering};
use kernel::error::{from_result, to_result, VTABLE_DEFAULT_ERROR};
use kernel::ffi::c_int;
use kernel::prelude::*;
use kernel::str::{CStr, CString};
use kernel::types::Opaque;
use kernel::ThisModule;

pub use attrs::Attr;
pub use slots::EventSlots;

/// The flags perf passes to `add`, `del`, `start` and `stop`
/// (`PERF_EF_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flags(u32);

impl Flags {
    /// `PERF_EF_START`: `add` starts the event too.
    pub fn start(self) -> bool {
        self.0 & bindings::PERF_EF_START != 0
    }

    /// `PERF_EF_RELOAD`: `start` reloads the counter's period.
    pub fn reload(self) -> bool {
        self.0 & bindings::PERF_EF_RELOAD != 0
    }

    /// `PERF_EF_UPDATE`: `stop` updates the count.
    pub fn update(self) -> bool {
        self.0 & bindings::PERF_EF_UPDATE != 0
    }
}

/// What a PMU can do, beyond counting (`PERF_PMU_CAP_*`), as a set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities(u32);

impl Capabilities {
    /// Nothing beyond counting with interrupts.
    pub const NONE: Self = Capabilities(0);
    /// No overflow interrupts: perf refuses sampling events
    /// (`PERF_PMU_CAP_NO_INTERRUPT`).
    pub const NO_INTERRUPT: Self = Capabilities(bindings::PERF_PMU_CAP_NO_INTERRUPT);
    /// No `exclude_*` filtering: perf refuses events that ask for it
    /// (`PERF_PMU_CAP_NO_EXCLUDE`).
    pub const NO_EXCLUDE: Self = Capabilities(bindings::PERF_PMU_CAP_NO_EXCLUDE);

    /// Both sets.
    pub const fn and(self, other: Self) -> Self {
        Capabilities(self.0 | other.0)
    }
}

/// Which context a PMU's per-task events live in (`pmu->task_ctx_nr`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskContext {
    /// None: only CPU-wide events (`perf_invalid_context`).
    None,
    /// The hardware context, scheduled with the task.
    Hardware,
    /// The software context.
    Software,
}

/// The CPUs a PMU's counters serve, for perf's own hotplug handling
/// (`pmu->scope`): with a scope, perf shows a `cpumask` of one CPU per
/// unit, moves events to it and migrates them when it goes offline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The PMU handles CPUs itself.
    None,
    /// One per core.
    Core,
    /// One per die.
    Die,
    /// One per cluster.
    Cluster,
    /// One per package.
    Package,
    /// One for the system.
    System,
}

/// How a PMU registers.
#[derive(Clone, Copy, Debug)]
pub struct PmuOptions {
    /// Its capabilities.
    pub capabilities: Capabilities,
    /// Where its per-task events live.
    pub task_context: TaskContext,
    /// Its scope.
    pub scope: Scope,
}

/// A perf event, as a PMU callback (`add`, `del`, `start`, `stop`, `read`)
/// receives it, with the PMU's data `D` for it.
///
/// # Invariants
///
/// A `&Event<D>` is only made from the event pointer perf passes to a PMU
/// callback, and lives no longer than that callback: perf keeps the event
/// alive (and its PMU fields stable) for the whole call. The event belongs
/// to a [`Registration<T>`] whose `T::EventData` is `D`, and its
/// `event_init` succeeded, so its data room holds a `D` (written by the
/// `event_init` trampoline before perf installs the event).
#[repr(transparent)]
pub struct Event<D>(Opaque<bindings::perf_event>, PhantomData<D>);

/// The identity of an event, to recognise it in a later callback. It is
/// only compared, never turned back into an event, and not printable (it
/// is made from the event's address).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct EventId(usize);

impl EventId {
    /// The identity as a number, never 0.
    pub fn as_usize(self) -> usize {
        self.0
    }
}

/// The `config` words of an event's attributes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Config {
    /// `attr.config`.
    pub config: u64,
    /// `attr.config1`.
    pub config1: u64,
    /// `attr.config2`.
    pub config2: u64,
}

/// Where an event's data `D` is kept: the first 32 bytes of the union's
/// hardware view (`config`, `last_tag`, `config_base`, `event_base`),
/// which perf leaves to the event's PMU and which is 8-byte aligned.
struct DataRoom<D>(PhantomData<D>);

impl<D> DataRoom<D> {
    /// Fails the build for a `D` that does not fit the room.
    const FITS: () = assert!(
        core::mem::size_of::<D>() <= 32 && core::mem::align_of::<D>() <= 8,
        "a PMU's event data must fit 32 bytes, aligned to at most 8"
    );

    /// The room of `ev`.
    ///
    /// # Safety
    ///
    /// `ev` must be a live event.
    unsafe fn of(ev: *mut bindings::perf_event) -> *mut D {
        let () = Self::FITS;
        // SAFETY: The caller guarantees the event live; the hardware view's first field starts
        // the union, 8-byte aligned, with 32 bytes of the PMU's fields from there.
        unsafe { (&raw mut (*ev).hw.__bindgen_anon_1.__bindgen_anon_1.config).cast::<D>() }
    }
}

/// Reads the attributes' `config` words of a live event.
///
/// # Safety
///
/// `ev` must be a live event.
unsafe fn config_of(ev: *mut bindings::perf_event) -> Config {
    // SAFETY: The caller guarantees the event live; perf does not change its attributes after
    // creating it.
    let a = unsafe { &(*ev).attr };
    // SAFETY: The unions hold plain integers; `config1` and `config2` are the views a PMU reads.
    let (config1, config2) = unsafe { (a.__bindgen_anon_3.config1, a.__bindgen_anon_4.config2) };
    Config {
        config: a.config,
        config1,
        config2,
    }
}

/// The event's `hw.idx`, as an atomic: the slot an [`EventSlots`] entry
/// records there is read by `read` on other CPUs of the package.
///
/// # Safety
///
/// `ev` must be a live event, and the returned reference must not outlive
/// it.
unsafe fn idx_of<'a>(ev: *mut bindings::perf_event) -> &'a AtomicI32 {
    // SAFETY: The caller guarantees the event live; `hw.idx` is a naturally aligned `int` of the
    // union's hardware view, which only the event's PMU uses, and only through this atomic.
    unsafe { AtomicI32::from_ptr(&raw mut (*ev).hw.__bindgen_anon_1.__bindgen_anon_1.idx) }
}

/// The package of the CPU a live event was last added on, or -1 before
/// its first `add`: kept in the event's `hw.last_cpu`, which perf leaves to
/// the event's PMU (this layer's, not the PMU's), so that `read` knows the
/// package it runs in without asking the CPU ([`Reading`]).
///
/// # Safety
///
/// `ev` must be a live event, and the returned reference must not outlive
/// it.
unsafe fn added_package_of<'a>(ev: *mut bindings::perf_event) -> &'a AtomicI32 {
    // SAFETY: The caller guarantees the event live; `hw.last_cpu` is a naturally aligned `int`
    // of the union's hardware view, which only this layer uses, and only through this atomic.
    unsafe { AtomicI32::from_ptr(&raw mut (*ev).hw.__bindgen_anon_1.__bindgen_anon_1.last_cpu) }
}

/// What `read` runs with: interrupts off on this CPU, and the knowledge
/// that this CPU is one of the package of the CPU the event was added on.
/// perf reads an active event on its CPU, or, for a PMU readable in the
/// package ([`NewEvent::set_readable_in_package`]), on another CPU of the
/// same package; an event that is not active is not read. Only the `read`
/// trampoline makes one.
///
/// Passed by value, so the trampoline can hand over to `read` without a
/// frame of its own; the lifetime is the callback's, which `read`, generic
/// over it, cannot extend.
///
/// # Invariants
///
/// `pkg`, when known, is the package of the CPU running the callback, and
/// `irq`'s invariant holds for as long as the value lives.
pub struct Reading<'a> {
    irq: IrqsOff,
    pkg: Option<usize>,
    _call: PhantomData<&'a ()>,
}

impl Reading<'_> {
    /// Interrupts are off on this CPU.
    pub fn irqs_off(&self) -> &IrqsOff {
        &self.irq
    }

    /// The proof that this CPU is one of package `pkg`'s, if it is; known
    /// without asking the CPU.
    pub fn on(&self, pkg: usize) -> Option<OnPackage<'_>> {
        // SAFETY: `self.pkg` is this CPU's package (type invariant).
        (self.pkg == Some(pkg)).then(|| unsafe { OnPackage::new_unchecked(&self.irq, pkg) })
    }
}

impl<D: Copy> Event<D> {
    /// # Safety
    ///
    /// `ptr` must be the event perf passed to the running callback of a
    /// [`Registration<T>`] with `T::EventData == D`, other than
    /// `event_init`, and the returned reference must not outlive that
    /// callback.
    unsafe fn from_raw<'a>(ptr: *mut bindings::perf_event) -> &'a Self {
        // SAFETY: `Event` is a transparent wrapper of the event, which the caller guarantees live.
        unsafe { &*ptr.cast::<Self>() }
    }

    fn raw(&self) -> *mut bindings::perf_event {
        self.0.get()
    }

    /// The event's identity.
    pub fn id(&self) -> EventId {
        EventId(self.raw() as usize)
    }

    /// The event's `config`, `config1` and `config2`.
    pub fn config(&self) -> Config {
        // SAFETY: The event is live (type invariant).
        unsafe { config_of(self.raw()) }
    }

    /// The data `event_init` returned for the event.
    pub fn data(&self) -> D {
        // SAFETY: The event is live and its room holds a `D`, written before the event was
        // installed and never again (type invariant).
        unsafe { DataRoom::<D>::of(self.raw()).read() }
    }

    /// Adds `delta` to the event's count.
    pub fn add_count(&self, delta: u64) {
        // SAFETY: The event is live (type invariant).
        unsafe { add_count(self.raw(), delta) }
    }

    /// Replaces the event's previous counter value (`hw.prev_count`, which
    /// perf leaves to the PMU) with `value` and returns the one it held:
    /// the usual way to count the difference since the last update.
    /// Atomic, and safe in any context, NMI included.
    pub fn swap_prev_count(&self, value: u64) -> u64 {
        let ev = self.raw();
        // SAFETY: The event is live (type invariant). `prev_count` is a `local64_t`, on 64-bit
        // kernels one naturally aligned `long`, which only the event's PMU uses; the reference
        // does not outlive `self`.
        let prev = unsafe { AtomicI64::from_ptr(&raw mut (*ev).hw.prev_count.a.a.counter) };
        prev.swap(value as i64, Ordering::Relaxed) as u64
    }

    /// The entry of the event's [`EventSlots`] (the one its `add` put it
    /// in), read atomically; `None` outside `add`..`del`.
    pub fn index(&self) -> Option<usize> {
        // SAFETY: The event is live (type invariant) and the reference does not outlive `self`.
        let i = unsafe { idx_of(self.raw()) }.load(Ordering::Acquire);
        usize::try_from(i).ok()
    }
}

/// Adds `delta` to a live event's count, atomically: CPUs of the package
/// other than the event's may add at the same time (`local64_add` is
/// atomic only on its own CPU). Safe in any context, NMI included.
///
/// # Safety
///
/// `ev` must be a live event.
unsafe fn add_count(ev: *mut bindings::perf_event, delta: u64) {
    // SAFETY: The caller guarantees the event live. `count` is a `local64_t`, on 64-bit kernels
    // one naturally aligned `long` (`local_t` wraps an `atomic_long_t`), which perf reads with
    // plain loads; a locked add keeps every concurrent add.
    let count = unsafe { AtomicI64::from_ptr(&raw mut (*ev).count.a.a.counter) };
    count.fetch_add(delta as i64, Ordering::Relaxed);
}

/// What a PMU needs to know about a new event to accept or refuse it.
#[derive(Clone, Copy, Debug)]
pub struct EventInfo {
    /// The event was opened for this PMU (`attr.type` is the PMU's type).
    pub for_this_pmu: bool,
    /// The CPU it was opened on (`None`: any CPU).
    pub cpu: Option<CpuId>,
    /// A sampling event.
    pub sampling: bool,
    /// Any `exclude_*` flag set.
    pub excludes: bool,
    /// A per-task event.
    pub per_task: bool,
}

/// An event being created: what `event_init` receives. It is not yet
/// installed: it has no data, no count and no slot; it can be moved to
/// another CPU and its group can be looked at.
///
/// # Invariants
///
/// Made only from the event perf passes to `event_init`, for that call.
#[repr(transparent)]
pub struct NewEvent(Opaque<bindings::perf_event>);

/// Another member of a new event's group, to look at: its attributes and
/// identity only (it may be counting on another CPU).
///
/// # Invariants
///
/// Made only from a live group member during `event_init`, for that call.
#[repr(transparent)]
pub struct GroupMember(Opaque<bindings::perf_event>);

impl GroupMember {
    /// The member's `config`, `config1` and `config2`.
    pub fn config(&self) -> Config {
        // SAFETY: The member is live (type invariant).
        unsafe { config_of(self.0.get()) }
    }
}

impl NewEvent {
    /// # Safety
    ///
    /// `ptr` must be the event passed to `event_init`, and the returned
    /// reference must not outlive that call.
    unsafe fn from_raw<'a>(ptr: *mut bindings::perf_event) -> &'a mut NewEvent {
        // SAFETY: `NewEvent` is a transparent wrapper of the event, which the caller guarantees
        // live and not yet visible to anyone else.
        unsafe { &mut *ptr.cast::<NewEvent>() }
    }

    fn raw(&self) -> *mut bindings::perf_event {
        self.0.get()
    }

    /// The event's `config`, `config1` and `config2`.
    pub fn config(&self) -> Config {
        // SAFETY: The event is live (type invariant).
        unsafe { config_of(self.raw()) }
    }

    /// The facts `event_init` checks.
    pub fn info(&self) -> EventInfo {
        let ev = self.raw();
        // SAFETY: The event is live (type invariant); its PMU is the one whose callback runs.
        let (attr_type, pmu_type, cpu, attach) = unsafe {
            (
                (*ev).attr.type_,
                (*(*ev).pmu).type_,
                (*ev).cpu,
                (*ev).attach_state,
            )
        };
        EventInfo {
            for_this_pmu: i64::from(attr_type) == i64::from(pmu_type),
            cpu: CpuId::from_i32(cpu),
            // SAFETY: The event is live; the helpers only read its attributes.
            sampling: unsafe { bindings::ru_is_sampling_event(ev) },
            // SAFETY: As above.
            excludes: unsafe { bindings::ru_event_has_any_exclude_flag(ev) },
            per_task: attach & bindings::PERF_ATTACH_TASK != 0,
        }
    }

    /// Moves the event to `cpu`.
    pub fn set_cpu(&mut self, cpu: CpuId) {
        let ev = self.raw();
        // SAFETY: The event is live and, during `event_init`, not yet installed anywhere, so
        // `&mut self` is its only user. CPU numbers below `nr_cpu_ids` fit an `int`.
        unsafe { (*ev).cpu = cpu.as_u32() as c_int };
    }

    /// Lets any CPU of the package of the event's CPU read it while it
    /// counts (`PERF_EV_CAP_READ_ACTIVE_PKG`): the PMU's `read` then runs
    /// there.
    pub fn set_readable_in_package(&mut self) {
        let ev = self.raw();
        // SAFETY: As in `set_cpu`.
        unsafe { (*ev).event_caps |= bindings::PERF_EV_CAP_READ_ACTIVE_PKG as c_int };
    }

    /// Calls `f` for the other members of the event's group that belong
    /// to the same PMU and are not off (the leader first), stopping at the
    /// first error. perf holds the group leader's context mutex around
    /// `event_init` for a group member only for PMUs outside the software
    /// context: for one in it ([`TaskContext::Software`]) a group member
    /// gets `EINVAL` (6.12's kernel crate has no `EOPNOTSUPP`). A new group
    /// leader has no other member.
    pub fn for_each_group_member(&self, mut f: impl FnMut(&GroupMember) -> Result) -> Result {
        let ev = self.raw();
        // SAFETY: The event is live (type invariant); perf set its PMU and group leader.
        let (pmu, leader) = unsafe { ((*ev).pmu, (*ev).group_leader) };
        if leader == ev {
            return Ok(());
        }
        // SAFETY: `pmu` is the PMU whose `event_init` runs, registered.
        if unsafe { (*pmu).task_ctx_nr } == bindings::perf_event_task_context_perf_sw_context {
            return Err(EINVAL);
        }
        // SAFETY: The event is a member of a group of a PMU outside the software context:
        // `perf_try_init_event` holds the leader's context mutex for the call (asserted under
        // lockdep), which keeps the leader and its sibling list as they are, as the kernel's
        // own PMU drivers rely on to validate a group in `event_init`. Each member is live for
        // the call; `GroupMember` only reads its attributes.
        unsafe {
            bindings::ru_lockdep_assert_event_ctx(leader);
            if (*leader).pmu == pmu {
                f(&*leader.cast::<GroupMember>())?;
            }
            let head = &raw mut (*leader).sibling_list;
            let mut pos = (*head).next;
            while pos != head {
                let sib = super::compat::container_of!(pos, bindings::perf_event, sibling_list);
                if (*sib).pmu == pmu
                    && (*sib).state > bindings::perf_event_state_PERF_EVENT_STATE_OFF
                {
                    f(&*sib.cast::<GroupMember>())?;
                }
                pos = (*pos).next;
            }
        }
        Ok(())
    }
}

/// The right to put an event in an [`EventSlots`] entry: `add` receives
/// one for its event and gives it up to [`EventSlots::set`]; the `del`
/// trampoline (or a failed `add`) empties the entry. One per `add`, so an
/// event is in at most one entry, and only between its `add` and `del`.
///
/// # Invariants
///
/// Made only by the `add` trampoline, for the event of that call, which is
/// in no entry yet.
pub struct Adding<'a, D> {
    ev: &'a Event<D>,
}

/// The callbacks of a PMU. Contexts: `event_init` in process context;
/// `add`, `del`, `start`, `stop`, `enable`, `disable` with interrupts off
/// on the event's CPU; `read` on any CPU of the event's package, with
/// interrupts off.
#[vtable]
pub trait PmuOps: Send + Sync + Sized + 'static {
    /// How the PMU registers.
    const OPTIONS: PmuOptions;
    /// What the PMU keeps for each of its events: `event_init` returns
    /// it, every later callback reads it ([`Event::data`]). At most 32
    /// bytes (the build fails otherwise).
    type EventData: Copy + Send + Sync + 'static;
    /// Validates a new event and returns its data.
    fn event_init(&self, ev: &mut NewEvent) -> Result<Self::EventData>;
    /// Schedules the event on a counter; `entry` lets it be put in an
    /// [`EventSlots`] entry until its `del`.
    fn add(
        &self,
        irq: &IrqsOff,
        ev: &Event<Self::EventData>,
        entry: Adding<'_, Self::EventData>,
        flags: Flags,
    ) -> Result;
    /// Removes the event from its counter (its entry is emptied after).
    fn del(&self, irq: &IrqsOff, ev: &Event<Self::EventData>, flags: Flags);
    /// Starts counting.
    fn start(&self, irq: &IrqsOff, ev: &Event<Self::EventData>, flags: Flags);
    /// Stops counting.
    fn stop(&self, irq: &IrqsOff, ev: &Event<Self::EventData>, flags: Flags);
    /// Updates the event's count (any CPU of the event's package, NMI
    /// included).
    fn read(&self, rd: Reading<'_>, ev: &Event<Self::EventData>);
    /// Lets the PMU's counters run after a batch of changes (`pmu_enable`).
    fn enable(&self, _irq: &IrqsOff) {
        kernel::build_error!(VTABLE_DEFAULT_ERROR)
    }
    /// Freezes the PMU's counters before a batch of changes (`pmu_disable`).
    fn disable(&self, _irq: &IrqsOff) {
        kernel::build_error!(VTABLE_DEFAULT_ERROR)
    }
    /// The CPUs the PMU's `cpumask` file shows, for a PMU that handles
    /// CPUs itself ([`Scope::None`]); a PMU without it has no such file.
    fn cpumask(&self) -> &CpuMask {
        kernel::build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// The C side of a PMU: the `struct pmu` callbacks of a [`Registration<T>`].
struct Adapter<T: PmuOps>(PhantomData<T>);

impl<T: PmuOps> Adapter<T> {
    /// # Safety
    ///
    /// `pmu` must be the `struct pmu` of a live [`Registration<T>`].
    unsafe fn ops<'a>(pmu: *mut bindings::pmu) -> &'a T {
        // SAFETY: As the function's own requirement.
        unsafe { &Self::registration(pmu).ops }
    }

    /// # Safety
    ///
    /// `pmu` must be the `struct pmu` of a live [`Registration<T>`].
    unsafe fn registration<'a>(pmu: *mut bindings::pmu) -> &'a Registration<T> {
        // SAFETY: By the function's requirement `pmu` is the `pmu` field of a
        // `Registration<T>`, which is pinned and outlives every callback.
        unsafe { &*super::compat::container_of!(pmu, Registration<T>, pmu) }
    }

    /// # Safety
    ///
    /// Called by perf for a PMU of a [`Registration<T>`], with a live event.
    unsafe extern "C" fn event_init_callback(ev: *mut bindings::perf_event) -> c_int {
        from_result(|| {
            // SAFETY: perf calls `event_init` with an event whose `pmu` is this PMU, and the
            // event is alive and not yet installed for the whole call.
            let (reg, new) = unsafe { (Self::registration((*ev).pmu), NewEvent::from_raw(ev)) };
            // Counted before the check, which the drop makes after closing: either this sees
            // the registration closing, or the drop sees this event.
            reg.live.fetch_add(1, Ordering::SeqCst);
            if reg.closing.load(Ordering::SeqCst) {
                reg.live.fetch_sub(1, Ordering::Release);
                return Err(ENODEV);
            }
            let data = reg.ops.event_init(new).inspect_err(|_| {
                reg.live.fetch_sub(1, Ordering::Release);
            })?;
            // SAFETY: The event is live and not yet installed, so nothing else reads its room or
            // its `hw.idx`; from here its room holds a `T::EventData` (the `Event` invariant),
            // and it is in no entry.
            unsafe {
                DataRoom::<T::EventData>::of(ev).write(data);
                idx_of(ev).store(-1, Ordering::Relaxed);
                added_package_of(ev).store(-1, Ordering::Relaxed);
                // perf calls it once for an event that passed `event_init`, whether it fails
                // later or is freed.
                (*ev).destroy = Some(Self::destroy_callback);
            }
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by perf once for an event of a [`Registration<T>`] that
    /// passed `event_init`, when it is freed (or revoked, or fails after
    /// `event_init`), before the registration is dropped.
    unsafe extern "C" fn destroy_callback(ev: *mut bindings::perf_event) {
        // SAFETY: perf calls `destroy` with the event's `pmu` still this PMU, whose registration
        // waits for (or revokes) its events before it is dropped.
        let reg = unsafe { Self::registration((*ev).pmu) };
        reg.live.fetch_sub(1, Ordering::Release);
    }

    /// # Safety
    ///
    /// Called by perf for a PMU of a [`Registration<T>`], with a live event.
    unsafe extern "C" fn add_callback(ev: *mut bindings::perf_event, flags: c_int) -> c_int {
        from_result(|| {
            // SAFETY: perf calls `add` with an event of this PMU, alive for the call, which
            // passed `event_init`.
            let (t, ev) = unsafe { (Self::ops((*ev).pmu), Event::from_raw(ev)) };
            // INVARIANT: The event is in no entry: a failed `add` and every `del` emptied it.
            let entry = Adding { ev };
            // A failed `add` is not followed by `del`: no entry may keep the event.
            // SAFETY: perf calls `add` with interrupts off on the event's CPU, for the call.
            let irq = unsafe { IrqsOff::new() };
            let pkg = i32::try_from(irq.package()).unwrap_or(-1);
            // SAFETY: The event is live for the call; perf serialises `add` with `read` (both
            // under the event context's lock, or `read` on this CPU after it).
            unsafe { added_package_of(ev.raw()) }.store(pkg, Ordering::Relaxed);
            t.add(&irq, ev, entry, Flags(flags as u32))
                .inspect_err(|_| slots::release(ev))?;
            Ok(0)
        })
    }

    /// # Safety
    ///
    /// Called by perf for a PMU of a [`Registration<T>`], with a live event.
    unsafe extern "C" fn del_callback(ev: *mut bindings::perf_event, flags: c_int) {
        // SAFETY: perf calls `del` with an event of this PMU, alive for the call, which passed
        // `event_init`.
        let (t, ev) = unsafe { (Self::ops((*ev).pmu), Event::from_raw(ev)) };
        // SAFETY: perf calls `del` with interrupts off on the event's CPU, for the call.
        t.del(&unsafe { IrqsOff::new() }, ev, Flags(flags as u32));
        // Until the next `add` the event is on no CPU: a `read` then (perf makes none, but the
        // type promises) gets no package proof, wherever the event moves meanwhile.
        // SAFETY: The event is live for the call.
        unsafe { added_package_of(ev.raw()) }.store(-1, Ordering::Relaxed);
        // After `del` perf may free the event: no slot may keep it.
        slots::release(ev);
    }

    /// # Safety
    ///
    /// Called by perf for a PMU of a [`Registration<T>`], with a live event.
    unsafe extern "C" fn start_callback(ev: *mut bindings::perf_event, flags: c_int) {
        // SAFETY: perf calls `start` with an event of this PMU, alive for the call, which passed
        // `event_init`.
        let (t, ev) = unsafe { (Self::ops((*ev).pmu), Event::from_raw(ev)) };
        // SAFETY: perf calls `start` with interrupts off on the event's CPU, for the call.
        t.start(&unsafe { IrqsOff::new() }, ev, Flags(flags as u32));
    }

    /// # Safety
    ///
    /// Called by perf for a PMU of a [`Registration<T>`], with a live event.
    unsafe extern "C" fn stop_callback(ev: *mut bindings::perf_event, flags: c_int) {
        // SAFETY: perf calls `stop` with an event of this PMU, alive for the call, which passed
        // `event_init`.
        let (t, ev) = unsafe { (Self::ops((*ev).pmu), Event::from_raw(ev)) };
        // SAFETY: perf calls `stop` with interrupts off on the event's CPU, for the call.
        t.stop(&unsafe { IrqsOff::new() }, ev, Flags(flags as u32));
    }

    /// # Safety
    ///
    /// Called by perf for a PMU of a [`Registration<T>`], with a live event.
    unsafe extern "C" fn read_callback(ev: *mut bindings::perf_event) {
        // SAFETY: perf calls `read` with an event of this PMU, alive for the call, which passed
        // `event_init`.
        let (t, ev) = unsafe { (Self::ops((*ev).pmu), Event::from_raw(ev)) };
        // SAFETY: perf calls `read` with interrupts off (a cross-CPU call, a local read with
        // them saved, or an NMI), for the call.
        let irq = unsafe { IrqsOff::new() };
        // SAFETY: The event is live for the call.
        let pkg = unsafe { added_package_of(ev.raw()) }.load(Ordering::Relaxed);
        // INVARIANT: perf reads only an active event, on the CPU it was added on or (readable in
        // the package) on a CPU of that CPU's package, which `add` recorded; `read` cannot keep
        // the value past the call (its lifetime).
        let rd = Reading {
            irq,
            pkg: usize::try_from(pkg).ok(),
            _call: PhantomData,
        };
        t.read(rd, ev);
    }

    /// # Safety
    ///
    /// Called by perf with the `struct pmu` of a [`Registration<T>`].
    unsafe extern "C" fn enable_callback(pmu: *mut bindings::pmu) {
        // SAFETY: perf passes this PMU, with interrupts off for the call (`perf_pmu_enable`
        // runs under the context's lock or in a scheduling callback).
        unsafe { Self::ops(pmu).enable(&IrqsOff::new()) };
    }

    /// # Safety
    ///
    /// Called by perf with the `struct pmu` of a [`Registration<T>`].
    unsafe extern "C" fn disable_callback(pmu: *mut bindings::pmu) {
        // SAFETY: perf passes this PMU, with interrupts off for the call (`perf_pmu_disable`
        // runs under the context's lock or in a scheduling callback).
        unsafe { Self::ops(pmu).disable(&IrqsOff::new()) };
    }

    /// Fails the build for a PMU with both a scope and a `cpumask` of its
    /// own: perf makes the file of a scoped PMU.
    const ONE_CPUMASK: () = assert!(
        !T::HAS_CPUMASK || matches!(T::OPTIONS.scope, Scope::None),
        "a PMU with a scope gets its cpumask from perf"
    );

    /// The `struct pmu` of a `T` PMU with its [`PmuOptions`], owned by
    /// `module`.
    fn build(module: &'static ThisModule) -> bindings::pmu {
        let () = Self::ONE_CPUMASK;
        let o = T::OPTIONS;
        bindings::pmu {
            module: module.as_ptr(),
            task_ctx_nr: match o.task_context {
                TaskContext::None => bindings::perf_event_task_context_perf_invalid_context,
                TaskContext::Hardware => bindings::perf_event_task_context_perf_hw_context,
                TaskContext::Software => bindings::perf_event_task_context_perf_sw_context,
            },
            capabilities: o.capabilities.0 as c_int,
            scope: match o.scope {
                Scope::None => bindings::PERF_PMU_SCOPE_NONE,
                Scope::Core => bindings::PERF_PMU_SCOPE_CORE,
                Scope::Die => bindings::PERF_PMU_SCOPE_DIE,
                Scope::Cluster => bindings::PERF_PMU_SCOPE_CLUSTER,
                Scope::Package => bindings::PERF_PMU_SCOPE_PKG,
                Scope::System => bindings::PERF_PMU_SCOPE_SYS_WIDE,
            },
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

/// A registered PMU: its `struct pmu`, its name and sysfs files
/// (`format/`, `events/`, and `cpumask` if it has one), and the driver
/// object `T` whose callbacks it runs. Dropping it unregisters the PMU
/// (it sleeps: process context only).
///
/// Its events do not outlive it: a kernel whose `perf_pmu_unregister`
/// revokes the PMU's events does that; on one that does not (6.12), the
/// drop refuses new events (`ENODEV`) and waits until perf has destroyed
/// every event opened before (a user holding one open keeps the drop
/// waiting, with a message in the kernel log). What 6.12's free path does
/// after `destroy` (dropping its context and module references, a few
/// statements without sleeping) has no later callback to count: the
/// unregister waits for RCU grace periods before it frees anything, which
/// is after those statements unless their task is preempted in between
/// (6.12 offers nothing stronger; 7.x revokes).
///
/// # Invariants
///
/// `pmu` is registered with perf, with `sysfs`'s attribute groups and name,
/// from the end of initialisation until drop. `live` counts the events
/// that passed `event_init` and have not been destroyed.
#[pin_data(PinnedDrop)]
pub struct Registration<T: PmuOps> {
    sysfs: Sysfs,
    ops: T,
    live: AtomicUsize,
    closing: AtomicBool,
    #[pin]
    pmu: Opaque<bindings::pmu>,
}

/// A PMU's name and attribute groups, which its `struct pmu` points to
/// (both on the heap: moving this does not move them).
struct Sysfs {
    name: CString,
    attrs: KBox<AttrGroups>,
}

// SAFETY: perf serialises access to the `struct pmu`; the rest is owned data of `Send` types.
unsafe impl<T: PmuOps> Send for Registration<T> {}
// SAFETY: `&self` methods only read `ops` (which is `Sync`) or call perf functions that lock
// internally.
unsafe impl<T: PmuOps> Sync for Registration<T> {}

impl<T: PmuOps> Registration<T> {
    /// Registers a PMU named `name`, driven by `ops`, with these `format/`
    /// and `events/` files. Nothing stays registered on error.
    pub fn new(
        module: &'static ThisModule,
        name: &CStr,
        ops: T,
        formats: &[Attr<'_>],
        events: &[Attr<'_>],
    ) -> impl PinInit<Self, Error> {
        let sysfs = CString::try_from(name)
            .map_err(Error::from)
            .and_then(|name| {
                Ok(Sysfs {
                    name,
                    attrs: AttrGroups::new::<T>(formats, events)?,
                })
            });
        let (name_ptr, groups) = match &sysfs {
            Ok(f) => (f.name.as_char_ptr(), f.attrs.groups_ptr()),
            Err(_) => (core::ptr::null(), core::ptr::null_mut()),
        };
        try_pin_init!(Self {
            sysfs: sysfs?,
            // Before the PMU: its callbacks may run as soon as it is registered.
            ops,
            live: AtomicUsize::new(0),
            closing: AtomicBool::new(false),
            pmu <- super::compat::opaque_try_ffi_init(move |pmu: *mut bindings::pmu| {
                let mut raw = Adapter::<T>::build(module);
                raw.attr_groups = groups;
                // SAFETY: `pmu` is the field's place, pinned; `name_ptr` and `groups` point into
                // `sysfs`, initialised above and dropped only after the PMU is unregistered
                // (`PinnedDrop`), or with it if registering fails.
                unsafe {
                    pmu.write(raw);
                    to_result(bindings::perf_pmu_register(pmu, name_ptr, -1))
                }
            }),
        }? Error)
    }

    /// The driver object.
    pub fn ops(&self) -> &T {
        &self.ops
    }

    /// The PMU's type number (`attr.type` of its events).
    pub fn pmu_type(&self) -> u32 {
        // SAFETY: The PMU is registered (type invariant); `perf_pmu_register` set `type` and
        // nothing changes it afterwards.
        let t = unsafe { (*self.pmu.get()).type_ };
        t as u32
    }

    /// Moves every event of this PMU on CPU `from` to CPU `to`, an online
    /// CPU of the same package (the events' package proofs stay true);
    /// `EINVAL` for CPUs of two packages or an offline `to` (perf would
    /// leave the events installed nowhere). Meant for a hotplug callback of
    /// `from`, where `to` cannot go offline meanwhile.
    pub fn migrate(&self, from: CpuId, to: CpuId) -> Result {
        if from.package() != to.package() || !to.is_online() {
            return Err(EINVAL);
        }
        // SAFETY: The PMU is registered (type invariant); perf locks both contexts. CPU numbers
        // below `nr_cpu_ids` fit an `int`.
        unsafe {
            bindings::perf_pmu_migrate_context(
                self.pmu.get(),
                from.as_u32() as c_int,
                to.as_u32() as c_int,
            )
        };
        Ok(())
    }
}

#[pinned_drop]
impl<T: PmuOps> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        self.closing.store(true, Ordering::SeqCst);
        if !super::compat::PMU_UNREGISTER_REVOKES {
            self.wait_for_events();
        }
        // SAFETY: The PMU is registered (type invariant), without `event_unmapped`; a drop
        // runs in process context. Unregistering removes its sysfs files (waiting for
        // readers), waits for running callbacks and revokes the events left (where the kernel
        // does; elsewhere none is left); afterwards nothing refers to the fields dropped after
        // this.
        unsafe { super::compat::perf_pmu_unregister(self.pmu.get()) };
    }
}

impl<T: PmuOps> Registration<T> {
    /// Waits until every event of the PMU has been destroyed: perf frees an
    /// event when its last user closes it. New events are refused already.
    fn wait_for_events(&self) {
        let mut said = false;
        loop {
            let n = self.live.load(Ordering::Acquire);
            if n == 0 {
                return;
            }
            if !said {
                pr_info!(
                    "perf PMU type {}: waiting for {} event(s) to be closed before unregistering\n",
                    self.pmu_type(),
                    n
                );
                said = true;
            }
            // SAFETY: The drop runs in process context (it unregisters, which sleeps).
            unsafe { bindings::msleep(20) };
        }
    }
}

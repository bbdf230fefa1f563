// SPDX-License-Identifier: GPL-2.0

//! perf PMUs, with this driver's policy on top of the generic abstraction.
//!
//! The generic part is `kernel::perf`, the files of the patch series
//! (`rfc/rust/kernel/perf.rs` and `perf/`), mounted unchanged as
//! [`series::perf`](super::series::perf): the `#[vtable]` PMU trait, its
//! trampolines, events, attributes and the pinned registration. What this
//! file adds is the policy the series leaves to drivers, as an adapter
//! (`Policy<T>`, which implements the series' `Pmu` for a [`PmuOps`]):
//!
//! - [`EventSlots`]: entries that hold an event between its `add` and its
//!   `del` for code outside its callbacks (a timer, an interrupt work); the
//!   entry's number and the entries are kept in the event's data, and the
//!   `del` callback (or a failed `add`) empties the entry, whatever the
//!   driver does;
//! - [`Reading`]: `read` knows the package it runs in, recorded by `add`
//!   (an [`OnPackage`] proof for MSR accesses);
//! - counts added atomically from any CPU of the package
//!   ([`Event::add_count`]; the series' `count_add` is `local64_add`);
//! - on a kernel whose `perf_pmu_unregister` does not revoke events
//!   (6.12), a [`Registration`] drop that refuses new events and waits for
//!   the live ones (their data counts them);
//! - names of sysfs files as `&str`, their values as anything `Display`
//!   ([`Attr`]).
//!
//! C header: [`include/linux/perf_event.h`](srctree/include/linux/perf_event.h)

mod slots;

use super::bindings;
use super::cpu::{CpuId, IrqsOff, OnPackage};
use super::cpumask::CpuMask;
use super::series::perf as generic;
use crate::cpumask::Cpumask;
use crate::interrupt::LocalInterruptDisabled;
use core::ptr::{null_mut, NonNull};
use core::sync::atomic::{AtomicBool, AtomicI64, AtomicPtr, AtomicUsize, Ordering};
use kernel::error::VTABLE_DEFAULT_ERROR;
use kernel::prelude::*;
use kernel::str::{CStr, CString};
use kernel::ThisModule;

pub use generic::{
    Capabilities, Capability, Config, EventFlag, EventFlags, HwState, HwStates, Scope, TaskContext,
};
pub use slots::EventSlots;

/// How a PMU registers.
#[derive(Clone, Copy, Debug)]
pub struct PmuOptions {
    /// Its capabilities.
    pub capabilities: Capabilities,
    /// Where its per-task events live.
    pub task_context: TaskContext,
    /// Its scope.
    pub scope: Scope,
    /// Whether any CPU of an event's package may read it
    /// (`PERF_EV_CAP_READ_ACTIVE_PKG`, the series' `Pmu::READ_IN_PACKAGE`).
    pub readable_in_package: bool,
}

/// One `format/` or `events/` file of a PMU.
#[derive(Clone, Copy)]
pub struct Attr<'a> {
    /// File name.
    pub name: &'a str,
    /// Content, written out once when the PMU is registered (an alias'
    /// terms are kept packed until then).
    pub value: &'a dyn core::fmt::Display,
}

impl core::fmt::Debug for Attr<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "Attr {{ name: {:?}, value: \"{}\" }}",
            self.name, self.value
        )
    }
}

/// No package recorded: the event is between a `del` and its next `add`.
const NO_PACKAGE: usize = usize::MAX;

/// No entry of an [`EventSlots`] holds the event.
const NO_ENTRY: usize = usize::MAX;

/// What the layer keeps for each event (the series' per-event data, in a
/// `KBox`): the PMU's data `D`, the entry that holds the event and the
/// package it was added on.
///
/// # Invariants
///
/// `slots` is NULL or a reference (from `Arc::into_raw`) to the entries
/// whose entry `idx` holds the event; `live` counts the value in its
/// registration's live events.
struct State<D> {
    data: D,
    idx: AtomicUsize,
    pkg: AtomicUsize,
    slots: AtomicPtr<EventSlots>,
    _live: Live,
}

/// One count in a registration's live events, given back when dropped
/// (the series drops an event's data when perf destroys the event).
///
/// # Invariants
///
/// Points to the `live` counter of a `Policy` that outlives the value: a
/// [`Registration`] drop waits for its events' data to be dropped, or perf
/// revokes them (dropping it) before the counter goes.
struct Live(NonNull<AtomicUsize>);

impl Live {
    /// Counts one more live event in `counter`.
    fn new(counter: &AtomicUsize) -> Self {
        // Sequentially consistent with the drop's `closing`: either the drop sees this event or
        // the caller sees the drop.
        counter.fetch_add(1, Ordering::SeqCst);
        // INVARIANT: The counter is a `Policy`'s, which outlives its events' data.
        Live(NonNull::from(counter))
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        // SAFETY: The counter outlives the value (type invariant).
        unsafe { self.0.as_ref() }.fetch_sub(1, Ordering::Release);
    }
}

// SAFETY: `Live` only decrements an atomic counter, from any CPU.
unsafe impl Send for Live {}
// SAFETY: As above; `&Live` gives no access.
unsafe impl Sync for Live {}

/// A perf event, as a PMU callback (`add`, `del`, `start`, `stop`, `read`)
/// receives it: the series' event of the adapter, with the layer's view.
#[repr(transparent)]
pub struct Event<T: PmuOps>(generic::Event<Policy<T>>);

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

impl<T: PmuOps> Event<T> {
    fn from_generic(ev: &generic::Event<Policy<T>>) -> &Self {
        // SAFETY: `Event` is a transparent wrapper of the series' event, borrowed for as long.
        unsafe { &*core::ptr::from_ref(ev).cast::<Self>() }
    }

    fn layer(&self) -> &State<T::EventData> {
        self.0.data()
    }

    fn raw(&self) -> *mut bindings::perf_event {
        self.0.as_raw()
    }

    /// The event's identity.
    pub fn id(&self) -> EventId {
        EventId(self.raw() as usize)
    }

    /// The event's `config`, `config1` and `config2`.
    pub fn config(&self) -> Config {
        self.0.config()
    }

    /// The data `event_init` returned for the event.
    pub fn data(&self) -> T::EventData {
        self.layer().data
    }

    /// Adds `delta` to the event's count, atomically from any CPU.
    pub fn add_count(&self, delta: u64) {
        // SAFETY: The series' event is live for the callback.
        unsafe { add_count(self.raw(), delta) }
    }

    /// Replaces the event's previous counter value (`hw.prev_count`) with
    /// `value` and returns the one it held: the usual way to count the
    /// difference since the last update. Atomic, in any context.
    pub fn swap_prev_count(&self, value: u64) -> u64 {
        self.0.prev_count_xchg(value)
    }

    /// The counter's state as the PMU recorded it (`hw.state`).
    pub fn state(&self) -> HwStates {
        self.0.state()
    }

    /// Records the counter's state (`hw.state`).
    pub fn set_state(&self, state: HwStates) {
        self.0.set_state(state);
    }

    /// The entry of the event's [`EventSlots`] (the one its `add` put it
    /// in); `None` outside `add`..`del`.
    pub fn index(&self) -> Option<usize> {
        let i = self.layer().idx.load(Ordering::Acquire);
        (i != NO_ENTRY).then_some(i)
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

/// What `read` runs with: the series' [`generic::ReadContext`] (interrupts
/// off, possibly NMI: nothing that takes a lock), and the knowledge that
/// this CPU is one of the package of the CPU the event was added on. perf
/// reads an active event on its CPU, or, for a PMU readable in the package
/// ([`PmuOptions::readable_in_package`]), on another CPU of the same
/// package; an event that is not active is not read. Only the adapter's
/// `read` makes one.
///
/// # Invariants
///
/// `pkg`, when known, is the package of the CPU running the callback, and
/// `irq`'s invariant holds for as long as the value lives.
pub struct Reading<'a> {
    irq: IrqsOff,
    pkg: Option<usize>,
    ctx: &'a generic::ReadContext,
}

impl Reading<'_> {
    /// The series' token for `read`.
    pub fn context(&self) -> &generic::ReadContext {
        self.ctx
    }

    /// The proof that this CPU is one of package `pkg`'s, if it is; known
    /// without asking the CPU.
    pub fn on(&self, pkg: usize) -> Option<OnPackage<'_>> {
        // SAFETY: `self.pkg` is this CPU's package (type invariant).
        (self.pkg == Some(pkg)).then(|| unsafe { OnPackage::new_unchecked(&self.irq, pkg) })
    }
}

/// What a PMU needs to know about a new event to accept or refuse it
/// (only events opened for it reach it: the series refuses the others).
#[derive(Clone, Copy, Debug)]
pub struct EventInfo {
    /// The CPU it was opened on (`None`: any CPU).
    pub cpu: Option<CpuId>,
    /// A sampling event.
    pub sampling: bool,
    /// Any `exclude_*` flag set.
    pub excludes: bool,
    /// A per-task event.
    pub per_task: bool,
}

/// An event being created: what `event_init` receives (the series'
/// `NewEvent`, with CPUs as this layer's [`CpuId`]).
#[repr(transparent)]
pub struct NewEvent<T: PmuOps>(generic::NewEvent<Policy<T>>);

impl<T: PmuOps> NewEvent<T> {
    fn from_generic(ev: &mut generic::NewEvent<Policy<T>>) -> &mut Self {
        // SAFETY: `NewEvent` is a transparent wrapper of the series' one, borrowed for as long.
        unsafe { &mut *core::ptr::from_mut(ev).cast::<Self>() }
    }

    /// The event's `config`, `config1` and `config2`.
    pub fn config(&self) -> Config {
        self.0.config()
    }

    /// The facts `event_init` checks.
    pub fn info(&self) -> EventInfo {
        EventInfo {
            cpu: self.0.cpu().map(CpuId::from_kernel),
            sampling: self.0.is_sampling(),
            excludes: self.0.has_exclude(),
            per_task: self.0.is_per_task(),
        }
    }

    /// Moves the event to `cpu`.
    pub fn set_cpu(&mut self, cpu: CpuId) {
        self.0.set_cpu(cpu.to_kernel());
    }

    /// Calls `f` for the other members of the event's group that belong
    /// to the same PMU and are enabled (the leader first), stopping at the
    /// first error; `EINVAL` for a member of a group of a PMU in the
    /// software context, where perf does not lock the group. Leaving out
    /// the members that are off (or in error, or gone) is this driver's
    /// policy, as x86's C uncore driver does; the series shows them all.
    pub fn for_each_group_member(&self, mut f: impl FnMut(&GroupMember<T>) -> Result) -> Result {
        self.0.for_each_group_member(|m| {
            if m.state().is_enabled() {
                f(GroupMember::from_generic(m))
            } else {
                Ok(())
            }
        })
    }
}

/// Another member of a new event's group, of the same PMU (the series'
/// `GroupMember`).
#[repr(transparent)]
pub struct GroupMember<T: PmuOps>(generic::GroupMember<Policy<T>>);

impl<T: PmuOps> GroupMember<T> {
    fn from_generic(m: &generic::GroupMember<Policy<T>>) -> &Self {
        // SAFETY: `GroupMember` is a transparent wrapper of the series' one, borrowed for as
        // long.
        unsafe { &*core::ptr::from_ref(m).cast::<Self>() }
    }

    /// The member's `config`, `config1` and `config2`.
    pub fn config(&self) -> Config {
        self.0.config()
    }

    /// The data the member's `event_init` returned.
    pub fn data(&self) -> T::EventData {
        self.0.data().data
    }
}

/// The right to put an event in an [`EventSlots`] entry: `add` receives
/// one for its event and gives it up to [`EventSlots::set`]; `del` (or a
/// failed `add`) empties the entry. One per `add`, so an event is in at
/// most one entry, and only between its `add` and `del`.
///
/// # Invariants
///
/// Made only by the adapter's `add`, for the event of that call, which is
/// in no entry yet.
pub struct Adding<'a, T: PmuOps> {
    ev: &'a Event<T>,
}

/// The callbacks of a PMU. Contexts: `event_init` in process context;
/// `add`, `del`, `enable`, `disable` with interrupts off on the event's
/// CPU; `start`, `stop` on the event's CPU with interrupts off (the
/// adapter turns them off where perf does not: a throttle from a software
/// event's overflow in task context); `read` on any CPU of the event's
/// package, with interrupts off, possibly in NMI (nothing there may take
/// a lock).
#[vtable]
pub trait PmuOps: Send + Sync + Sized + 'static {
    /// How the PMU registers.
    const OPTIONS: PmuOptions;
    /// What the PMU keeps for each of its events: `event_init` returns
    /// it, every later callback reads it ([`Event::data`]).
    type EventData: Copy + Send + Sync + 'static;
    /// Validates a new event and returns its data.
    fn event_init(&self, ev: &mut NewEvent<Self>) -> Result<Self::EventData>;
    /// Schedules the event on a counter; `entry` lets it be put in an
    /// [`EventSlots`] entry until its `del`.
    fn add(
        &self,
        irq: &IrqsOff,
        ev: &Event<Self>,
        entry: Adding<'_, Self>,
        flags: EventFlags,
    ) -> Result;
    /// Removes the event from its counter (its entry is emptied after).
    fn del(&self, irq: &IrqsOff, ev: &Event<Self>, flags: EventFlags);
    /// Starts counting.
    fn start(&self, irq: &IrqsOff, ev: &Event<Self>, flags: EventFlags);
    /// Stops counting.
    fn stop(&self, irq: &IrqsOff, ev: &Event<Self>, flags: EventFlags);
    /// Updates the event's count (any CPU of the event's package, NMI
    /// included: lock-free, with what [`Reading`] gives).
    fn read(&self, rd: Reading<'_>, ev: &Event<Self>);
    /// Lets the PMU's counters run after a batch of changes (`pmu_enable`:
    /// per CPU, nested calls only the outermost, possibly with no event).
    fn enable(&self, _irq: &IrqsOff) {
        kernel::build_error!(VTABLE_DEFAULT_ERROR)
    }
    /// Freezes the PMU's counters before a batch of changes
    /// (`pmu_disable`, as `enable`).
    fn disable(&self, _irq: &IrqsOff) {
        kernel::build_error!(VTABLE_DEFAULT_ERROR)
    }
    /// The CPUs the PMU's `cpumask` file shows, for a PMU that handles
    /// CPUs itself ([`Scope::None`]), as they are each time the file is
    /// read; a PMU without it has no such file.
    fn cpumask(&self) -> &CpuMask {
        kernel::build_error!(VTABLE_DEFAULT_ERROR)
    }
}

/// The series' PMU of a `T`: `T`, and the count of its live events for a
/// drop on a kernel that does not revoke them.
struct Policy<T: PmuOps> {
    ops: T,
    live: AtomicUsize,
    closing: AtomicBool,
}

/// Lends the callback's proof that interrupts are off to `f`, as this
/// layer's.
fn with_irqs_off<R>(_irq: &LocalInterruptDisabled, f: impl FnOnce(&IrqsOff) -> R) -> R {
    // SAFETY: The series' proof says interrupts are off on this CPU for as long as it is
    // borrowed, which outlasts `f`; the value is only lent to `f`.
    let irq = unsafe { IrqsOff::new() };
    f(&irq)
}

/// Runs `start` or `stop` (`f`) with interrupts off: perf calls them with
/// interrupts off, except to throttle the event's group from a software
/// event's overflow in task context, with them on. (An NMI calls them only
/// for a group with a hardware event that overflows in NMI: an event of
/// this layer's PMUs is in none, as they have no overflow interrupt and a
/// group holds one hardware PMU's events.)
fn with_irqs_saved(_ctx: &generic::StartStopContext, f: impl FnOnce(&IrqsOff)) {
    // SAFETY: Disables interrupts on this CPU; restored below with the same flags.
    let flags = unsafe { bindings::ru_local_irq_save() };
    // SAFETY: Interrupts are off until the restore below, after `f`, to which the value is only
    // lent (`f` is the adapter's call of `start` or `stop`, and returns nothing).
    f(&unsafe { IrqsOff::new() });
    // SAFETY: Restores what `ru_local_irq_save` returned above.
    unsafe { bindings::ru_local_irq_restore(flags) };
}

#[vtable]
impl<T: PmuOps> generic::Pmu for Policy<T> {
    const CAPABILITIES: Capabilities = T::OPTIONS.capabilities;
    const TASK_CONTEXT: TaskContext = T::OPTIONS.task_context;
    const SCOPE: Scope = T::OPTIONS.scope;
    const READ_IN_PACKAGE: bool = T::OPTIONS.readable_in_package;
    const HAS_ENABLE: bool = T::HAS_ENABLE;
    const HAS_DISABLE: bool = T::HAS_DISABLE;
    const HAS_CPUMASK: bool = T::HAS_CPUMASK;
    type EventData = KBox<State<T::EventData>>;

    fn event_init(&self, ev: &mut generic::NewEvent<Self>) -> Result<KBox<State<T::EventData>>> {
        // Counted before the check, which the drop makes after closing: either this sees the
        // registration closing, or the drop sees this event. An error drops the count.
        let live = Live::new(&self.live);
        if self.closing.load(Ordering::SeqCst) {
            return Err(ENODEV);
        }
        let data = self.ops.event_init(NewEvent::from_generic(ev))?;
        // INVARIANT: In no entry yet; `live` is counted.
        let state = State {
            data,
            idx: AtomicUsize::new(NO_ENTRY),
            pkg: AtomicUsize::new(NO_PACKAGE),
            slots: AtomicPtr::new(null_mut()),
            _live: live,
        };
        Ok(KBox::new(state, GFP_KERNEL)?)
    }

    fn add(
        &self,
        ev: &generic::Event<Self>,
        flags: EventFlags,
        irq: &LocalInterruptDisabled,
    ) -> Result {
        let ev = Event::from_generic(ev);
        with_irqs_off(irq, |irq| {
            // perf serialises `add` with `read` (both under the event context's lock, or `read`
            // on this CPU after it).
            ev.layer().pkg.store(irq.package(), Ordering::Relaxed);
            // INVARIANT: The event is in no entry: a failed `add` and every `del` emptied it.
            let entry = Adding { ev };
            // A failed `add` is not followed by `del`: no entry may keep the event.
            self.ops
                .add(irq, ev, entry, flags)
                .inspect_err(|_| slots::release(ev))
        })
    }

    fn del(&self, ev: &generic::Event<Self>, flags: EventFlags, irq: &LocalInterruptDisabled) {
        let ev = Event::from_generic(ev);
        with_irqs_off(irq, |irq| self.ops.del(irq, ev, flags));
        // Until the next `add` the event is on no CPU: a `read` then (perf makes none, but the
        // type promises) gets no package proof, wherever the event moves meanwhile.
        ev.layer().pkg.store(NO_PACKAGE, Ordering::Relaxed);
        // After `del` perf may free the event: no entry may keep it.
        slots::release(ev);
    }

    fn start(&self, ev: &generic::Event<Self>, flags: EventFlags, ctx: &generic::StartStopContext) {
        with_irqs_saved(ctx, |irq| {
            self.ops.start(irq, Event::from_generic(ev), flags);
        });
    }

    fn stop(&self, ev: &generic::Event<Self>, flags: EventFlags, ctx: &generic::StartStopContext) {
        with_irqs_saved(ctx, |irq| {
            self.ops.stop(irq, Event::from_generic(ev), flags);
        });
    }

    fn read(&self, ev: &generic::Event<Self>, ctx: &generic::ReadContext) {
        let ev = Event::from_generic(ev);
        let pkg = ev.layer().pkg.load(Ordering::Relaxed);
        // SAFETY: The series' `ReadContext` says interrupts are off on this CPU for the callback
        // (NMI included); the value goes into a `Reading`, which `read` cannot keep past the call
        // (its lifetime is the token's).
        let irq = unsafe { IrqsOff::new() };
        // INVARIANT: perf reads only an active event, on the CPU it was added on or (readable in
        // the package) on a CPU of that CPU's package, which `add` recorded.
        let rd = Reading {
            irq,
            pkg: (pkg != NO_PACKAGE).then_some(pkg),
            ctx,
        };
        self.ops.read(rd, ev);
    }

    fn enable(&self, irq: &LocalInterruptDisabled) {
        with_irqs_off(irq, |irq| self.ops.enable(irq));
    }

    fn disable(&self, irq: &LocalInterruptDisabled) {
        with_irqs_off(irq, |irq| self.ops.disable(irq));
    }

    fn cpumask(&self, mask: &mut Cpumask) {
        // SAFETY: `mask` is a mask of the kernel crate (a `CpumaskVar`'s, allocated with
        // `cpumask_size()` bytes at least: the words of `nr_cpu_ids` bits), borrowed mutably for
        // the call.
        unsafe { self.ops.cpumask().copy_to(mask.as_raw().cast()) };
    }
}

/// A registered PMU: the series' registration of the adapter. Dropping it
/// unregisters the PMU (it sleeps: process context only).
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
#[pin_data(PinnedDrop)]
pub struct Registration<T: PmuOps> {
    #[pin]
    pmu: generic::Registration<Policy<T>>,
    /// Its name, for the kernel log.
    pmu_name: CString,
}

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
        let policy = Policy {
            ops,
            live: AtomicUsize::new(0),
            closing: AtomicBool::new(false),
        };
        // The series takes C strings, and copies them before this returns.
        let pmu = c_strings(formats, events).and_then(|strings| {
            let mut attrs = KVec::with_capacity(strings.len() / 2, GFP_KERNEL)?;
            for pair in strings.chunks_exact(2) {
                if let [n, v] = pair {
                    attrs.push(generic::Attr { name: n, value: v }, GFP_KERNEL)?;
                }
            }
            let (f, e) = attrs.split_at(formats.len());
            // A value initialises itself, infallibly.
            Ok(generic::Registration::new::<core::convert::Infallible>(
                module, name, policy, f, e,
            ))
        });
        let pmu_name = CString::try_from(name);
        try_pin_init!(Self { pmu <- pmu?, pmu_name: pmu_name? }? Error)
    }

    /// The driver object.
    pub fn ops(&self) -> &T {
        &self.pmu.ops().ops
    }

    /// The PMU's type number (`attr.type` of its events).
    pub fn pmu_type(&self) -> u32 {
        self.pmu.pmu_type()
    }

    /// Moves every event of this PMU on CPU `from` to CPU `to`, another
    /// online CPU of the same package (the events' package proofs stay
    /// true); `EINVAL` for one CPU twice (perf would take its context's
    /// mutex twice: a deadlock), CPUs of two packages or an offline `to`
    /// (perf would leave the events installed nowhere). Meant for a hotplug
    /// callback of `from`, where `to` cannot go offline meanwhile. It
    /// sleeps (perf's context mutexes, a grace period): where the caller
    /// may not, `EINVAL`, nothing moved.
    pub fn migrate(&self, from: CpuId, to: CpuId) -> Result {
        if !super::cpu::may_sleep() {
            return Err(EINVAL);
        }
        if from == to || from.package() != to.package() || !to.is_online() {
            return Err(EINVAL);
        }
        self.pmu.migrate(from.to_kernel(), to.to_kernel())
    }

    /// Waits until every event of the PMU has been destroyed: perf frees an
    /// event when its last user closes it. New events are refused already.
    fn wait_for_events(&self) {
        let live = &self.pmu.ops().live;
        let mut said = false;
        loop {
            // Sequentially consistent with `event_init`'s count and check (a store and a
            // load on each side): either this sees the event, or the event sees `closing`.
            let n = live.load(Ordering::SeqCst);
            if n == 0 {
                return;
            }
            if !said {
                pr_info!(
                    "{}: waiting for {} event(s) to be closed before unregistering\n",
                    self.pmu_name.to_str().unwrap_or("perf PMU"),
                    n
                );
                said = true;
            }
            // SAFETY: The drop runs in process context (it unregisters, which sleeps).
            unsafe { bindings::msleep(20) };
        }
    }
}

/// The names and values of `formats` and `events`, as C strings, in pairs.
fn c_strings(formats: &[Attr<'_>], events: &[Attr<'_>]) -> Result<KVec<CString>> {
    let mut strings = KVec::with_capacity(2 * (formats.len() + events.len()), GFP_KERNEL)?;
    for a in Iterator::chain(formats.iter(), events) {
        strings.push(
            CString::try_from_fmt(format_args!("{}", a.name))?,
            GFP_KERNEL,
        )?;
        strings.push(
            CString::try_from_fmt(format_args!("{}", a.value))?,
            GFP_KERNEL,
        )?;
    }
    Ok(strings)
}

#[pinned_drop]
impl<T: PmuOps> PinnedDrop for Registration<T> {
    fn drop(self: Pin<&mut Self>) {
        self.pmu.ops().closing.store(true, Ordering::SeqCst);
        if !super::compat::PMU_UNREGISTER_REVOKES {
            self.wait_for_events();
        }
        // The series' registration, dropped next, unregisters the PMU (revoking its events
        // where the kernel does; elsewhere none is left).
    }
}

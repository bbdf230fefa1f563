// SPDX-License-Identifier: GPL-2.0

//! One perf PMU per box: event validation, counter scheduling and
//! programming, counting, and the polling timer.
//!
//! Contexts:
//! - `add`, `del`, `start`, `stop` and the PMU enable/disable callbacks run
//!   on the package's collecting CPU with interrupts disabled; they change
//!   a box's configuration under its IRQ-safe lock.
//! - `read` runs on any CPU of the package, possibly in NMI context; the
//!   poll timer (hard interrupt) and the PMI work run on the collector.
//!   None of them takes a lock: each slot's progress is a lock-free
//!   [`live::Slot`], so every increment is accounted exactly once by
//!   whichever of them observes it first.
//!
//! None allocates or sleeps. Counts reach an event through its own callback
//! (`read`, `stop`, `del`) or, from the timer and the PMI, through the
//! box's [`EventSlots`] entry, which holds the event from its `add` to its
//! `del`.

use super::backend::{At, Backend, StallPoint};
use super::Ctx;
use crate::hw::control::{Start, StartMove};
use crate::hw::desc::BoxType;
use crate::hw::encode::{encode, Attr, Encoded, Kind};
use crate::hw::live;
use crate::hw::pci::Role;
use crate::hw::poll;
use crate::hw::program::{self, CounterRegs, Ctr};
use crate::hw::ratelimit::{RateLimit, Verdict};
use crate::hw::sched::Schedule;
use crate::hw::shared::{Choice, Shared};
use crate::sys::cpu::{self, CpuId, IrqsOff, OnPackage};
use crate::sys::cpumask::CpuMask;
use crate::sys::hrtimer::{Timer, TimerHandler};
#[cfg(feature = "sim")]
use crate::sys::perf::Registration;
use crate::sys::perf::{
    Adding, Capabilities, Capability, Config, Event, EventFlag, EventFlags, EventId, EventSlots,
    NewEvent, PmuOps, PmuOptions, Reading, Scope, TaskContext,
};
use crate::sys::sync::{new_irq_lock, with_locked, IrqGuard, IrqLock};
use core::sync::atomic::Ordering;
use kernel::prelude::*;
use kernel::str::CString;
use kernel::sync::Arc;

/// Most events one box holds at once (free-running readers included).
pub(crate) const MAX_SLOTS: usize = 20;

/// The configuration of a slot's event (under the box lock).
#[derive(Clone, Copy)]
struct Cfg {
    ev: EventId,
    /// Control value, with the shared-register choice applied.
    ctl: u64,
    /// Counters it may use.
    counters: u32,
    /// The shared registers it holds.
    held: Option<Choice>,
    /// Its counter.
    ctr: Ctr,
    /// Counting, or its start kept for when the box's device is back.
    start: Start,
}

/// The configuration of one box (one PMU on one package), under its lock.
struct BoxInner {
    cfg: [Option<Cfg>; MAX_SLOTS],
    shared: Shared,
    /// `pmu_disable` without its `pmu_enable` yet.
    disabled: bool,
    /// The box-level run state last written ([`program::run_key`]), or
    /// `None` when it is not known (after an initialisation or a park).
    applied: Option<u64>,
    /// The box's PCI function is gone (unplugged, not yet back): nothing
    /// starts on it.
    gone: bool,
    /// Its last initialisation failed while its function was bound (it is
    /// tried again at the next hand-over or plug): new events are refused,
    /// as they would not count. Not set by an unplug in progress: an event
    /// opened then keeps its start for the plug.
    init_failed: bool,
    /// The box's packet match/mask device (a QPI port's) is gone: the
    /// events that use it keep their start until it is back.
    helper_gone: bool,
}

impl BoxInner {
    fn started_mask(&self, t: &BoxType) -> u32 {
        self.cfg
            .iter()
            .flatten()
            .filter(|c| c.start.started)
            .fold(0, |m, c| {
                m | match c.ctr {
                    Ctr::General(j) => 1 << j,
                    Ctr::Fixed => 1 << t.fixed_index(),
                    Ctr::Free(_) => 0,
                }
            })
    }

    fn any_started(&self) -> bool {
        self.cfg.iter().flatten().any(|c| c.start.started)
    }
}

/// One box: a PMU's counters on one package.
#[pin_data]
pub(crate) struct BoxState<R: Backend> {
    ctx: Arc<Ctx<R>>,
    ty: &'static BoxType,
    index: usize,
    pkg: usize,
    /// Where each counter of the box is (the read path's lookup).
    regs: CounterRegs,
    /// Each slot's owner, counter and progress, lock-free.
    live: [live::Slot; MAX_SLOTS],
    /// Each slot's event, for the timer and the PMI.
    events: Arc<EventSlots>,
    #[pin]
    inner: IrqLock<BoxInner>,
}

impl<R: Backend> BoxState<R> {
    fn new(ctx: Arc<Ctx<R>>, ty: &'static BoxType, index: usize, pkg: usize) -> Result<Arc<Self>> {
        let inner = BoxInner {
            cfg: [None; MAX_SLOTS],
            shared: Shared::default(),
            disabled: false,
            applied: None,
            gone: false,
            init_failed: false,
            helper_gone: false,
        };
        let regs = CounterRegs::new(ty, index);
        let events = EventSlots::new(MAX_SLOTS)?;
        Arc::pin_init(
            pin_init!(BoxState {
                ctx,
                ty,
                index,
                pkg,
                regs,
                live: core::array::from_fn(|_| live::Slot::new()),
                events,
                inner <- new_irq_lock!(inner, "rust_uncore:box"),
            }),
            GFP_KERNEL,
        )
    }

    /// The width of counter `code` (a [`Ctr::code`]).
    #[inline]
    fn width(&self, code: u8) -> u32 {
        self.regs.get(code).width
    }

    /// Reads counter `code`, lock-free.
    #[inline(always)]
    fn read(&self, at: At<'_>, code: u8) -> Option<u64> {
        self.ctx
            .read_counter(at, self.ty, self.index, code, self.regs.get(code))
            .ok()
    }

    /// Observes slot `k` for `owner`: the increase since the last
    /// observation, if any.
    #[inline(always)]
    fn observe(&self, at: At<'_>, k: usize, owner: usize) -> Option<u64> {
        // `live::Slot::observe`'s steps, without a closure. The first try
        // of a counter the backend reads plainly (an MSR) stays inline; the
        // others, and every other counter, go out of line.
        let s = self.live.get(k)?;
        let seen = s.begin(owner)?;
        let r = self.regs.get(seen.ctr);
        if let Some(now) = self.ctx.regs.read_plain(at, r) {
            if let Some(d) = s.advance_masked(seen, now, r.live_mask) {
                return Some(d);
            }
        }
        self.observe_slow(at, k, owner)
    }

    /// [`Self::observe`] of a counter the backend does not read plainly,
    /// or after another observer or a reconfiguration came between.
    #[cold]
    #[inline(never)]
    fn observe_slow(&self, at: At<'_>, k: usize, owner: usize) -> Option<u64> {
        let s = self.live.get(k)?;
        for _ in 0..live::TRIES {
            let seen = s.begin(owner)?;
            let r = self.regs.get(seen.ctr);
            let now = self
                .ctx
                .read_counter(at, self.ty, self.index, seen.ctr, r)
                .ok()?;
            if let Some(d) = s.advance_masked(seen, now, r.live_mask) {
                return Some(d);
            }
        }
        None
    }

    /// Accounts slot `k`'s progress to the event its entry holds (timer
    /// and PMI, on the collector, where `add` and `del` cannot interleave).
    fn account(&self, on: OnPackage<'_>, k: usize) {
        let Some(s) = self.live.get(k) else { return };
        if let Some(d) = self.observe(At::Cpu(on), k, s.owner()) {
            self.events.with(on.irqs_off(), k, |ev| ev.add_count(d));
        }
    }

    /// Accounts the started slots on the counters in `counters` (bit per
    /// general counter; `fixed` for the fixed counter).
    fn account_overflowed(&self, on: OnPackage<'_>, counters: u32, fixed: bool) {
        for (k, s) in self.live.iter().enumerate() {
            if !s.prev.is_armed() {
                continue;
            }
            let hit = match Ctr::from_code(s.ctr()) {
                Ctr::General(j) => counters & (1u32.checked_shl(j.into()).unwrap_or(0)) != 0,
                Ctr::Fixed => fixed,
                Ctr::Free(_) => false,
            };
            if hit {
                self.account(on, k);
            }
        }
    }

    /// Whether event `c` needs the box's packet match/mask device.
    fn needs_helper(&self, c: &Cfg) -> bool {
        c.held.is_some() && self.ty.special.helper_device()
    }

    /// Starts again the slots `which` picks whose start was kept.
    fn start_kept(&self, at: At<'_>, inner: &mut BoxInner, which: impl Fn(&Cfg) -> bool) {
        for k in 0..MAX_SLOTS {
            if inner.cfg[k].is_some_and(|c| c.start.resume && which(&c)) {
                self.start_one(at, inner, k);
            }
        }
    }

    /// Programs and starts slot `k`.
    fn start_one(&self, at: At<'_>, inner: &mut BoxInner, k: usize) {
        let Some(mut c) = inner.cfg[k] else { return };
        let away = inner.gone || (inner.helper_gone && self.needs_helper(&c));
        match c.start.start(away) {
            StartMove::Counting => return,
            StartMove::Keep => {
                // Counts once the device is back (`init_box`, `init_helper`).
                c.start = Start::KEPT;
                inner.cfg[k] = Some(c);
                return;
            }
            StartMove::Arm => {}
        }
        let t = self.ty;
        if !matches!(c.ctr, Ctr::Free(_)) {
            let pmi = self.ctx.pmis();
            let ops = program::event_enable(
                t,
                self.index,
                c.ctr,
                c.ctl,
                &inner.shared,
                c.held.as_ref(),
                pmi,
            );
            if self.ctx.exec(at, t, self.index, &ops).is_err() {
                return;
            }
        }
        // A stale overflow bit of the counter's last user needs no clearing
        // here: every observation is a modular delta, so a PMI walk that
        // finds it only observes this event early (and clears it).
        let code = c.ctr.code();
        let Some(now) = self.read(at, code) else {
            return;
        };
        self.live[k].start(code, now);
        c.start = Start::COUNTING;
        inner.cfg[k] = Some(c);
        self.apply_run(at, inner);
    }

    /// Stops the slots `which` picks for what they count on going away or
    /// being initialised (the box, or its match/mask device), their last
    /// counts taken; each keeps its start for when it is back
    /// ([`Start::stop_keeping`]).
    fn stop_all_keeping(
        &self,
        irq: &IrqsOff,
        at: At<'_>,
        inner: &mut BoxInner,
        which: impl Fn(&Cfg) -> bool,
    ) {
        for k in 0..MAX_SLOTS {
            let Some(c) = inner.cfg[k].filter(|c| which(c)) else {
                continue;
            };
            let kept = c.start.stop_keeping();
            self.stop_one(irq, at, inner, k);
            if let Some(c) = inner.cfg[k].as_mut() {
                c.start = kept;
            }
        }
    }

    /// Stops slot `k`, adding its last counts to its event.
    fn stop_one(&self, irq: &IrqsOff, at: At<'_>, inner: &mut BoxInner, k: usize) {
        let Some(mut c) = inner.cfg[k] else { return };
        let (stopped, armed) = c.start.stop();
        c.start = stopped;
        inner.cfg[k] = Some(c);
        if !armed {
            return;
        }
        if !matches!(c.ctr, Ctr::Free(_)) {
            // A group frozen by pmu_disable stays frozen (run key 0).
            let frozen = inner.applied == Some(0);
            let g = self.ctx.platform.global;
            let ops = program::event_disable(g, self.ty, self.index, c.ctr, c.ctl, frozen);
            // A failed write leaves the counter running; its count is still
            // taken below, and the next start reprograms it.
            let _ = self.ctx.exec(at, self.ty, self.index, &ops);
        }
        let code = c.ctr.code();
        let d = self.live[k].stop(self.width(code), || self.read(at, code));
        self.events.with(irq, k, |ev| ev.add_count(d));
        self.apply_run(at, inner);
    }

    /// Writes the box-level run/freeze state for the started counters,
    /// when the register must change ([`program::run_key`]); never while
    /// the package is parked.
    fn apply_run(&self, at: At<'_>, inner: &mut BoxInner) {
        if self.ctx.is_parked(self.pkg) {
            return;
        }
        let (run, mask) = (!inner.disabled, inner.started_mask(self.ty));
        let Some(key) = program::run_key(self.ty, run, mask) else {
            return;
        };
        if inner.applied == Some(key) {
            return;
        }
        // The NHM-EX/WSM-EX U-box's enable lives in the global control.
        let r = if self.ty.box_ctl.in_global_control() {
            at.on()
                .and_then(|on| self.ctx.write_global(on, |g| g.ubox_en = run && mask != 0))
        } else {
            let g = self.ctx.global(self.pkg);
            let ops = program::box_run(self.ctx.platform, self.ty, self.index, run, mask, &g);
            self.ctx.exec(at, self.ty, self.index, &ops)
        };
        if r.is_ok() {
            inner.applied = Some(key);
        }
    }
}

impl<R: Backend> TimerHandler for BoxState<R> {
    fn fire(&self, irq: &IrqsOff) -> bool {
        // Register reads are the package's own: a timer that ended up on
        // another package (it never should) stops.
        let Some(on) = irq.on(self.pkg) else {
            return false;
        };
        let mut more = false;
        for k in 0..MAX_SLOTS {
            if self.live[k].prev.is_armed() {
                self.account(on, k);
                more = true;
            }
        }
        more
    }
}

/// A box of this CPU's package, where the access is made from, the box
/// locked, and a slot of it ([`UncorePmu::held_slot`]).
type HeldSlot<'s, 'a, R> = (&'s Arc<BoxState<R>>, At<'a>, IrqGuard<'s, BoxInner>, usize);

/// A perf PMU: one box type instance, on every package.
pub(crate) struct UncorePmu<R: Backend> {
    ctx: Arc<Ctx<R>>,
    ty: &'static BoxType,
    index: usize,
    /// Perf-visible name (`uncore_cbox_3`).
    name: CString,
    boxes: KVec<Arc<BoxState<R>>>,
    timers: KVec<Timer<BoxState<R>>>,
    interval_ns: u64,
    /// The collectors of the packages where the box is present.
    cpumask: CpuMask,
    /// The kernel-log lines of its refusals (any user can ask for them).
    refusals: RateLimit,
}

impl<R: Backend> UncorePmu<R> {
    /// A PMU for box `index` of `ty` with one box per package.
    pub(crate) fn new(
        ctx: &Arc<Ctx<R>>,
        ty: &'static BoxType,
        index: usize,
        name: &CStr,
    ) -> Result<Self> {
        let mut boxes = KVec::with_capacity(ctx.packages, GFP_KERNEL)?;
        let mut timers = KVec::with_capacity(ctx.packages, GFP_KERNEL)?;
        for pkg in 0..ctx.packages {
            let b = BoxState::new(ctx.clone(), ty, index, pkg)?;
            timers.push(Timer::new(b.clone())?, GFP_KERNEL)?;
            boxes.push(b, GFP_KERNEL)?;
        }
        let name = CString::try_from(name)?;
        let pmu = UncorePmu {
            ctx: ctx.clone(),
            ty,
            index,
            name,
            boxes,
            timers,
            interval_ns: poll::interval_ns(ty),
            cpumask: CpuMask::new()?,
            refusals: RateLimit::new(),
        };
        pmu.refresh_cpumask();
        Ok(pmu)
    }

    /// The PMU name.
    pub(crate) fn name(&self) -> &CStr {
        &self.name
    }

    /// The platform.
    pub(crate) fn platform(&self) -> crate::hw::desc::PlatformId {
        self.ctx.platform.id
    }

    /// The box type.
    pub(crate) fn box_type(&self) -> &'static BoxType {
        self.ty
    }

    /// The box instance.
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// The PCI function of a PCI or MMIO box.
    fn role(&self) -> Option<Role> {
        self.ty.space.in_device().then_some(Role::Box {
            ty: self.ty.kind,
            index: self.index as u8,
        })
    }

    /// Whether the box exists on package `pkg` (an MSR box on every
    /// package; a PCI or MMIO box where its function is bound).
    pub(crate) fn present(&self, pkg: usize) -> bool {
        match self.role() {
            None => pkg < self.ctx.packages,
            Some(r) => self.ctx.registry.present(pkg, r),
        }
    }

    /// Makes `cpumask` the collectors of the packages where the box is.
    pub(crate) fn refresh_cpumask(&self) {
        for cpu in CpuId::all() {
            let pkg = cpu.package();
            if self.ctx.collector(pkg) != Some(cpu) {
                self.cpumask.clear(cpu);
            } else if self.present(pkg) {
                self.cpumask.set(cpu);
            } else {
                self.ctx.regs.stall(StallPoint::Cpumask);
                self.cpumask.clear(cpu);
            }
        }
    }

    /// Takes the last counts of every started event of package `pkg`'s box
    /// and stops them, before the box's device goes away; from here until
    /// the device is back ([`Self::init_box`]), nothing starts on the box
    /// (a start is kept for then). `unbind` follows: no start can arm a
    /// counter on the box in between.
    pub(crate) fn retire(&self, pkg: usize) {
        let Some(b) = self.boxes.get(pkg) else { return };
        with_locked(&b.inner, |inner, irq| {
            inner.gone = true;
            inner.init_failed = false;
            b.stop_all_keeping(irq, At::Any(pkg), inner, |_| true);
        });
    }

    /// Takes the last counts of package `pkg`'s events that use the box's
    /// packet match/mask device and stops them, before that device goes
    /// away; they keep their start for when it is back
    /// ([`Self::init_helper`]). The box's other events count on.
    pub(crate) fn retire_helper(&self, pkg: usize) {
        let Some(b) = self.boxes.get(pkg) else { return };
        with_locked(&b.inner, |inner, irq| {
            inner.helper_gone = true;
            b.stop_all_keeping(irq, At::Any(pkg), inner, |c| b.needs_helper(c));
        });
    }

    /// Starts again package `pkg`'s events that use the box's packet
    /// match/mask device, now back (their filter written afresh). Returns
    /// whether some event counts on the box afterwards.
    pub(crate) fn init_helper(&self, pkg: usize) -> bool {
        let Some(b) = self.boxes.get(pkg) else {
            return false;
        };
        with_locked(&b.inner, |inner, _| {
            inner.helper_gone = false;
            b.start_kept(At::Any(pkg), inner, |c| b.needs_helper(c));
            inner.any_started()
        })
    }

    /// Whether this box's packet match/mask device is missing on package
    /// `pkg` (only a box with such a device can miss it).
    fn helper_missing(&self, pkg: usize) -> bool {
        self.ty.special.helper_device()
            && !self.ctx.registry.present(
                pkg,
                Role::QpiFilter {
                    port: self.index as u8,
                },
            )
    }

    /// Accounts the overflowed counters of package `on`'s box (from a PMI).
    pub(crate) fn pmi_update(&self, on: OnPackage<'_>, counters: u32, fixed: bool) {
        if let Some(b) = self.boxes.get(on.package()) {
            b.account_overflowed(on, counters, fixed);
        }
    }

    /// Whether package `pkg`'s box counts (some event started) without its
    /// poll timer running: wraps could then be lost (the simulation's
    /// `stats`).
    #[cfg(feature = "sim")]
    pub(crate) fn unpolled(&self, pkg: usize) -> bool {
        let counting = self
            .boxes
            .get(pkg)
            .is_some_and(|b| b.live.iter().any(|s| s.prev.is_armed()));
        counting && !self.timers.get(pkg).is_some_and(|t| t.is_active())
    }

    /// Runs package `pkg`'s poll now, as the timer does (on the collector;
    /// the simulation's `inject`).
    #[cfg(feature = "sim")]
    pub(crate) fn poll(&self, irq: &IrqsOff, pkg: usize) {
        if let Some(b) = self.boxes.get(pkg) {
            b.fire(irq);
        }
    }

    /// Stops the polling timer of package `pkg` (before its events move).
    pub(crate) fn cancel_timer(&self, pkg: usize) {
        if let Some(t) = self.timers.get(pkg) {
            // The control plane: process context.
            let _ = t.cancel();
        }
    }

    /// Initialises the box of package `pkg` (on a CPU of that package, or
    /// any CPU for a box in configuration space), under the box's lock:
    /// started events are stopped first (their counts taken) and started
    /// again after, with the events started while the device was gone, so
    /// that no observer sees the reset as a count. Returns whether some
    /// event counts on the box afterwards.
    pub(crate) fn init_box(&self, at: At<'_>) -> Result<bool> {
        let pkg = at.package();
        let Some(b) = self.boxes.get(pkg) else {
            let ops = program::box_init(self.ty, self.index);
            self.ctx.exec(at, self.ty, self.index, &ops)?;
            return Ok(false);
        };
        // (Under the control lock: the registry does not change meanwhile.)
        let helper_gone = self.helper_missing(pkg);
        with_locked(&b.inner, |inner, irq| {
            inner.helper_gone = helper_gone;
            b.stop_all_keeping(irq, at, inner, |_| true);
            let ops = program::box_init(self.ty, self.index);
            let r = self.ctx.exec(at, self.ty, self.index, &ops);
            inner.applied = program::run_key_after_init(self.ty);
            inner.init_failed = r.is_err();
            if r.is_ok() {
                inner.gone = false;
                b.start_kept(at, inner, |_| true);
                b.apply_run(at, inner);
            }
            r.map(|()| inner.any_started())
        })
    }

    /// Whether package `pkg`'s box's last initialisation failed while its
    /// function was bound.
    pub(crate) fn init_failed(&self, pkg: usize) -> bool {
        self.boxes
            .get(pkg)
            .is_some_and(|b| b.inner.lock().init_failed)
    }

    /// Whether package `pkg`'s box is gone (unplugged and not yet
    /// initialised again).
    pub(crate) fn is_gone(&self, pkg: usize) -> bool {
        self.boxes.get(pkg).is_some_and(|b| b.inner.lock().gone)
    }

    /// Starts package `pkg`'s poll timer on the CPU this runs on (the
    /// collector), if an event counts on its box.
    pub(crate) fn restart_timer(&self, pkg: usize) {
        if let (Some(b), Some(t)) = (self.boxes.get(pkg), self.timers.get(pkg)) {
            if b.inner.lock().any_started() && !t.is_active() {
                // Never in NMI context (hotplug, plug, the timer's restart).
                let _ = t.start(self.interval_ns);
            }
        }
    }

    /// Freezes the box of package `pkg` (on a CPU of that package), as the
    /// package is parked.
    pub(crate) fn park_box(&self, on: OnPackage<'_>) {
        let pkg = on.package();
        let Some(b) = self.boxes.get(pkg) else { return };
        let mut inner = b.inner.lock();
        // A box whose enable lives in the global control is left to it:
        // parking clears the global control.
        if !self.ty.box_ctl.in_global_control() {
            let g = self.ctx.global(pkg);
            let ops = program::box_run(self.ctx.platform, self.ty, self.index, false, 0, &g);
            let _ = self.ctx.exec(At::Cpu(on), self.ty, self.index, &ops);
        }
        inner.applied = None;
    }

    /// The box of the package of the CPU this runs on, and the proof that
    /// its registers are reached from here.
    fn current_box<'a>(&self, irq: &'a IrqsOff) -> Option<(&Arc<BoxState<R>>, At<'a>)> {
        let on = irq.on_package();
        Some((self.boxes.get(on.package())?, At::Cpu(on)))
    }

    /// `pmu_disable` (`true`) or `pmu_enable` of the box of this CPU's
    /// package.
    fn set_disabled(&self, irq: &IrqsOff, disabled: bool) {
        let Some((b, at)) = self.current_box(irq) else {
            return;
        };
        let mut inner = b.inner.lock();
        inner.disabled = disabled;
        b.apply_run(at, &mut inner);
    }

    /// The box of this CPU's package, locked, with the slot of `ev` if the
    /// slot still holds it (`del`, `start` and `stop` act on nothing else).
    fn held_slot<'s, 'a>(
        &'s self,
        irq: &'a IrqsOff,
        ev: &Event<Self>,
    ) -> Option<HeldSlot<'s, 'a, R>> {
        let (b, at) = self.current_box(irq)?;
        let k = ev.index()?;
        let inner = b.inner.lock();
        let holds = inner
            .cfg
            .get(k)
            .is_some_and(|c| c.is_some_and(|c| c.ev == ev.id()));
        holds.then_some((b, at, inner, k))
    }

    fn attr(c: Config) -> Attr {
        let Config {
            config,
            config1,
            config2,
        } = c;
        Attr {
            config,
            config1,
            config2,
        }
    }

    /// Says in the kernel log why an event is refused, at debug level: any
    /// user allowed to open perf events can ask for refusals, so through
    /// dynamic debug (off until enabled) where the kernel has it, else at
    /// most [`crate::hw::ratelimit::BURST`] lines per interval
    /// ([`RateLimit`]).
    fn refuse(&self, why: core::fmt::Arguments<'_>) -> Error {
        let name = self.name().to_str().unwrap_or("uncore PMU");
        if crate::sys::dynamic_debug(format_args!("{}: event refused: {}", name, why)) {
            return EINVAL;
        }
        if let Verdict::Print { missed } = self.refusals.check(cpu::now_ns()) {
            if missed > 0 {
                crate::sys::pr_dbg!("{}: {} event refusals not logged\n", self.name(), missed);
            }
            crate::sys::pr_dbg!("{}: event refused: {}\n", self.name(), why);
        }
        EINVAL
    }

    /// Checks that `enc` and the other members of `ev`'s group fit this box
    /// together: its slots, its shared registers and its counters.
    fn validate_group(&self, ev: &NewEvent<Self>, enc: Encoded) -> Result {
        let mut shared = Shared::default();
        let mut schedule = Schedule::new();
        let mut slots = 0;
        let mut add = |e: Encoded| -> core::result::Result<(), &'static str> {
            slots += 1;
            if slots > MAX_SLOTS {
                return Err("the group has more events of this PMU than it has slots");
            }
            if shared.take(&e.shared).is_none() {
                return Err("the group's filters conflict");
            }
            if matches!(e.kind, Kind::FreeRunning(_)) || schedule.push(slots, e.counters, None) {
                Ok(())
            } else {
                Err("the group does not fit the counters")
            }
        };
        let mut why = None;
        ev.for_each_group_member(|m| {
            let r = encode(self.ty, self.index, Self::attr(m.config()))
                .map_err(|_| "a member of the group is invalid")
                .and_then(&mut add);
            r.map_err(|w| {
                why = Some(w);
                EINVAL
            })
        })
        .map_err(|_| self.refuse(format_args!("{}", why.unwrap_or("invalid group"))))?;
        add(enc).map_err(|w| self.refuse(format_args!("{}", w)))?;
        if schedule.solve().is_none() {
            return Err(self.refuse(format_args!("the group does not fit the counters")));
        }
        Ok(())
    }
}

/// What the PMU keeps for each event.
#[derive(Clone, Copy)]
pub(crate) struct EventBox {
    /// The event's package (its box), for `read`: the event only ever
    /// moves between CPUs of this package.
    pkg: usize,
}

#[vtable]
impl<R: Backend> PmuOps for UncorePmu<R> {
    // System-wide counting only, no exclusions: perf refuses sampling,
    // per-task and exclude_* events before `event_init` (which says why
    // too). The PMU picks its collecting CPUs itself.
    const OPTIONS: PmuOptions = PmuOptions {
        capabilities: Capabilities::empty().with(Capability::NoExclude),
        task_context: TaskContext::Invalid,
        scope: Scope::None,
        // `read` works from any CPU of the package.
        readable_in_package: true,
    };

    type EventData = EventBox;

    fn event_init(&self, ev: &mut NewEvent<Self>) -> Result<EventBox> {
        let info = ev.info();
        if info.sampling {
            return Err(self.refuse(format_args!("sampling is not supported")));
        }
        if info.per_task {
            return Err(self.refuse(format_args!("per-task events are not supported")));
        }
        if info.excludes {
            return Err(self.refuse(format_args!("exclude_* flags are not supported")));
        }
        let Some(cpu) = info.cpu else {
            return Err(self.refuse(format_args!("uncore events need a CPU (use -a or -C)")));
        };
        let pkg = cpu.package();
        let collector = self.ctx.collector(pkg).ok_or_else(|| {
            self.refuse(format_args!(
                "package {} has no collecting CPU (offline, or changing)",
                pkg
            ))
        })?;
        if !self.present(pkg) {
            return Err(self.refuse(format_args!("no device for this box on package {}", pkg)));
        }
        // Its device is bound, but the box's initialisation failed (it is
        // tried again at the next hand-over or plug): an event would not
        // count.
        if self.init_failed(pkg) {
            let _ = self.refuse(format_args!(
                "the box on package {} is not initialised (its device failed)",
                pkg
            ));
            return Err(ENODEV);
        }
        let enc = encode(self.ty, self.index, Self::attr(ev.config()))
            .map_err(|e| self.refuse(format_args!("{}", e)))?;
        if !enc.shared.is_none() && self.helper_missing(pkg) {
            return Err(self.refuse(format_args!(
                "QPI port {} has no packet match/mask device",
                self.index
            )));
        }
        self.validate_group(ev, enc)?;
        self.ctx.regs.stall(StallPoint::EventInit);
        ev.set_cpu(collector);
        Ok(EventBox { pkg })
    }

    fn add(
        &self,
        irq: &IrqsOff,
        ev: &Event<Self>,
        entry: Adding<'_, Self>,
        flags: EventFlags,
    ) -> Result {
        let (b, at) = self.current_box(irq).ok_or(EINVAL)?;
        if !self.ctx.is_home(b.pkg, irq.cpu()) {
            // Opened for a collector that has since handed its events
            // over: the event stays unscheduled (perf reports it "not
            // counted") rather than counting on a CPU that is going.
            self.ctx.stats.stranded_adds.fetch_add(1, Ordering::Relaxed);
            return Err(EBUSY);
        }
        let enc = encode(self.ty, self.index, Self::attr(ev.config())).map_err(|_| EINVAL)?;
        let mut inner = b.inner.lock();
        let free = (0..MAX_SLOTS)
            .find(|&k| inner.cfg[k].is_none() && b.live[k].owner() == live::NO_OWNER)
            .ok_or(EBUSY)?;
        // From here a failed `add` empties the entry (the trampoline does).
        EventSlots::set(&b.events, free, entry)?;
        let choice = inner.shared.take(&enc.shared).ok_or(EBUSY)?;
        // Place every counter-using event, the new one last.
        let code_of = |c: Ctr| match c {
            Ctr::General(j) => Some(j),
            Ctr::Fixed => Some(self.ty.fixed_index()),
            Ctr::Free(_) => None,
        };
        let to_ctr = |c: u8| {
            if c == self.ty.fixed_index() {
                Ctr::Fixed
            } else {
                Ctr::General(c)
            }
        };
        let mut schedule = Schedule::new();
        for (k, c) in inner.cfg.iter().enumerate() {
            if let Some((c, current)) = c.and_then(|c| Some((c, code_of(c.ctr)?))) {
                // Placed before, so there is room.
                schedule.push(k, c.counters, Some(current));
            }
        }
        let (ctr, placed) = match enc.kind {
            Kind::FreeRunning(j) => (Ctr::Free(j), None),
            _ => match schedule
                .push(free, enc.counters, None)
                .then(|| schedule.solve())
                .flatten()
                .and_then(|p| Some((to_ctr(p.counter_of(free)?), p)))
            {
                Some((c, p)) => (c, Some(p)),
                None => {
                    inner.shared.release(&enc.shared, choice);
                    return Err(EBUSY);
                }
            },
        };
        // Move running events whose counter changed.
        let mut restart = [false; MAX_SLOTS];
        for (k, code) in placed.iter().flat_map(|p| p.iter()) {
            let Some(c) = inner.cfg.get(k).copied().flatten() else {
                continue;
            };
            let to = to_ctr(code);
            if k != free && c.ctr != to {
                // (An event started while the box is gone counts once it
                // is back: it is started again as if counting.)
                restart[k] = c.start.keeps();
                b.stop_one(irq, at, &mut inner, k);
                if let Some(mut c) = inner.cfg[k] {
                    c.ctr = to;
                    inner.cfg[k] = Some(c);
                }
            }
        }
        let held = (!enc.shared.is_none()).then(|| enc.shared.choices()[choice as usize]);
        inner.cfg[free] = Some(Cfg {
            ev: ev.id(),
            ctl: enc.ctl_for(choice),
            counters: enc.counters,
            held,
            ctr,
            start: Start::default(),
        });
        b.live[free].claim(ev.id().as_usize());
        for (k, r) in restart.iter().enumerate() {
            if *r {
                b.start_one(at, &mut inner, k);
            }
        }
        if flags.contains(EventFlag::Start) {
            let first = !inner.any_started();
            b.start_one(at, &mut inner, free);
            drop(inner);
            if first {
                // `add` never runs in NMI context.
                let _ = self.timers[b.pkg].start(self.interval_ns);
            }
        }
        Ok(())
    }

    fn del(&self, irq: &IrqsOff, ev: &Event<Self>, _flags: EventFlags) {
        let Some((b, at, mut inner, k)) = self.held_slot(irq, ev) else {
            return;
        };
        b.stop_one(irq, at, &mut inner, k);
        if let Some(c) = inner.cfg[k].take() {
            if let Some(h) = c.held {
                inner.shared.release_choice(&h);
            }
        }
        b.live[k].release();
        // The trampoline empties the event's entry after this returns.
    }

    fn start(&self, irq: &IrqsOff, ev: &Event<Self>, _flags: EventFlags) {
        let Some((b, at, mut inner, k)) = self.held_slot(irq, ev) else {
            return;
        };
        let first = !inner.any_started();
        b.start_one(at, &mut inner, k);
        drop(inner);
        if first {
            // Perf starts a throttled group again from the tick or a
            // cross-CPU call, never from NMI context, where the timer's
            // start would be refused.
            let _ = self.timers[b.pkg].start(self.interval_ns);
        }
    }

    fn stop(&self, irq: &IrqsOff, ev: &Event<Self>, _flags: EventFlags) {
        // The count is always taken, `PERF_EF_UPDATE` or not: nothing that
        // was counted is dropped.
        if let Some((b, at, mut inner, k)) = self.held_slot(irq, ev) {
            b.stop_one(irq, at, &mut inner, k);
        }
        // The timer stops by itself when it finds nothing started.
    }

    fn read(&self, rd: Reading<'_>, ev: &Event<Self>) {
        // Lock-free: perf may call this in NMI context, on any CPU of the
        // event's package (the package event_init recorded, which `rd`
        // knows as the package of the CPU perf added the event on). Were
        // they to differ, only a configuration-space or MMIO counter could
        // be read; an MSR read is refused.
        let pkg = ev.data().pkg;
        let Some(b) = self.boxes.get(pkg) else {
            return;
        };
        let at = rd.on(pkg).map_or(At::Any(pkg), At::Cpu);
        let Some(k) = ev.index() else { return };
        if let Some(d) = b.observe(at, k, ev.id().as_usize()) {
            ev.add_count(d);
        }
    }

    fn enable(&self, irq: &IrqsOff) {
        self.set_disabled(irq, false);
    }

    fn disable(&self, irq: &IrqsOff) {
        self.set_disabled(irq, true);
    }

    fn cpumask(&self) -> &CpuMask {
        &self.cpumask
    }
}

/// The events' slots of a PMU's box on package `pkg`, held locked while
/// `f` runs (the simulation's NMI self-test).
#[cfg(feature = "sim")]
pub(crate) fn with_box_locked<R: Backend, T>(
    pmu: &Registration<UncorePmu<R>>,
    pkg: usize,
    f: impl FnOnce() -> T,
) -> Option<T> {
    let b = pmu.ops().boxes.get(pkg)?;
    let _g = b.inner.lock();
    Some(f())
}

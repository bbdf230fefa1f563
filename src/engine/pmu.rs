// SPDX-License-Identifier: GPL-2.0

//! One perf PMU per box: event validation, counter scheduling and
//! programming, counting, and the polling timer.
//!
//! Context: `add`, `del`, `start`, `stop` and the PMU enable/disable
//! callbacks run on the package's collecting CPU with interrupts disabled;
//! `read` runs on any CPU of the package; the timer runs on the collector
//! in hard interrupt context. All of them take the box's IRQ-safe lock;
//! none allocates or sleeps.
//!
//! Counts reach a perf event only in a callback that has the event (`read`,
//! `stop`, `del`): the timer and the PMI account new counts of an event in
//! its slot (`pending`), and the next such callback adds them to the
//! event. The driver never holds on to an event between callbacks, only to
//! its [`EventId`].

use super::Ctx;
use crate::hw::counter::delta_with_status;
use crate::hw::desc::{BoxCtl, BoxType, Space, Special};
use crate::hw::encode::{encode, Attr, Encoded, Kind};
use crate::hw::pci::Role;
use crate::hw::poll;
use crate::hw::program::{self, Ctr};
use crate::hw::sched::{self, Want, MAX_EVENTS};
use crate::hw::shared::{Choice, Shared};
use crate::sys::cpu::CpuId;
use crate::sys::cpumask::CpuMask;
use crate::sys::hrtimer::{Timer, TimerHandler};
use crate::sys::perf::{Config, Event, EventId, NewEvent, PmuOps, EF_START, EF_UPDATE};
use crate::sys::sync::{new_irq_lock, IrqLock};
use kernel::prelude::*;
use kernel::str::CString;
use kernel::sync::Arc;

/// Most events one box holds at once (free-running readers included).
const MAX_SLOTS: usize = 20;

/// An event added to a box (kept small: the slots live in the box).
#[derive(Clone, Copy)]
struct Active {
    ev: EventId,
    /// Control value, with the shared-register choice applied.
    ctl: u64,
    /// Counters it may use.
    counters: u32,
    /// The shared registers it holds.
    held: Option<Choice>,
    /// Its counter.
    ctr: Ctr,
    /// Counter value at the last update.
    prev: u64,
    /// Counting (between `start` and `stop`).
    started: bool,
    /// Counts accounted but not yet added to the event.
    pending: u64,
}

impl Active {
    /// Adds the pending counts to `ev`, the event of this slot.
    fn flush(&mut self, ev: &Event) {
        ev.add_count(core::mem::take(&mut self.pending));
    }
}

/// The state of one box (one PMU on one package), under its lock.
struct BoxInner {
    slots: [Option<Active>; MAX_SLOTS],
    shared: Shared,
    /// `pmu_disable` without its `pmu_enable` yet.
    disabled: bool,
    /// The box-level state last written: (running, enabled counters).
    applied: Option<(bool, u32)>,
}

impl BoxInner {
    fn find(&self, ev: &Event) -> Option<usize> {
        let id = ev.id();
        self.slots
            .iter()
            .position(|s| s.is_some_and(|a| a.ev == id))
    }

    fn started_mask(&self, t: &BoxType) -> u32 {
        self.slots
            .iter()
            .flatten()
            .filter(|a| a.started)
            .fold(0, |m, a| {
                m | match a.ctr {
                    Ctr::General(j) => 1 << j,
                    Ctr::Fixed => 1 << t.fixed_index(),
                    Ctr::Free(_) => 0,
                }
            })
    }
}

/// One box: a PMU's counters on one package.
#[pin_data]
pub(crate) struct BoxState {
    ctx: Arc<Ctx>,
    ty: &'static BoxType,
    index: usize,
    pkg: usize,
    #[pin]
    inner: IrqLock<BoxInner>,
}

impl BoxState {
    fn new(ctx: Arc<Ctx>, ty: &'static BoxType, index: usize, pkg: usize) -> Result<Arc<Self>> {
        let inner = BoxInner {
            slots: [None; MAX_SLOTS],
            shared: Shared::default(),
            disabled: false,
            applied: None,
        };
        Arc::pin_init(
            pin_init!(BoxState { ctx, ty, index, pkg, inner <- new_irq_lock!(inner, "rust_uncore:box") }),
            GFP_KERNEL,
        )
    }

    /// Accounts the counts since the last update of `a` as pending. Where the
    /// hardware has a per-counter overflow status bit, the bit tells whether
    /// the counter wrapped, and reading it clears it: each wrap is accounted
    /// exactly once, whichever path (poll, read, PMI) sees it first.
    fn update(&self, a: &mut Active) {
        let width = program::counter_reg(self.ty, self.index, a.ctr).width;
        let r = match program::overflow_bit(self.ctx.platform, self.ty, self.index, a.ctr) {
            Some(ob) => self
                .ctx
                .read_with_overflow(self.pkg, self.ty, self.index, a.ctr, ob),
            None => self
                .ctx
                .read_counter(self.pkg, self.ty, self.index, a.ctr)
                .map(|v| (v, false)),
        };
        if let Ok((now, ovf)) = r {
            a.pending = a
                .pending
                .wrapping_add(delta_with_status(a.prev, now, width, ovf));
            a.prev = now;
        }
    }

    /// Updates the started events on the counters in `counters` (bit per
    /// general counter; `fixed` for the fixed counter); returns the counter
    /// bits (in the status register's layout) that had an event.
    fn update_overflowed(&self, counters: u32, fixed: bool) -> u64 {
        let mut inner = self.inner.lock();
        let mut done = 0u64;
        for k in 0..MAX_SLOTS {
            let Some(mut a) = inner.slots[k] else {
                continue;
            };
            let hit = match a.ctr {
                Ctr::General(j) => counters & (1 << j) != 0,
                Ctr::Fixed => fixed,
                Ctr::Free(_) => false,
            };
            if !hit || !a.started {
                continue;
            }
            self.update(&mut a);
            inner.slots[k] = Some(a);
            if let Some(ob) = program::overflow_bit(self.ctx.platform, self.ty, self.index, a.ctr) {
                done |= ob.bit;
            }
        }
        done
    }

    /// Programs and starts `a`.
    fn start_one(&self, inner: &mut BoxInner, k: usize) {
        let Some(mut a) = inner.slots[k] else { return };
        if a.started {
            return;
        }
        let t = self.ty;
        if !matches!(a.ctr, Ctr::Free(_)) {
            let pmi = self.ctx.pmis();
            let ops = program::event_enable(
                t,
                self.index,
                a.ctr,
                a.ctl,
                &inner.shared,
                a.held.as_ref(),
                pmi,
            );
            if self.ctx.exec(self.pkg, t, self.index, &ops).is_err() {
                return;
            }
        }
        // A stale overflow bit of the counter's last user is no wrap of ours.
        if let Some(ob) = program::overflow_bit(self.ctx.platform, t, self.index, a.ctr) {
            let _ = self.ctx.wrmsr(self.pkg, ob.clear, ob.bit);
        }
        a.prev = self
            .ctx
            .read_counter(self.pkg, t, self.index, a.ctr)
            .unwrap_or(0);
        a.started = true;
        inner.slots[k] = Some(a);
        self.apply_run(inner);
    }

    /// Stops `a`, adding its last counts when `update`.
    fn stop_one(&self, inner: &mut BoxInner, k: usize, update: bool) {
        let Some(mut a) = inner.slots[k] else { return };
        if !a.started {
            return;
        }
        if !matches!(a.ctr, Ctr::Free(_)) {
            let ops = program::event_disable(self.ty, self.index, a.ctr, a.ctl);
            // A failed write leaves the counter running; its count is still
            // taken below, and the next start reprograms it.
            let _ = self.ctx.exec(self.pkg, self.ty, self.index, &ops);
        }
        if update {
            self.update(&mut a);
        }
        a.started = false;
        inner.slots[k] = Some(a);
        self.apply_run(inner);
    }

    /// Writes the box-level run/freeze state for the started counters,
    /// when it changed.
    fn apply_run(&self, inner: &mut BoxInner) {
        let state = (!inner.disabled, inner.started_mask(self.ty));
        if inner.applied == Some(state) {
            return;
        }
        // The NHM-EX/WSM-EX U-box's enable lives in the global control.
        let r = if self.ty.box_ctl == BoxCtl::UGlobal {
            self.ctx
                .write_global(self.pkg, |g| g.ubox_en = state.0 && state.1 != 0)
        } else {
            let g = self.ctx.global(self.pkg);
            let ops =
                program::box_run(self.ctx.platform, self.ty, self.index, state.0, state.1, &g);
            self.ctx.exec(self.pkg, self.ty, self.index, &ops)
        };
        if r.is_ok() {
            inner.applied = Some(state);
        }
    }

    /// Forgets the box-level state written (after a box initialisation).
    pub(crate) fn reset_applied(&self) {
        self.inner.lock().applied = None;
    }

    fn any_started(inner: &BoxInner) -> bool {
        inner.slots.iter().flatten().any(|a| a.started)
    }
}

impl TimerHandler for BoxState {
    fn fire(&self) -> bool {
        if self.ctx.collector(self.pkg) != Some(CpuId::current()) {
            return false;
        }
        let mut inner = self.inner.lock();
        let mut more = false;
        for k in 0..MAX_SLOTS {
            if let Some(mut a) = inner.slots[k] {
                if a.started {
                    self.update(&mut a);
                    inner.slots[k] = Some(a);
                    more = true;
                }
            }
        }
        more
    }
}

/// A perf PMU: one box type instance, on every package.
pub(crate) struct UncorePmu {
    ctx: Arc<Ctx>,
    ty: &'static BoxType,
    index: usize,
    /// Perf-visible name (`uncore_cbox_3`).
    name: CString,
    boxes: KVec<Arc<BoxState>>,
    timers: KVec<Pin<KBox<Timer<BoxState>>>>,
    interval_ns: u64,
}

impl UncorePmu {
    /// A PMU for box `index` of `ty` with one box per package.
    pub(crate) fn new(
        ctx: &Arc<Ctx>,
        ty: &'static BoxType,
        index: usize,
        name: &CStr,
    ) -> Result<Self> {
        let mut boxes = KVec::with_capacity(ctx.packages, GFP_KERNEL)?;
        let mut timers = KVec::with_capacity(ctx.packages, GFP_KERNEL)?;
        for pkg in 0..ctx.packages {
            let b = BoxState::new(ctx.clone(), ty, index, pkg)?;
            timers.push(
                KBox::pin_init(Timer::new(b.clone()), GFP_KERNEL)?,
                GFP_KERNEL,
            )?;
            boxes.push(b, GFP_KERNEL)?;
        }
        let name = CString::try_from(name)?;
        Ok(UncorePmu {
            ctx: ctx.clone(),
            ty,
            index,
            name,
            boxes,
            timers,
            interval_ns: poll::interval_ns(ty),
        })
    }

    /// The PMU name.
    pub(crate) fn name(&self) -> &CStr {
        &self.name
    }

    /// The box type.
    pub(crate) fn box_type(&self) -> &'static BoxType {
        self.ty
    }

    /// The box instance.
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// Takes the last counts of every started event of package `pkg`'s box
    /// and stops them, before the box's device goes away.
    pub(crate) fn retire(&self, pkg: usize) {
        let Some(b) = self.boxes.get(pkg) else { return };
        let mut inner = b.inner.lock();
        for k in 0..MAX_SLOTS {
            if inner.slots[k].is_some_and(|a| a.started) {
                b.stop_one(&mut inner, k, true);
            }
        }
    }

    /// Accounts the overflowed counters of package `pkg`'s box (from a PMI);
    /// returns the status bits that had events.
    pub(crate) fn pmi_update(&self, pkg: usize, counters: u32, fixed: bool) -> u64 {
        self.boxes
            .get(pkg)
            .map_or(0, |b| b.update_overflowed(counters, fixed))
    }

    /// Stops the polling timer of package `pkg` (before its events move).
    pub(crate) fn cancel_timer(&self, pkg: usize) {
        if let Some(t) = self.timers.get(pkg) {
            t.cancel();
        }
    }

    /// Initialises the box of package `pkg` (on a CPU of that package).
    pub(crate) fn init_box(&self, pkg: usize) -> Result {
        let ops = program::box_init(self.ty, self.index);
        self.ctx.exec(pkg, self.ty, self.index, &ops)?;
        if let Some(b) = self.boxes.get(pkg) {
            b.reset_applied();
        }
        Ok(())
    }

    fn is_pci(&self) -> bool {
        matches!(self.ty.space, Space::Pci { .. } | Space::Mmio { .. })
    }

    fn current_box(&self) -> Option<&Arc<BoxState>> {
        self.boxes.get(CpuId::current().package())
    }

    fn attr(ev: &Event) -> Attr {
        let Config {
            config,
            config1,
            config2,
        } = ev.config();
        Attr {
            config,
            config1,
            config2,
        }
    }

    fn refuse(&self, why: core::fmt::Arguments<'_>) -> Error {
        crate::sys::pr_dbg!("{}: event refused: {}\n", self.name(), why);
        EINVAL
    }

    /// Checks that `enc` and the other members of `ev`'s group fit this box
    /// together (shared registers and counters).
    fn validate_group(&self, ev: &NewEvent, enc: Encoded) -> Result {
        let mut shared = Shared::default();
        let mut wants = [Want {
            counters: 0,
            current: None,
        }; MAX_EVENTS];
        let mut n = 0;
        let mut add = |e: Encoded| -> Result {
            if shared.take(&e.shared).is_none() {
                return Err(EINVAL);
            }
            if matches!(e.kind, Kind::FreeRunning(_)) {
                return Ok(());
            }
            if n >= MAX_EVENTS {
                return Err(EINVAL);
            }
            wants[n] = Want {
                counters: e.counters,
                current: None,
            };
            n += 1;
            Ok(())
        };
        let mut members = Ok(());
        ev.for_each_group_member(|m| match encode(self.ty, self.index, Self::attr(m)) {
            Ok(e) => add(e),
            Err(_) => {
                members = Err(EINVAL);
                Err(EINVAL)
            }
        })
        .map_err(|_| {
            self.refuse(format_args!(
                "the group's events of this PMU need more shared registers than it has"
            ))
        })?;
        members?;
        add(enc).map_err(|_| self.refuse(format_args!("the group's filters conflict")))?;
        let mut out = [0u8; MAX_EVENTS];
        if !sched::assign(&wants[..n], &mut out) {
            return Err(self.refuse(format_args!("the group does not fit the counters")));
        }
        Ok(())
    }
}

#[vtable]
impl PmuOps for UncorePmu {
    fn event_init(&self, ev: &mut NewEvent) -> Result {
        let info = ev.info();
        if !info.for_this_pmu {
            return Err(ENOENT);
        }
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
        let collector = self
            .ctx
            .collector(pkg)
            .ok_or_else(|| self.refuse(format_args!("package {} has no online CPU", pkg)))?;
        if self.is_pci()
            && !self.ctx.pci_present(
                pkg,
                Role::Box {
                    ty: self.ty.name,
                    index: self.index as u8,
                },
            )
        {
            return Err(self.refuse(format_args!("no device for this box on package {}", pkg)));
        }
        let enc = encode(self.ty, self.index, Self::attr(ev))
            .map_err(|e| self.refuse(format_args!("{}", e)))?;
        if self.ty.special == Special::QpiMatchMask
            && !enc.shared.is_none()
            && !self.ctx.pci_present(
                pkg,
                Role::QpiFilter {
                    port: self.index as u8,
                },
            )
        {
            return Err(self.refuse(format_args!(
                "QPI port {} has no packet match/mask device",
                self.index
            )));
        }
        self.validate_group(ev, enc)?;
        ev.set_cpu(collector);
        Ok(())
    }

    fn add(&self, ev: &Event, flags: u32) -> Result {
        let b = self.current_box().ok_or(EINVAL)?;
        let enc = encode(self.ty, self.index, Self::attr(ev)).map_err(|_| EINVAL)?;
        let mut inner = b.inner.lock();
        let free = inner.slots.iter().position(|s| s.is_none()).ok_or(EBUSY)?;
        let choice = inner.shared.take(&enc.shared).ok_or(EBUSY)?;
        // Place every counter-using event, the new one last.
        let mut wants = [Want {
            counters: 0,
            current: None,
        }; MAX_EVENTS];
        let mut who = [usize::MAX; MAX_EVENTS];
        let mut n = 0;
        for (k, a) in inner.slots.iter().enumerate() {
            if let Some(a) = a {
                let current = match a.ctr {
                    Ctr::General(j) => j,
                    Ctr::Fixed => self.ty.fixed_index(),
                    Ctr::Free(_) => continue,
                };
                if n < MAX_EVENTS {
                    wants[n] = Want {
                        counters: a.counters,
                        current: Some(current),
                    };
                    who[n] = k;
                    n += 1;
                }
            }
        }
        let new_ctr = if let Kind::FreeRunning(j) = enc.kind {
            Some(Ctr::Free(j))
        } else if n < MAX_EVENTS {
            wants[n] = Want {
                counters: enc.counters,
                current: None,
            };
            who[n] = free;
            n += 1;
            None
        } else {
            inner.shared.release(&enc.shared, choice);
            return Err(EBUSY);
        };
        let mut out = [0u8; MAX_EVENTS];
        if new_ctr.is_none() && !sched::assign(&wants[..n], &mut out) {
            inner.shared.release(&enc.shared, choice);
            return Err(EBUSY);
        }
        let to_ctr = |c: u8| {
            if c == self.ty.fixed_index() {
                Ctr::Fixed
            } else {
                Ctr::General(c)
            }
        };
        // Move running events whose counter changed.
        let mut restart = [false; MAX_SLOTS];
        if new_ctr.is_none() {
            for i in 0..n - 1 {
                let k = who[i];
                let Some(a) = inner.slots[k] else { continue };
                let c = to_ctr(out[i]);
                if a.ctr != c {
                    restart[k] = a.started;
                    b.stop_one(&mut inner, k, true);
                    if let Some(mut a) = inner.slots[k] {
                        a.ctr = c;
                        inner.slots[k] = Some(a);
                    }
                }
            }
        }
        let ctr = new_ctr.unwrap_or_else(|| to_ctr(out[n - 1]));
        let held = (!enc.shared.is_none()).then(|| enc.shared.choices()[choice as usize]);
        let ctl = enc.ctl_for(choice);
        inner.slots[free] = Some(Active {
            ev: ev.id(),
            ctl,
            counters: enc.counters,
            held,
            ctr,
            prev: 0,
            started: false,
            pending: 0,
        });
        for (k, r) in restart.iter().enumerate() {
            if *r {
                b.start_one(&mut inner, k);
            }
        }
        if flags & EF_START != 0 {
            let first = !BoxState::any_started(&inner);
            b.start_one(&mut inner, free);
            if first {
                drop(inner);
                self.timers[b.pkg].start(self.interval_ns);
            }
        }
        Ok(())
    }

    fn del(&self, ev: &Event, _flags: u32) {
        let Some(b) = self.current_box() else { return };
        let mut inner = b.inner.lock();
        let Some(k) = inner.find(ev) else { return };
        b.stop_one(&mut inner, k, true);
        if let Some(mut a) = inner.slots[k].take() {
            a.flush(ev);
            if let Some(c) = a.held {
                inner.shared.release_choice(&c);
            }
        }
    }

    fn start(&self, ev: &Event, _flags: u32) {
        let Some(b) = self.current_box() else { return };
        let mut inner = b.inner.lock();
        let Some(k) = inner.find(ev) else { return };
        let first = !BoxState::any_started(&inner);
        b.start_one(&mut inner, k);
        drop(inner);
        if first {
            self.timers[b.pkg].start(self.interval_ns);
        }
    }

    fn stop(&self, ev: &Event, flags: u32) {
        let Some(b) = self.current_box() else { return };
        let mut inner = b.inner.lock();
        if let Some(k) = inner.find(ev) {
            let update = flags & EF_UPDATE != 0;
            b.stop_one(&mut inner, k, update);
            if let (true, Some(a)) = (update, inner.slots[k].as_mut()) {
                a.flush(ev);
            }
        }
        // The timer stops by itself when it finds nothing started.
    }

    fn read(&self, ev: &Event) {
        let Some(b) = self.current_box() else { return };
        let mut inner = b.inner.lock();
        if let Some(k) = inner.find(ev) {
            if let Some(mut a) = inner.slots[k] {
                if a.started {
                    b.update(&mut a);
                }
                a.flush(ev);
                inner.slots[k] = Some(a);
            }
        }
    }

    fn enable(&self) {
        let Some(b) = self.current_box() else { return };
        if self.ctx.collector(b.pkg) != Some(CpuId::current()) {
            return;
        }
        let mut inner = b.inner.lock();
        inner.disabled = false;
        b.apply_run(&mut inner);
    }

    fn disable(&self) {
        let Some(b) = self.current_box() else { return };
        if self.ctx.collector(b.pkg) != Some(CpuId::current()) {
            return;
        }
        let mut inner = b.inner.lock();
        inner.disabled = true;
        b.apply_run(&mut inner);
    }

    fn cpumask(&self) -> &CpuMask {
        &self.ctx.cpumask
    }
}

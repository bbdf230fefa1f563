// SPDX-License-Identifier: GPL-2.0

//! Rust perf PMU sample: a software PMU that counts the nanoseconds of the monotonic clock for
//! which its events run.
//!
//! Per-task and per-CPU counting events are accepted, sampling events and `exclude_*` filters
//! are not. An event may be a member of a sampling group, whose samples read it from the
//! leader's overflow: in NMI for a hardware leader, so the clock is the NMI-safe
//! `ktime_get_mono_fast_ns()`. The PMU is registered under a faux device of the same name, whose
//! unbinding unregisters it. With the module loaded:
//!
//! ```sh
//! perf stat -e rust_pmu/ns/ -- sleep 1
//! perf stat -a -e rust_pmu/ns/ -- sleep 1
//! perf record -e '{cycles,rust_pmu/ns/}:S' -- sleep 1
//! ```

use kernel::{
    faux,
    interrupt::LocalInterruptDisabled,
    perf::{
        Attr,
        Capabilities,
        Capability,
        Event,
        EventFlag,
        EventFlags,
        HwState,
        HwStates,
        NewEvent,
        Pmu,
        ReadContext,
        Registration,
        StartStopContext,
        TaskContext, //
    },
    prelude::*,
};

module! {
    type: RustPmuModule,
    name: "rust_pmu",
    authors: ["Rust for Linux Contributors"],
    description: "Rust perf PMU sample",
    license: "GPL",
}

/// The `format/` files: the event code is `config:0-7`.
const FORMATS: &[Attr<'static>] = &[Attr {
    name: c"event",
    value: c"config:0-7",
}];

/// The `events/` files: the one event and its unit.
const EVENTS: &[Attr<'static>] = &[
    Attr {
        name: c"ns",
        value: c"event=0x00",
    },
    Attr {
        name: c"ns.unit",
        value: c"ns",
    },
];

/// The PMU.
struct Clock;

impl Clock {
    /// Adds the time from the event's last update to `now` to its count.
    fn update(event: &Event<Self>, now: u64) {
        let prev = event.prev_count_xchg(now);
        // The fast clock may step back by a few nanoseconds across an update: none are counted.
        event.count_add(now.saturating_sub(prev));
    }
}

#[vtable]
impl Pmu for Clock {
    const CAPABILITIES: Capabilities = Capabilities::empty().with(Capability::NoExclude);
    const TASK_CONTEXT: TaskContext = TaskContext::Software;
    type EventData = ();

    fn event_init(&self, event: &mut NewEvent<Self>) -> Result {
        if event.config().config != 0 {
            pr_debug!("unknown event code {:#x}\n", event.config().config);
            return Err(EINVAL);
        }
        Ok(())
    }

    fn add(&self, event: &Event<Self>, flags: EventFlags, irq: &LocalInterruptDisabled) -> Result {
        event.set_state(HwState::Stopped | HwState::UpToDate);
        if flags.contains(EventFlag::Start) {
            self.start(event, flags, StartStopContext::from_irqs_off(irq));
        }
        Ok(())
    }

    fn del(&self, event: &Event<Self>, _flags: EventFlags, irq: &LocalInterruptDisabled) {
        let ctx = StartStopContext::from_irqs_off(irq);
        self.stop(event, EventFlag::Update.into(), ctx);
    }

    fn start(&self, event: &Event<Self>, _flags: EventFlags, ctx: &StartStopContext) {
        event.prev_count_set(ctx.mono_fast_ns());
        event.set_state(HwStates::empty());
    }

    fn stop(&self, event: &Event<Self>, _flags: EventFlags, ctx: &StartStopContext) {
        // The count is always brought up to date, throttled or not: reading the clock is cheap.
        if !event.state().contains(HwState::Stopped) {
            Self::update(event, ctx.mono_fast_ns());
        }
        event.set_state(HwState::Stopped | HwState::UpToDate);
    }

    fn read(&self, event: &Event<Self>, ctx: &ReadContext) {
        if !event.state().contains(HwState::Stopped) {
            Self::update(event, ctx.mono_fast_ns());
        }
    }
}

/// The module: the faux device the PMU is registered under, which owns the registration.
struct RustPmuModule {
    _dev: faux::Registration,
}

impl kernel::Module for RustPmuModule {
    fn init(module: &'static ThisModule) -> Result<Self> {
        let dev = faux::Registration::new(c"rust_pmu", None)?;
        Registration::new_foreign_owned(
            dev.as_ref().as_ref(),
            module,
            c"rust_pmu",
            Clock,
            FORMATS,
            EVENTS,
        )?;
        Ok(Self { _dev: dev })
    }
}

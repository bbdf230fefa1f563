// SPDX-License-Identifier: GPL-2.0

//! Rust perf PMU sample: a software PMU that counts the nanoseconds of the monotonic clock for
//! which its events run.
//!
//! Per-task and per-CPU counting events are accepted, sampling events and `exclude_*` filters
//! are not. The PMU is registered under a faux device of the same name, whose unbinding
//! unregisters it. With the module loaded:
//!
//! ```sh
//! perf stat -e rust_pmu/ns/ -- sleep 1
//! perf stat -a -e rust_pmu/ns/ -- sleep 1
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
        Registration,
        TaskContext, //
    },
    prelude::*,
    time::{
        Instant,
        Monotonic, //
    },
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

/// The PMU: its clock's origin.
struct Clock {
    epoch: Instant<Monotonic>,
}

impl Clock {
    /// Nanoseconds since the PMU was registered.
    fn now(&self) -> u64 {
        // `Instant<Monotonic>` never goes backwards: the difference is not negative.
        self.epoch.elapsed().as_nanos().unsigned_abs()
    }

    /// Adds the time since the event's last update to its count.
    fn update(&self, event: &Event<Self>) {
        let now = self.now();
        let prev = event.prev_count_xchg(now);
        event.count_add(now.wrapping_sub(prev));
    }
}

#[vtable]
impl Pmu for Clock {
    const CAPABILITIES: Capabilities = Capabilities::empty()
        .with(Capability::NoInterrupt)
        .with(Capability::NoExclude);
    const TASK_CONTEXT: TaskContext = TaskContext::Software;
    type EventData = ();

    fn event_init(&self, event: &mut NewEvent<Self>) -> Result {
        if !event.is_for_this_pmu() {
            return Err(ENOENT);
        }
        if event.config().config != 0 {
            pr_debug!("unknown event code {:#x}\n", event.config().config);
            return Err(EINVAL);
        }
        Ok(())
    }

    fn add(&self, event: &Event<Self>, flags: EventFlags, irq: &LocalInterruptDisabled) -> Result {
        event.set_state(HwState::Stopped | HwState::UpToDate);
        if flags.contains(EventFlag::Start) {
            self.start(event, flags, irq);
        }
        Ok(())
    }

    fn del(&self, event: &Event<Self>, _flags: EventFlags, irq: &LocalInterruptDisabled) {
        self.stop(event, EventFlag::Update.into(), irq);
    }

    fn start(&self, event: &Event<Self>, _flags: EventFlags, _irq: &LocalInterruptDisabled) {
        event.prev_count_set(self.now());
        event.set_state(HwStates::empty());
    }

    fn stop(&self, event: &Event<Self>, _flags: EventFlags, _irq: &LocalInterruptDisabled) {
        // The count is always brought up to date: reading the clock is cheap.
        if !event.state().contains(HwState::Stopped) {
            self.update(event);
        }
        event.set_state(HwState::Stopped | HwState::UpToDate);
    }

    fn read(&self, event: &Event<Self>, _irq: &LocalInterruptDisabled) {
        if !event.state().contains(HwState::Stopped) {
            self.update(event);
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
        let clock = Clock {
            epoch: Instant::now(),
        };
        Registration::new_foreign_owned(
            dev.as_ref().as_ref(),
            module,
            c"rust_pmu",
            clock,
            FORMATS,
            EVENTS,
        )?;
        Ok(Self { _dev: dev })
    }
}

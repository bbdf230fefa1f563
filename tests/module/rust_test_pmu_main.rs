// SPDX-License-Identifier: GPL-2.0

//! A minimal software PMU built on the kernel abstraction layer (`rust/`)
//! alone, without rust_uncore's glue, core or engine: it shows that the
//! perf abstraction is generic. Its two PMUs count nanoseconds of the
//! monotonic clock while their events run:
//!
//! - `rust_test_clock`: per-task and per-CPU events, in perf's software
//!   task context, no scope (no `cpumask` file);
//! - `rust_test_package`: CPU-wide events only, scoped to the package:
//!   perf shows a `cpumask` of one CPU per package and moves events there.
//!
//! Both refuse sampling and `exclude_*` (their capabilities), and any event
//! code but 0 (`EINVAL`, with a debug message). `rust_test_package` takes
//! groups of up to four of its events (the group walk of `event_init`);
//! `rust_test_clock`, in the software context, refuses any group member
//! (`EINVAL`: perf holds no lock over the group there). Built with `TEST_PMU=1`
//! (see `Kbuild`); the guest test `tests/guest/30-test-pmu.sh` loads it and
//! counts with `perf stat`.
//!
//! Two debugfs files under `/sys/kernel/debug/rust_test_pmu/`: `migrate`
//! (write `<from> <to>`) calls [`Registration::migrate`] for
//! `rust_test_clock`: its CPU events on CPU `from` move to CPU `to` of the
//! same package, and two packages are refused (`EINVAL`). `reregister`
//! (write anything) drops `rust_test_clock`'s registration, with whatever
//! events it has, and registers it again: the drop's handling of live
//! events (waiting for them, or perf revoking them) under test. `timer`
//! (write `self-drop`) starts a timer whose handler owns it and drops it
//! from its own callback, after trying to start it there (refused): the
//! write succeeds once the timer stopped (`EIO` if it fires on, or never).

#[path = "../../rust/mod.rs"]
pub mod sys;

// The kernel crate's paths the perf abstraction's files name (`crate::…`).
#[path = "../../rust/kcrate.rs"]
pub mod kcrate;
pub use kcrate::{bindings, cpu, cpumask, device, devres, error, interrupt, prelude, str, types};
pub(crate) use kcrate::{container_of, impl_flags, warn_on};

use core::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use kernel::c_str;
use kernel::prelude::*;
use kernel::str::CStr;
use kernel::sync::{new_mutex, Arc, Mutex};
use sys::cpu::{CpuId, IrqsOff};
use sys::debugfs::{DebugfsOps, Dir, Writer};
use sys::hrtimer::{Timer, TimerHandler};
use sys::perf::{
    Adding, Attr, Capabilities, Capability, Event, EventFlag, EventFlags, HwState, HwStates,
    NewEvent, PmuOps, PmuOptions, Reading, Registration, Scope, TaskContext,
};
use sys::sync::{new_irq_lock, IrqLock};

module! {
    type: TestPmuModule,
    name: "rust_test_pmu",
    description: "A software test PMU on rust_uncore's perf abstraction",
    license: "GPL",
}

/// The `format/` files of both PMUs.
const FORMATS: &[Attr<'static>] = &[Attr {
    name: "event",
    value: &"config:0-7",
}];

/// The `events/` files of both PMUs: the one event, with its unit.
const EVENTS: &[Attr<'static>] = &[
    Attr {
        name: "ns",
        value: &"event=0x00",
    },
    Attr {
        name: "ns.unit",
        value: &"ns",
    },
];

/// The most events of one PMU a group may have.
const GROUP_MAX: usize = 4;

/// Adds the time since the last update to a running event's count (one
/// not stopped: `hw.state`).
fn update<T: PmuOps>(ev: &Event<T>) {
    if ev.state().contains(HwState::Stopped) {
        return;
    }
    let now = sys::cpu::now_ns_any_context();
    let prev = ev.swap_prev_count(now);
    ev.add_count(now.saturating_sub(prev));
}

/// Stops a running event, its count updated.
fn stop<T: PmuOps>(ev: &Event<T>) {
    update(ev);
    ev.set_state(HwState::Stopped | HwState::UpToDate);
}

/// A PMU counting nanoseconds: `rust_test_package` when `PACKAGE`, else
/// `rust_test_clock`.
struct ClockPmu<const PACKAGE: bool>;

impl<const PACKAGE: bool> ClockPmu<PACKAGE> {
    /// The name the PMU's messages give it.
    const NAME: &'static str = if PACKAGE {
        "rust_test_package"
    } else {
        "rust_test_clock"
    };
}

#[vtable]
impl<const PACKAGE: bool> PmuOps for ClockPmu<PACKAGE> {
    const OPTIONS: PmuOptions = PmuOptions {
        capabilities: Capabilities::empty()
            .with(Capability::NoInterrupt)
            .with(Capability::NoExclude),
        task_context: if PACKAGE {
            TaskContext::Invalid
        } else {
            TaskContext::Software
        },
        scope: if PACKAGE { Scope::Package } else { Scope::None },
        readable_in_package: false,
    };

    type EventData = ();

    fn event_init(&self, ev: &mut NewEvent<Self>) -> Result<()> {
        let code = ev.config().config;
        if code != 0 {
            sys::pr_dbg!(
                "{}: event {:#x} refused: the only event is 0 (ns)\n",
                Self::NAME,
                code
            );
            return Err(EINVAL);
        }
        // A group fits if it has at most `GROUP_MAX` events of this PMU: the walk, which
        // `rust_test_clock` (software context, no lock around `event_init`) is refused.
        let mut members = 1;
        ev.for_each_group_member(|_| {
            members += 1;
            if members > GROUP_MAX {
                return Err(EINVAL);
            }
            Ok(())
        })
    }

    fn add(
        &self,
        irq: &IrqsOff,
        ev: &Event<Self>,
        _entry: Adding<'_, Self>,
        flags: EventFlags,
    ) -> Result {
        ev.set_state(HwState::Stopped | HwState::UpToDate);
        if flags.contains(EventFlag::Start) {
            self.start(irq, ev, flags);
        }
        Ok(())
    }

    fn del(&self, _irq: &IrqsOff, ev: &Event<Self>, _flags: EventFlags) {
        stop(ev);
    }

    fn start(&self, _irq: &IrqsOff, ev: &Event<Self>, _flags: EventFlags) {
        ev.swap_prev_count(sys::cpu::now_ns_any_context());
        ev.set_state(HwStates::empty());
    }

    fn stop(&self, _irq: &IrqsOff, ev: &Event<Self>, _flags: EventFlags) {
        // Counted time is never dropped: updated whether `PERF_EF_UPDATE` or not.
        stop(ev);
    }

    fn read(&self, _rd: Reading<'_>, ev: &Event<Self>) {
        update(ev);
    }
}

/// The number of the debugfs file `migrate`.
const MIGRATE: u32 = 0;
/// The number of the debugfs file `reregister`.
const REREGISTER: u32 = 1;
/// The number of the debugfs file `timer`.
const TIMER: u32 = 2;

/// The debugfs files.
static FILES: [(&CStr, u32); 3] = [
    (c_str!("migrate"), MIGRATE),
    (c_str!("reregister"), REREGISTER),
    (c_str!("timer"), TIMER),
];

/// A timer handler that owns its own timer and drops it from its callback.
#[pin_data]
struct SelfDrop {
    #[pin]
    held: IrqLock<Option<Timer<SelfDrop>>>,
    fired: AtomicU32,
    /// A start from the callback was refused.
    start_refused: AtomicBool,
}

impl TimerHandler for SelfDrop {
    fn fire(&self, _irq: &IrqsOff) -> bool {
        self.fired.fetch_add(1, Ordering::AcqRel);
        let timer = self.held.lock().take();
        if let Some(t) = timer {
            if t.start(1_000_000).is_err() {
                self.start_refused.store(true, Ordering::Release);
            }
            // Dropped from its own callback.
            drop(t);
        }
        // Asks for more: a dropped timer must not fire again.
        true
    }
}

/// `timer`'s `self-drop`: see the module's documentation.
fn self_drop() -> Result {
    let h = Arc::pin_init(
        pin_init!(SelfDrop {
            held <- new_irq_lock!(None, "rust_test_pmu:timer"),
            fired: AtomicU32::new(0),
            start_refused: AtomicBool::new(false),
        }),
        GFP_KERNEL,
    )?;
    let t = Timer::new(h.clone())?;
    t.start(1_000_000)?;
    *h.held.lock() = Some(t);
    let mut waited = 0;
    while h.held.lock().is_some() && waited < 1000 {
        sys::cpu::sleep_ms(1)?;
        waited += 1;
    }
    let fired = h.fired.load(Ordering::Acquire);
    sys::cpu::sleep_ms(50)?;
    let after = h.fired.load(Ordering::Acquire);
    let refused = h.start_refused.load(Ordering::Acquire);
    sys::pr_dbg!(
        "rust_test_pmu: self-drop: fired {} then {}, start refused {}\n",
        fired,
        after,
        refused
    );
    if h.held.lock().is_some() || fired == 0 || after != fired || !refused {
        return Err(EIO);
    }
    Ok(())
}

/// `rust_test_clock`'s registration.
type Clock = Pin<KBox<Registration<ClockPmu<false>>>>;

/// Registers `rust_test_clock`.
fn register_clock(module: &'static ThisModule) -> Result<Clock> {
    KBox::pin_init(
        Registration::new(module, c_str!("rust_test_clock"), ClockPmu, FORMATS, EVENTS),
        GFP_KERNEL,
    )
}

/// The debugfs files' handler, which owns `rust_test_clock` (`None` only
/// when registering it again failed).
#[pin_data]
struct Control {
    module: &'static ThisModule,
    #[pin]
    clock: Mutex<Option<Clock>>,
}

impl DebugfsOps for Control {
    fn read(&self, _file: u32, _out: &mut Writer<'_>) -> Result {
        Err(EINVAL)
    }

    /// `migrate`: `<from> <to>`, two online CPUs; `reregister`: anything;
    /// `timer`: `self-drop`.
    fn write(&self, file: u32, input: &str) -> Result {
        if file == TIMER {
            return match input.trim() {
                "self-drop" => self_drop(),
                _ => Err(EINVAL),
            };
        }
        if file == REREGISTER {
            let mut clock = self.clock.lock();
            // The old one goes first: both have the same name.
            *clock = None;
            *clock = Some(register_clock(self.module)?);
            return Ok(());
        }
        if file != MIGRATE {
            return Err(EINVAL);
        }
        let mut cpus = input.split_whitespace().map(|w| {
            w.parse::<u32>()
                .ok()
                .and_then(CpuId::from_u32)
                .filter(|c| c.is_online())
        });
        let (Some(Some(from)), Some(Some(to)), None) = (cpus.next(), cpus.next(), cpus.next())
        else {
            sys::pr_dbg!("rust_test_pmu: migrate: want two online CPUs\n");
            return Err(EINVAL);
        };
        match &*self.clock.lock() {
            Some(clock) => clock.migrate(from, to),
            None => Err(ENODEV),
        }
    }
}

/// The loaded module: its two registered PMUs (`rust_test_clock` inside the
/// debugfs handler), unregistered on unload after the files are removed.
struct TestPmuModule {
    _files: Pin<KBox<Dir<Control>>>,
    _package: Pin<KBox<Registration<ClockPmu<true>>>>,
}

impl kernel::Module for TestPmuModule {
    fn init(module: &'static ThisModule) -> Result<Self> {
        let clock = register_clock(module)?;
        let package = KBox::pin_init(
            Registration::new(
                module,
                c_str!("rust_test_package"),
                ClockPmu,
                FORMATS,
                EVENTS,
            ),
            GFP_KERNEL,
        )?;
        let control = Arc::pin_init(
            pin_init!(Control {
                module,
                clock <- new_mutex!(Some(clock), "rust_test_pmu:clock"),
            }),
            GFP_KERNEL,
        )?;
        let files = KBox::pin_init(
            Dir::new(module, c_str!("rust_test_pmu"), &FILES, control),
            GFP_KERNEL,
        )?;
        Ok(TestPmuModule {
            _files: files,
            _package: package,
        })
    }
}

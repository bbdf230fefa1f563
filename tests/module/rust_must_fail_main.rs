// SPDX-License-Identifier: GPL-2.0

//! Uses of the kernel abstraction layer (`rust/`) that its types must
//! refuse at compile time, one per `fail` configuration: the build of this
//! crate with `MUST_FAIL=<case>` (see `Kbuild`) must fail, with the error
//! `tests/host/type-rules.sh` expects, and with `MUST_FAIL=none` it must
//! succeed (the cases are otherwise well-formed). Never a module anyone
//! loads: only its object is built.

#![allow(dead_code, unused_imports)]

#[path = "../../rust/mod.rs"]
pub mod sys;

// The kernel crate's paths the perf abstraction's files name (`crate::…`).
#[path = "../../rust/kcrate.rs"]
pub mod kcrate;
pub use kcrate::{bindings, cpu, cpumask, device, devres, error, interrupt, prelude, str, types};
pub(crate) use kcrate::{container_of, impl_flags, warn_on};

/// The prefix of the kernel messages the layer prints (a `module!` crate
/// gets it from the macro; this object has none).
const __LOG_PREFIX: &[u8] = b"rust_must_fail\0";

use crate::interrupt::LocalInterruptDisabled;
use kernel::prelude::*;
use sys::cpu::{without_irqs, IrqsOff};
use sys::pci::{self, Binding, Bound, ConfigRegister, Device};
use sys::perf::EventSlots;
use sys::rcu;
use sys::series::perf::{
    Event, EventFlags, NewEvent, Pmu, ReadContext, Registration, StartStopContext, TaskContext,
};
use sys::sync::{new_irq_lock, IrqLock};

/// A register the cases write.
#[derive(Clone, Copy)]
struct Control;

// SAFETY: Never written: the crate is only compiled.
unsafe impl ConfigRegister for Control {
    fn offset(self) -> u32 {
        0x40
    }
}

/// The well-formed counterparts: a lock taken and dropped inside; a
/// device bound to the driver written, in `probe` and through its binding.
#[cfg(fail = "none")]
fn case(l: &IrqLock<u32>) -> u32 {
    without_irqs(|_| *l.lock())
}

#[cfg(fail = "none")]
fn use_slot(slots: &EventSlots, l: &IrqLock<u32>) -> Option<()> {
    sys::sync::with_locked(l, |_, irq| slots.with(irq, 0, |_| ()))
}

#[cfg(fail = "none")]
fn write_bound(dev: &Device<Bound>, b: &Binding) -> kernel::error::Result {
    dev.write_config_u32(Control, 0)?;
    without_irqs(|irq| {
        let g = rcu::read_lock(irq);
        b.device(&g)
            .ok_or(kernel::error::code::ENODEV)?
            .write_config_u32(Control, 0)
    })
}

/// A guard taken outside and dropped inside would turn interrupts on while
/// the token says they are off.
#[cfg(fail = "guard_into_without_irqs")]
fn case(l: &IrqLock<u32>) -> u32 {
    let g = l.lock();
    without_irqs(move |_| {
        let v = *g;
        drop(g);
        v
    })
}

/// A guard taken inside and dropped outside would turn interrupts off after
/// `without_irqs` turned them back on.
#[cfg(fail = "guard_out_of_without_irqs")]
fn case(l: &IrqLock<u32>) -> u32 {
    let g = without_irqs(|_| l.lock());
    *g
}

/// A device found by ID may be bound to another driver, or to none.
#[cfg(fail = "write_config_of_any_device")]
fn case() {
    for d in pci::devices(0x8086, 0x3ce0) {
        let _ = d.write_config_u32(Control, 0);
    }
}

/// A device bound in `probe` is bound for the call only: a reference kept
/// past it would outlive the binding.
#[cfg(fail = "bound_device_kept")]
fn case<'a>(b: &'a Binding, irq: &'a IrqsOff) -> &'a Device<Bound> {
    let g = rcu::read_lock(irq);
    b.device(&g).unwrap()
}

/// An event's entry is used with interrupts off only (`del` waits for its
/// users): process context has no proof to lend, and cannot make one.
#[cfg(fail = "event_slot_in_process_context")]
fn case(slots: &EventSlots) -> Option<()> {
    slots.with(&IrqsOff::new(), 0, |_| ())
}

/// An RCU read-side section needs the proof that interrupts are off (so
/// that nothing in it can wait for a grace period): process context has
/// none to lend.
#[cfg(fail = "rcu_section_in_process_context")]
fn case() {
    let _g = rcu::read_lock();
}

/// A PMU of the series' `Pmu` trait with the callbacks every PMU has, its
/// `read` as given; the `enable`/`disable` cases below add one or both of
/// the optional pair.
macro_rules! pmu_with {
    ($name:ident, fn read $read_args:tt $read_body:block $($opt:tt)*) => {
        /// A PMU the cases register.
        struct $name;

        #[vtable]
        impl Pmu for $name {
            const CAPABILITIES: sys::series::perf::Capabilities =
                sys::series::perf::Capabilities::empty();
            const TASK_CONTEXT: TaskContext = TaskContext::Invalid;
            type EventData = KBox<u64>;

            fn event_init(&self, event: &mut NewEvent<Self>) -> Result<KBox<u64>> {
                Ok(KBox::new(event.config().config, GFP_KERNEL)?)
            }

            fn add(&self, _: &Event<Self>, _: EventFlags, _: &LocalInterruptDisabled) -> Result {
                Ok(())
            }

            fn del(&self, _: &Event<Self>, _: EventFlags, _: &LocalInterruptDisabled) {}
            fn start(&self, _: &Event<Self>, _: EventFlags, _: &StartStopContext) {}
            fn stop(&self, _: &Event<Self>, _: EventFlags, _: &StartStopContext) {}
            fn read $read_args $read_body
            $($opt)*
        }

        /// Registers the PMU (which builds its `struct pmu`).
        pub fn register(module: &'static ThisModule) -> Result {
            let _pmu = KBox::pin_init(
                Registration::new::<core::convert::Infallible>(
                    module,
                    kernel::c_str!("rust_must_fail"),
                    $name,
                    &[],
                    &[],
                ),
                GFP_KERNEL,
            )?;
            Ok(())
        }
    };
    ($name:ident, $($opt:tt)*) => {
        pmu_with! {
            $name,
            fn read(&self, _: &Event<Self>, _: &ReadContext) {}
            $($opt)*
        }
    };
}

// The well-formed counterpart: both of the pair.
#[cfg(fail = "none")]
pmu_with! {
    Both,
    fn enable(&self, _: &LocalInterruptDisabled) {}
    fn disable(&self, _: &LocalInterruptDisabled) {}
}

// `enable` alone would leave perf a NULL `pmu_disable` to call.
#[cfg(fail = "enable_without_disable")]
pmu_with! {
    EnableOnly,
    fn enable(&self, _: &LocalInterruptDisabled) {}
}

// `disable` alone would be replaced by perf's no-op, silently.
#[cfg(fail = "disable_without_enable")]
pmu_with! {
    DisableOnly,
    fn disable(&self, _: &LocalInterruptDisabled) {}
}

/// What needs interrupts off and may not run in NMI: a `SpinLockIrq`'s
/// `lock_with` (7.x; 6.12 has none) takes the same proof.
fn irq_safe_lock(_: &LocalInterruptDisabled) {}

// The well-formed counterpart: `add` has the proof (interrupts off, never
// NMI).
#[cfg(fail = "none")]
fn add_takes_irq_lock(irq: &LocalInterruptDisabled) {
    irq_safe_lock(irq);
}

// `read` may run in NMI (a sample of a group with a hardware event, BPF's
// `perf_event_read_local()`): its token is no proof for an IRQ-safe lock.
#[cfg(fail = "irq_lock_in_read")]
pmu_with! {
    ReadLocks,
    fn read(&self, _: &Event<Self>, ctx: &ReadContext) {
        irq_safe_lock(ctx);
    }
}

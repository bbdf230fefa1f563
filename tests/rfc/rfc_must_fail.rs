// SPDX-License-Identifier: GPL-2.0

//! Uses of `kernel::perf` that its types must refuse at compile time, one per `fail`
//! configuration, built by scripts/rfc-check.sh in the patched tree (as an object of
//! `samples/rust/`, with `--cfg fail="<case>"`): each case must fail to build with the error it is
//! about, and the well-formed case `none` must build, so that a failure is the rule's.

use kernel::{
    interrupt::LocalInterruptDisabled,
    perf::{
        Capabilities,
        Event,
        EventFlags,
        NewEvent,
        Pmu,
        ReadContext,
        Registration,
        StartStopContext,
        TaskContext, //
    },
    prelude::*,
    sync::{
        new_spinlock_irq,
        SpinLockIrq, //
    },
};

module! {
    type: MustFail,
    name: "rfc_must_fail",
    authors: ["Rust for Linux Contributors"],
    description: "kernel::perf uses that must not build",
    license: "GPL",
}

/// A PMU with an interrupt-safe lock, which only a context with interrupts off and outside NMI
/// may take with [`SpinLockIrq::lock_with`].
struct Locked {
    count: Pin<KBox<SpinLockIrq<u64>>>,
}

impl Locked {
    /// Counts under the lock, with the proof that interrupts are off.
    fn bump(&self, irq: &LocalInterruptDisabled) {
        *self.count.lock_with(irq) += 1;
    }
}

#[vtable]
impl Pmu for Locked {
    const CAPABILITIES: Capabilities = Capabilities::empty();
    const TASK_CONTEXT: TaskContext = TaskContext::Invalid;
    type EventData = ();

    fn event_init(&self, _event: &mut NewEvent<Self>) -> Result {
        Ok(())
    }

    // `add` runs with interrupts off and never in NMI: the lock may be taken.
    fn add(&self, _: &Event<Self>, _: EventFlags, irq: &LocalInterruptDisabled) -> Result {
        self.bump(irq);
        Ok(())
    }

    fn del(&self, _: &Event<Self>, _: EventFlags, _: &LocalInterruptDisabled) {}
    fn start(&self, _: &Event<Self>, _: EventFlags, _: &StartStopContext) {}

    #[cfg(not(fail = "irq_lock_in_stop"))]
    fn stop(&self, _: &Event<Self>, _: EventFlags, _: &StartStopContext) {}

    // `stop` may run in NMI (a group's throttle), on a lock this CPU holds: its token is no
    // proof for `lock_with`.
    #[cfg(fail = "irq_lock_in_stop")]
    fn stop(&self, _: &Event<Self>, _: EventFlags, ctx: &StartStopContext) {
        *self.count.lock_with(ctx) += 1;
    }

    #[cfg(not(fail = "irq_lock_in_read"))]
    fn read(&self, _: &Event<Self>, _: &ReadContext) {}

    // `read` may run in NMI (a sample of a group with a hardware event): neither is its token.
    #[cfg(fail = "irq_lock_in_read")]
    fn read(&self, _: &Event<Self>, ctx: &ReadContext) {
        *self.count.lock_with(ctx) += 1;
    }

    // `enable` alone would leave perf a NULL `pmu_disable` to call.
    #[cfg(fail = "enable_without_disable")]
    fn enable(&self, _: &LocalInterruptDisabled) {}
}

#[pin_data]
struct MustFail {
    #[pin]
    pmu: Registration<Locked>,
}

impl kernel::InPlaceModule for MustFail {
    fn init(module: &'static ThisModule) -> impl PinInit<Self, Error> {
        let ops = KBox::pin_init(new_spinlock_irq!(0), GFP_KERNEL).map(|count| Locked { count });
        try_pin_init!(Self {
            pmu <- Registration::new(module, c"rfc_must_fail", ops?, &[], &[]),
        })
    }
}

// SPDX-License-Identifier: GPL-2.0

//! Performance monitoring units (PMUs) for perf events.
//!
//! A PMU driver implements [`Pmu`], a `#[vtable]` trait with one method per `struct pmu`
//! callback, and registers it with [`Registration`], which initialises the driver's PMU object
//! in place, owns it with the `struct pmu` and its sysfs attributes (`format/`, `events/` and,
//! for a PMU that has one, `cpumask`), and unregisters the PMU when dropped, or, for a PMU of a
//! device, when the device is unbound. The callbacks receive the event as an [`Event`] borrowed
//! for the call, or, in `event_init`, as a [`NewEvent`] that can still be changed and checked
//! against its group.
//!
//! An event's driver data ([`Pmu::EventData`], any `ForeignOwnable`: a `KBox`, an `Arc`, `()`)
//! is what `event_init` returns; perf holds it for the event, every later callback (and the
//! group checks of later events) borrows it, and [`Pmu::destroy`] gets it back when perf
//! destroys the event.
//!
//! C header: [`include/linux/perf_event.h`](srctree/include/linux/perf_event.h)
//!
//! # Examples
//!
//! ```
//! use kernel::perf::{EventFlag, EventFlags};
//!
//! let flags = EventFlags::from(EventFlag::Start);
//! assert!(flags.contains(EventFlag::Start));
//! assert!(!flags.contains(EventFlag::Reload));
//! ```

mod attr;
mod context;
mod event;
mod pmu;

pub use attr::Attr;
pub use context::{ReadContext, StartStopContext};
pub use event::{Config, Event, EventId, EventState, GroupMember, HwState, HwStates, NewEvent};
pub use pmu::{Pmu, Registration};

use crate::{
    bindings,
    impl_flags, //
};

impl_flags!(
    /// The flags perf passes to [`Pmu::add`], [`Pmu::del`], [`Pmu::start`] and [`Pmu::stop`]
    /// (`PERF_EF_*`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{EventFlag, EventFlags};
    ///
    /// assert!(!EventFlags::empty().contains(EventFlag::Update));
    /// ```
    #[derive(Debug, Clone, Default, Copy, PartialEq, Eq)]
    pub struct EventFlags(u32);

    /// One of the [`EventFlags`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{EventFlag, EventFlags};
    ///
    /// let flags = EventFlag::Start | EventFlag::Update;
    /// assert!(flags.contains(EventFlag::Update));
    /// # let _ = flags;
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum EventFlag {
        /// `add` also starts the event (`PERF_EF_START`).
        Start = bindings::PERF_EF_START,
        /// `start` reprograms the counter's period (`PERF_EF_RELOAD`).
        Reload = bindings::PERF_EF_RELOAD,
        /// `stop` updates the event's count (`PERF_EF_UPDATE`).
        Update = bindings::PERF_EF_UPDATE,
    }
);

impl_flags!(
    /// What a PMU can do, or cannot, beyond counting (`PERF_PMU_CAP_*`).
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Capabilities, Capability};
    ///
    /// let caps = Capability::NoInterrupt | Capability::NoExclude;
    /// assert!(caps.contains(Capability::NoExclude));
    /// assert!(!Capabilities::empty().contains(Capability::NoInterrupt));
    /// ```
    #[derive(Debug, Clone, Default, Copy, PartialEq, Eq)]
    pub struct Capabilities(u32);

    /// One of the [`Capabilities`].
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Capabilities, Capability};
    ///
    /// assert!(Capabilities::from(Capability::NoInterrupt).contains(Capability::NoInterrupt));
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Capability {
        /// The PMU has no overflow interrupt: perf refuses sampling events
        /// (`PERF_PMU_CAP_NO_INTERRUPT`). Implied: every PMU of [`Pmu`] has it, for want of an
        /// interrupt API.
        NoInterrupt = bindings::PERF_PMU_CAP_NO_INTERRUPT,
        /// The PMU cannot filter by privilege level: perf refuses events with an `exclude_*`
        /// flag (`PERF_PMU_CAP_NO_EXCLUDE`).
        NoExclude = bindings::PERF_PMU_CAP_NO_EXCLUDE,
    }
);

impl Capabilities {
    /// Returns these capabilities and `capability`, in constant context.
    ///
    /// # Examples
    ///
    /// ```
    /// use kernel::perf::{Capabilities, Capability};
    ///
    /// const CAPS: Capabilities = Capabilities::empty().with(Capability::NoInterrupt);
    /// assert!(CAPS.contains(Capability::NoInterrupt));
    /// ```
    pub const fn with(self, capability: Capability) -> Self {
        Self(self.0 | capability as u32)
    }
}

/// The context a PMU's per-task events are scheduled in (`pmu->task_ctx_nr`).
///
/// # Examples
///
/// ```
/// use kernel::perf::TaskContext;
///
/// assert_ne!(TaskContext::Invalid, TaskContext::Hardware);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskContext {
    /// No per-task events: CPU-wide events only (`perf_invalid_context`).
    Invalid,
    /// The hardware context (`perf_hw_context`).
    Hardware,
    /// The software context (`perf_sw_context`).
    Software,
}

impl TaskContext {
    fn as_raw(self) -> bindings::perf_event_task_context {
        match self {
            Self::Invalid => bindings::perf_event_task_context_perf_invalid_context,
            Self::Hardware => bindings::perf_event_task_context_perf_hw_context,
            Self::Software => bindings::perf_event_task_context_perf_sw_context,
        }
    }
}

/// The CPUs one of a PMU's counters serves (`pmu->scope`).
///
/// With a scope other than [`Scope::None`], perf itself shows the PMU's `cpumask` file (one
/// online CPU per unit of the scope, where tools open CPU-wide events), refuses a CPU-wide event
/// of a unit with no online CPU, lets any CPU of the event's unit read it
/// (`PERF_EV_CAP_READ_SCOPE`: [`Pmu::read`] may run there, and [`Event::count_add`] is atomic
/// across CPUs), and, when the CPU of the mask goes offline, migrates the PMU's events on it to
/// another CPU of the unit. It does not move an event opened on another CPU of the unit.
///
/// # Examples
///
/// ```
/// use kernel::perf::Scope;
///
/// assert_eq!(Scope::default(), Scope::None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Scope {
    /// The PMU handles CPUs itself (`PERF_PMU_SCOPE_NONE`).
    #[default]
    None,
    /// One per core (`PERF_PMU_SCOPE_CORE`).
    Core,
    /// One per die (`PERF_PMU_SCOPE_DIE`).
    Die,
    /// One per cluster (`PERF_PMU_SCOPE_CLUSTER`).
    Cluster,
    /// One per package (`PERF_PMU_SCOPE_PKG`).
    Package,
    /// One for the system (`PERF_PMU_SCOPE_SYS_WIDE`).
    System,
}

impl Scope {
    fn as_raw(self) -> u32 {
        match self {
            Self::None => bindings::PERF_PMU_SCOPE_NONE,
            Self::Core => bindings::PERF_PMU_SCOPE_CORE,
            Self::Die => bindings::PERF_PMU_SCOPE_DIE,
            Self::Cluster => bindings::PERF_PMU_SCOPE_CLUSTER,
            Self::Package => bindings::PERF_PMU_SCOPE_PKG,
            Self::System => bindings::PERF_PMU_SCOPE_SYS_WIDE,
        }
    }
}

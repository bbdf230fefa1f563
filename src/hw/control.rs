// SPDX-License-Identifier: GPL-2.0

//! The control plane's decisions: what each transition of a package does,
//! and in which order.
//!
//! A transition is a CPU going online or offline (the collector's
//! hand-over, or the package's stop when its last CPU goes), or one of the
//! package's PCI functions bound or unbound after load. The engine runs
//! one transition at a time (its control lock, process context), step by
//! step as [`plan`] lists them; the data plane (perf's `add`, `del`,
//! `start`, `stop`, `read`, the poll timer, the PMI) runs between any two
//! steps, each of its operations atomic under its box's lock. Which boxes a
//! step touches is decided when the step runs, from the box's state then
//! ([`Boxes::includes`], [`plug_inits`]), and what an event stopped by a
//! step keeps for later from the event's state then ([`keeps_start`]).
//!
//! The functions here are pure. The host tests run the plans over a model
//! of a package (two CPUs, a PCI box with one event) and explore every
//! interleaving of transitions and data-plane operations
//! (`control/tests.rs`): no count is lost or invented, no box is left
//! counting on a function that is gone, and a started event counts once
//! nothing is in progress. The same search without the control lock (the
//! transitions interleaving, as before the lock) finds the lost and
//! invented counts.

/// A control-plane transition of one package.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Transition {
    /// CPU `cpu` of the package came online.
    Online {
        /// The CPU.
        cpu: u32,
    },
    /// CPU `cpu` of the package goes offline; `other` is another online
    /// CPU of the package, if there is one.
    Offline {
        /// The CPU.
        cpu: u32,
        /// Another online CPU of the package.
        other: Option<u32>,
    },
    /// A PCI function of a box of the package is bound after load.
    Plug,
    /// A PCI function of a box of the package is unbound.
    Unplug,
}

/// What a plan is made from: the package's state when the transition
/// starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct View {
    /// The published collector.
    pub collector: Option<u32>,
    /// The module is unloading: no package starts, a collector going
    /// offline parks its package.
    pub unloading: bool,
}

/// Which boxes of the package a box step acts on, decided per box when the
/// step runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Boxes {
    /// Every box present (its function bound, or an MSR box).
    Present,
    /// The boxes present but still marked gone after an unplug: their
    /// function is bound again, their initialisation failed.
    Returned,
}

impl Boxes {
    /// Whether a box that is `present` and `gone` is acted on.
    ///
    /// # Examples
    ///
    /// ```
    /// use uncore_core::hw::control::Boxes;
    ///
    /// assert!(Boxes::Present.includes(true, false));
    /// assert!(!Boxes::Returned.includes(true, false));
    /// assert!(Boxes::Returned.includes(true, true));
    /// // A box whose function is unbound is never initialised.
    /// assert!(!Boxes::Returned.includes(false, true));
    /// ```
    pub const fn includes(self, present: bool, gone: bool) -> bool {
        match self {
            Boxes::Present => present,
            Boxes::Returned => present && gone,
        }
    }
}

/// Whether a plug initialises the plugged box: only where a collector is
/// published (asked when the step runs). Under the control lock a package
/// without one has no online CPU (or the module unloads): the package's
/// start initialises every box present ([`Boxes::Present`]).
pub const fn plug_inits(collector: Option<u32>) -> bool {
    collector.is_some()
}

/// Whether an event stopped because its box goes away or is initialised
/// (an unplug's retirement, a box initialisation) is started again once
/// the box is back: it was started, or a start was already kept for then
/// (its box went away before, or an initialisation failed). The engine's
/// retirement and box initialisation both ask this, and so does the host
/// model.
///
/// # Examples
///
/// ```
/// use uncore_core::hw::control::keeps_start;
///
/// assert!(keeps_start(true, false));
/// // A start kept through an earlier unplug, and a plug whose box
/// // initialisation failed, survives the next unplug.
/// assert!(keeps_start(false, true));
/// assert!(!keeps_start(false, false));
/// ```
pub const fn keeps_start(started: bool, resume: bool) -> bool {
    started || resume
}

/// The CPU that holds the package's events after step `s`, `home` before
/// it: the first CPU when the package starts, the new collector when a
/// hand-over starts moving the events to it, none once the package is
/// parked. The engine records it before running the step, and so does the
/// host model.
pub const fn home_after(s: Step, home: Option<u32>) -> Option<u32> {
    match s {
        Step::StartGlobal { cpu } => Some(cpu),
        Step::MoveEvents { to, .. } => Some(to),
        Step::ParkGlobal => None,
        _ => home,
    }
}

/// Whether perf's `add` of an event on `cpu` is taken, the package's
/// events being held by `home`: only there, or anywhere while the package
/// is parked (its start initialises every box, with the starts kept). An
/// event whose `event_init` chose a collector that handed its events over
/// before perf installed it is added on the CPU going, which counts
/// nothing once it is gone: it is refused, and perf reports the event not
/// counted.
///
/// # Examples
///
/// ```
/// use uncore_core::hw::control::{adds_on, home_after, Step};
///
/// let home = home_after(Step::MoveEvents { from: 0, to: 1 }, Some(0));
/// assert!(adds_on(home, 1));
/// assert!(!adds_on(home, 0));
/// assert!(adds_on(home_after(Step::ParkGlobal, home), 0));
/// ```
pub const fn adds_on(home: Option<u32>, cpu: u32) -> bool {
    match home {
        Some(h) => h == cpu,
        None => true,
    }
}

/// What a step does to the package's poll timers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Timers {
    /// Cancel them first (from the control thread: the cancel waits for a
    /// running callback).
    pub cancel: bool,
    /// Then start, on this CPU, those of the boxes where an event counts
    /// and whose timer is not active.
    pub start_on: Option<u32>,
}

/// What step `s` does to the package's poll timers ([`Timers`]): cancelled
/// before a hand-over moves the events, then cancelled again and started on
/// the new collector once they moved. The second cancel is what moves a
/// timer that perf's `add` on the new collector started while its callback
/// ran on the old one: an hrtimer stays on its CPU while its callback runs,
/// so such a timer is still there, active, and would go with that CPU to
/// another package, where it stops, leaving the box unpolled. The engine
/// runs what this returns, and so does the host model.
///
/// # Examples
///
/// ```
/// use uncore_core::hw::control::{timers_in, Step, Timers};
///
/// let t = timers_in(Step::RestartTimers { cpu: 1 });
/// assert_eq!(t, Timers { cancel: true, start_on: Some(1) });
/// assert!(timers_in(Step::CancelTimers).cancel);
/// assert_eq!(timers_in(Step::Publish { cpu: 1 }).start_on, None);
/// ```
pub const fn timers_in(s: Step) -> Timers {
    match s {
        Step::CancelTimers => Timers {
            cancel: true,
            start_on: None,
        },
        Step::RestartTimers { cpu } => Timers {
            cancel: true,
            start_on: Some(cpu),
        },
        _ => Timers {
            cancel: false,
            start_on: None,
        },
    }
}

/// One step of a transition.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Unpublish the collector: new events of the package are refused.
    Unpublish,
    /// Publish `cpu` as the collector.
    Publish {
        /// The collector.
        cpu: u32,
    },
    /// Recompute the PMUs' `cpumask` files.
    RefreshCpumasks,
    /// Cancel the package's poll timers (before its events move).
    CancelTimers,
    /// Mark the package running and write its global control afresh, with
    /// PMIs aimed at `cpu`'s core.
    StartGlobal {
        /// The new collector.
        cpu: u32,
    },
    /// Aim the package's PMIs at `cpu`'s core (the PMI claim word, then
    /// `pmi_core_sel`).
    AimPmis {
        /// The new collector.
        cpu: u32,
    },
    /// Initialise the boxes [`Boxes`] selects (their started events keep
    /// their counts and count again after).
    InitBoxes(Boxes),
    /// Move the package's events from `from` to `to` (perf's context
    /// migration: `del` there, `add` here).
    MoveEvents {
        /// The collector going.
        from: u32,
        /// The new one.
        to: u32,
    },
    /// Start the poll timers of the boxes that count, on `cpu`.
    RestartTimers {
        /// The collector.
        cpu: u32,
    },
    /// Freeze every box of the package (after [`Step::ParkGlobal`]).
    ParkBoxes,
    /// Mark the package parked and clear its global control: from here a
    /// `pmu_enable` writes no box's run state.
    ParkGlobal,
    /// Bind the plugged function.
    Bind,
    /// Initialise the plugged box, if [`plug_inits`] says so, and start its
    /// poll timer on the collector.
    InitPlugged,
    /// Stop the unplugged box's events (their last counts taken, a start
    /// kept for the plug) and mark it gone.
    Retire,
    /// Unbind the unplugged function.
    Unbind,
}

/// Most steps of a plan.
pub const MAX_STEPS: usize = 10;

/// The steps of a transition, in order.
///
/// # Examples
///
/// ```
/// use uncore_core::hw::control::{plan, Step, Transition, View};
///
/// let v = View { collector: Some(0), unloading: false };
/// // A CPU that is not the collector goes: nothing to do.
/// assert!(plan(Transition::Offline { cpu: 1, other: Some(0) }, v).steps().is_empty());
/// // The collector goes: its events move, then the other CPU is published.
/// let p = plan(Transition::Offline { cpu: 0, other: Some(1) }, v);
/// assert_eq!(p.steps().first(), Some(&Step::Unpublish));
/// assert!(p.steps().contains(&Step::MoveEvents { from: 0, to: 1 }));
/// assert!(p.steps().contains(&Step::Publish { cpu: 1 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    steps: [Step; MAX_STEPS],
    len: usize,
}

impl Plan {
    const fn new(s: &[Step]) -> Self {
        let mut steps = [Step::RefreshCpumasks; MAX_STEPS];
        let mut i = 0;
        while i < s.len() && i < MAX_STEPS {
            steps[i] = s[i];
            i += 1;
        }
        Plan { steps, len: i }
    }

    /// The steps.
    pub fn steps(&self) -> &[Step] {
        self.steps.get(..self.len).unwrap_or(&[])
    }
}

/// The steps of transition `t`, from the package's state `v` when it
/// starts (under the control lock).
pub fn plan(t: Transition, v: View) -> Plan {
    use Step::*;
    match t {
        // The package's first CPU starts its uncore, then is published. An
        // event installed there after the start but before the boxes'
        // initialisation (opened before the package's last CPU went, that
        // CPU back since) may have had its start kept: it counts from the
        // initialisation on, and its box is polled there.
        Transition::Online { cpu } if v.collector.is_none() && !v.unloading => Plan::new(&[
            StartGlobal { cpu },
            InitBoxes(Boxes::Present),
            RestartTimers { cpu },
            Publish { cpu },
            RefreshCpumasks,
        ]),
        Transition::Online { .. } => Plan::new(&[]),
        Transition::Offline { cpu, other } if v.collector == Some(cpu) => {
            match other.filter(|_| !v.unloading) {
                // The last CPU (or the module unloads): the package stops,
                // marked parked before its boxes freeze, so that a
                // `pmu_enable` between the two cannot run a frozen box
                // again.
                None => Plan::new(&[
                    Unpublish,
                    RefreshCpumasks,
                    CancelTimers,
                    ParkGlobal,
                    ParkBoxes,
                ]),
                // PMIs go to the new collector's core before its events
                // arrive; a box present but still marked gone (its
                // initialisation at the plug failed) is tried again before
                // the new collector is published.
                Some(to) => Plan::new(&[
                    Unpublish,
                    RefreshCpumasks,
                    CancelTimers,
                    AimPmis { cpu: to },
                    MoveEvents { from: cpu, to },
                    InitBoxes(Boxes::Returned),
                    RestartTimers { cpu: to },
                    Publish { cpu: to },
                    RefreshCpumasks,
                ]),
            }
        }
        Transition::Offline { .. } => Plan::new(&[]),
        Transition::Plug => Plan::new(&[Bind, InitPlugged, RefreshCpumasks]),
        // Nothing can start on the box between the two: it is gone.
        Transition::Unplug => Plan::new(&[Retire, Unbind, RefreshCpumasks]),
    }
}

mod start;
pub use start::{Start, StartMove};

#[cfg(test)]
mod tests;

// SPDX-License-Identifier: GPL-2.0

//! An event's start in its box, through the box's life: what perf's
//! `start` and `stop`, an unplug's retirement and a box initialisation do
//! to it. The engine's box operations (`start_one`, `stop_one`, and the
//! stop-and-keep of `retire` and `init_box`) and the host model of the
//! control plane both run these.

use super::keeps_start;

/// Where an event of a box stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Start {
    /// Counting (between `start` and `stop`).
    pub started: bool,
    /// Started while the box's device was away (or counting when it went,
    /// or when the box was initialised): counts again once the device is
    /// back and initialised.
    pub resume: bool,
}

/// What a start asks of the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartMove {
    /// Already counting: nothing.
    Counting,
    /// The device is away: the start is kept ([`Start::KEPT`]).
    Keep,
    /// Program the event and arm its counter, then [`Start::COUNTING`]. A
    /// write that fails loses the start.
    Arm,
}

impl Start {
    /// Counting.
    pub const COUNTING: Start = Start {
        started: true,
        resume: false,
    };
    /// Not counting, started again once the device is back.
    pub const KEPT: Start = Start {
        started: false,
        resume: true,
    };

    /// perf's `start` (or a kept start taken up), the box's device `away`
    /// or not.
    ///
    /// # Examples
    ///
    /// ```
    /// use uncore_core::hw::control::{Start, StartMove};
    ///
    /// assert_eq!(Start::default().start(false), StartMove::Arm);
    /// assert_eq!(Start::default().start(true), StartMove::Keep);
    /// assert_eq!(Start::COUNTING.start(true), StartMove::Counting);
    /// ```
    pub const fn start(self, away: bool) -> StartMove {
        match (self.started, away) {
            (true, _) => StartMove::Counting,
            (false, true) => StartMove::Keep,
            (false, false) => StartMove::Arm,
        }
    }

    /// perf's `stop`: the state after, and whether the counter was armed
    /// (its last count is to be taken). A kept start is dropped.
    pub const fn stop(self) -> (Start, bool) {
        (
            Start {
                started: false,
                resume: false,
            },
            self.started,
        )
    }

    /// Whether a stop because the device goes away or is initialised keeps
    /// the start ([`keeps_start`]).
    pub const fn keeps(self) -> bool {
        keeps_start(self.started, self.resume)
    }

    /// The state after a stop because the device goes away or is
    /// initialised (the box's retirement, its initialisation): not
    /// counting, its start kept if it [`keeps`](Self::keeps) it.
    ///
    /// # Examples
    ///
    /// ```
    /// use uncore_core::hw::control::Start;
    ///
    /// assert_eq!(Start::COUNTING.stop_keeping(), Start::KEPT);
    /// // Kept through a second unplug (issue 46's N3).
    /// assert_eq!(Start::KEPT.stop_keeping(), Start::KEPT);
    /// assert_eq!(Start::default().stop_keeping(), Start::default());
    /// ```
    pub const fn stop_keeping(self) -> Start {
        Start {
            started: false,
            resume: self.keeps(),
        }
    }
}

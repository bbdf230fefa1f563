// SPDX-License-Identifier: GPL-2.0

//! How a box is controlled as a whole: the [`BoxControl`] trait and the
//! box with no box-level control.
//!
//! Each mechanism is one implementation in the files of the platform whose
//! manual describes it (the SNB-EP freeze bit in `platforms/snbep/`, the
//! NHM-EX per-counter enables and the U-box's enable in the global control
//! in `platforms/nhmex/`, the Xeon 7100/7400 group freeze in
//! `platforms/l3.rs`), and a box type names its own in its table
//! ([`BoxType::box_ctl`]). The programmer and the engine call the trait and
//! never ask which mechanism a box has.

use core::fmt;

use super::desc::{BoxType, Platform};
use super::program::{Addr, GlobalState, Ops};

/// A box's run state change: what [`BoxControl::run`] writes for.
#[derive(Clone, Copy, Debug)]
pub struct BoxRun<'a> {
    /// The platform (its global control, for a box enabled there).
    pub platform: &'a Platform,
    /// The box's type.
    pub ty: &'a BoxType,
    /// The box's box-level control register, if it has one.
    pub ctl: Option<Addr>,
    /// Run (between `pmu_enable` and `pmu_disable`) or freeze.
    pub run: bool,
    /// A bit per started general counter, and bit `num_counters` for the
    /// fixed one.
    pub enabled: u32,
    /// The package's global control state.
    pub global: &'a GlobalState,
}

/// How a box is frozen, run and first set up. The provided methods are
/// those of a box with no box-level control (the platform's global control
/// governs it: SNB-EP/IVB-EP U-box, Skylake).
pub trait BoxControl: Sync + fmt::Debug {
    /// Writes to `ops` what sets the box up when it is first used (resets,
    /// freeze enable); `ctl` is its box control register, if it has one.
    fn init(&self, ctl: Option<Addr>, ops: &mut Ops) {
        let _ = (ctl, ops);
    }

    /// Writes to `ops` what runs or freezes the box as `r` says.
    fn run(&self, r: &BoxRun<'_>, ops: &mut Ops) {
        let _ = (r, ops);
    }

    /// The box-level run state of a box of type `t` with `run` and the
    /// started counters `enabled`, as a key that changes exactly when
    /// [`BoxControl::run`] must write: `None` when no write is needed
    /// whatever was written before.
    fn run_key(&self, t: &BoxType, run: bool, enabled: u32) -> Option<u64> {
        let _ = (t, run, enabled);
        None
    }

    /// The [`BoxControl::run_key`] of the state [`BoxControl::init`] leaves
    /// the box in, or `None` when it writes nothing.
    fn run_key_after_init(&self) -> Option<u64> {
        None
    }

    /// The bits of the init write that clear themselves (resets).
    fn self_clearing(&self) -> u64 {
        0
    }

    /// Whether the box's enable is a field of the platform's global control
    /// (NHM-EX/WSM-EX U-box): the engine then writes it with the global
    /// control's other fields, and parking the box leaves it to the
    /// global control.
    fn in_global_control(&self) -> bool {
        false
    }
}

/// A box with no box-level control.
#[derive(Debug)]
pub struct NoBoxCtl;

impl BoxControl for NoBoxCtl {}

// SPDX-License-Identifier: GPL-2.0

//! The Sandy Bridge-EP box control, which Ivy Bridge-EP shares:
//! `*_PMON_BOX_CTL` with reset bits, `frz_en` and the `frz` bit that
//! freezes the box's counters.

use crate::hw::box_control::{BoxControl, BoxRun};
use crate::hw::desc::BoxType;
use crate::hw::program::{Addr, Ops};

/// `frz` of an SNB-EP/IVB-EP box control.
pub const BOX_FRZ: u64 = 1 << 8;
/// `frz_en` of an SNB-EP box control.
pub const BOX_FRZ_EN: u64 = 1 << 16;
/// Reset bits of an SNB-EP/IVB-EP box control.
pub const BOX_RST: u64 = 0x3;

/// `init` is written once; `frz` (bit 8) is set to freeze the box and
/// cleared to run it.
#[derive(Debug)]
pub struct Freeze {
    /// Value written when the box is first used.
    pub init: u64,
}

impl BoxControl for Freeze {
    fn init(&self, ctl: Option<Addr>, ops: &mut Ops) {
        if let Some(a) = ctl {
            ops.write(a, self.init);
        }
    }

    fn run(&self, r: &BoxRun<'_>, ops: &mut Ops) {
        if let Some(a) = r.ctl {
            let keep = self.init & BOX_FRZ_EN;
            ops.write(a, if r.run { keep } else { keep | BOX_FRZ });
        }
    }

    /// The freeze bit matters only while a counter is enabled: with none,
    /// the box is left as it is.
    fn run_key(&self, _t: &BoxType, run: bool, enabled: u32) -> Option<u64> {
        (enabled != 0).then_some(u64::from(run))
    }

    fn run_key_after_init(&self) -> Option<u64> {
        Some(u64::from(self.init & BOX_FRZ == 0))
    }

    fn self_clearing(&self) -> u64 {
        BOX_RST
    }
}

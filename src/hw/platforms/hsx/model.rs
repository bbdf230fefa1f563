// SPDX-License-Identifier: GPL-2.0

//! The register model's rules of Haswell-EP: Sandy Bridge-EP's box
//! behaviour (the Linux driver initialises HSX boxes with SNB-EP's
//! `frz_en`), the C-box filter split over two MSRs 0x10 apart per box, the
//! U-box filter at 0x707 and the PCU band filter at 0x715.

use super::super::snbep::model::{counts, fits, CboxFilter};
use crate::hw::bits::Field;
use crate::hw::desc::{BoxKind, SimSpec};
use crate::hw::model::precond::{preconditions, Precondition};
use crate::hw::model::{Family, GlobalBlock};

/// The Haswell-EP events that count only with a C-box filter field set
/// (haswellx's uncore JSON).
pub const PRECONDITIONS: &[Precondition] = preconditions!("preconditions.tsv");

/// The register model's behaviour class of each box kind: the U-box has no
/// box control; the others are SNB-EP boxes, whose `frz` works with
/// `frz_en` set.
pub(crate) fn family(kind: BoxKind) -> Family {
    match kind {
        BoxKind::Ubox => Family::EpUbox,
        _ => Family::SnbBox,
    }
}

/// `Cn_MSR_PMON_BOX_FILTER0` (0xe05) and `FILTER1` (0xe06), the second at
/// bit 32: tid 5:0, state 23:17, nid 47:32, opc 60:52 (the Linux driver's
/// `HSWEP_CB0_MSR_PMON_BOX_FILTER_*`).
pub(crate) const HSX_FILTER: CboxFilter = CboxFilter {
    regs: &[0, 1],
    tid: Field::new(0, 5),
    nid: Field::new(32, 47),
    state: Field::new(17, 23),
    opc: Field::new(52, 60),
};

/// The auxiliary registers: C-box *n*'s two filter registers (0xe05 and
/// 0xe06 + 0x10 *n*), the U-box filter (0x707) and the PCU band filter
/// (0x715).
pub(crate) fn aux_msr(kind: BoxKind, i: u32, msr: u32) -> Option<usize> {
    match kind {
        BoxKind::Cbox => {
            let lo = 0xe05_u32.checked_add(i.checked_mul(0x10)?)?;
            match msr.checked_sub(lo)? {
                0 => Some(0),
                1 => Some(1),
                _ => None,
            }
        }
        BoxKind::Ubox if msr == 0x707 => Some(0),
        BoxKind::Pcu if msr == 0x715 => Some(0),
        _ => None,
    }
}

/// Haswell-EP's model. The simulated fixed counters run at the iMC's DCLK
/// (DDR4-2133: 1066 MHz).
pub const SIM: SimSpec = SimSpec {
    aux_msr,
    fits: |kind, o| fits(&HSX_FILTER, kind, o),
    counts: |sock, b, kind, _, ctl, o| counts(&HSX_FILTER, PRECONDITIONS, sock, b, kind, ctl, o),
    preconditions: PRECONDITIONS,
    ..SimSpec::new(family, GlobalBlock::None, 0, 1066)
};

// SPDX-License-Identifier: GPL-2.0

//! The register model's rules of Ivy Bridge-EP (329468): Sandy Bridge-EP's
//! with two C-box filter registers, its own field layout, a box control
//! that reads back, and counter controls without `inv`.

use super::super::snbep::model::{aux_msr, counts, fits, CboxFilter};
use crate::hw::bits::Field;
use crate::hw::desc::{BoxKind, SimSpec};
use crate::hw::model::precond::{preconditions, Precondition};
use crate::hw::model::{Family, GlobalBlock};

/// The Ivy Bridge-EP events that count only with a C-box filter field set
/// (ivytown's uncore JSON).
pub const PRECONDITIONS: &[Precondition] = preconditions!("preconditions.tsv");

/// The register model's behaviour class of each box kind.
fn family(kind: BoxKind) -> Family {
    match kind {
        BoxKind::Ubox => Family::EpUbox,
        _ => Family::IvbBox,
    }
}

/// `Cn_MSR_PMON_BOX_FILTER` (0xd14) and `FILTER1` (0xd1a), the second at
/// bit 32: tid 4:0, state 22:17, nid 47:32, opc 60:52.
const IVBEP_FILTER: CboxFilter = CboxFilter {
    regs: &[0, 6],
    tid: Field::new(0, 4),
    nid: Field::new(32, 47),
    state: Field::new(17, 22),
    opc: Field::new(52, 60),
};

/// Ivy Bridge-EP's model. The controls are SNB-EP's without `inv` (bit
/// 23), in the U-box and the other boxes alike. The simulated fixed counter
/// runs at the iMC's DCLK (DDR3-1600).
pub const SIM: SimSpec = SimSpec {
    ctl_lacks: 1 << 23,
    aux_msr: |kind, i, msr| aux_msr(&IVBEP_FILTER, kind, i, msr),
    fits: |kind, o| fits(&IVBEP_FILTER, kind, o),
    counts: |sock, b, kind, _, ctl, o| counts(&IVBEP_FILTER, PRECONDITIONS, sock, b, kind, ctl, o),
    preconditions: PRECONDITIONS,
    ..SimSpec::new(family, GlobalBlock::None, 0, 800)
};

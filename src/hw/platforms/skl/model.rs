// SPDX-License-Identifier: GPL-2.0

//! The register model's rules of Skylake client (334060): CBo and ARB
//! counters gated by `MSR_UNC_PERF_GLOBAL_CTRL`, the IMC's free-running
//! counters, and `MSR_UNC_CBO_CONFIG`. Events count by their event select
//! and unit mask alone (no filters).

use super::{CBO_CONFIG, GLOBAL_CTRL, GLOBAL_STATUS};
use crate::hw::desc::{BoxKind, SimSpec};
use crate::hw::model::precond::{preconditions, Precondition};
use crate::hw::model::{Family, GlobalBlock, SklRegs};

/// The Skylake client events that count only with a mode or filter set:
/// none (the table's comment says what was read).
pub const PRECONDITIONS: &[Precondition] = preconditions!("preconditions.tsv");

/// The register model's behaviour class of each box kind.
fn family(kind: BoxKind) -> Family {
    match kind {
        BoxKind::Imc => Family::SklImc,
        _ => Family::Skl,
    }
}

/// Skylake's model: four C-boxes in `MSR_UNC_CBO_CONFIG`; the simulated
/// fixed counter (C-box 0's) runs at UCLK.
pub const SIM: SimSpec = SimSpec {
    preconditions: PRECONDITIONS,
    ..SimSpec::new(
        family,
        GlobalBlock::Skl(SklRegs {
            ctl: GLOBAL_CTRL,
            status: GLOBAL_STATUS,
            cbo_config: CBO_CONFIG,
        }),
        4,
        2000,
    )
};

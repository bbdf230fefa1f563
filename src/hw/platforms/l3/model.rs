// SPDX-License-Identifier: GPL-2.0

//! The register model's rules of the Xeon 7100/7400 L3 uncore (the SDM's
//! `MSR_EMON_L3_*`): eight combined control/counter registers in groups,
//! frozen, unfrozen and reset through `MSR_EMON_L3_GL_CTL`. An event counts
//! when the control field has every bit of the occurrence's attribute set.

use super::{CTR_CTL0, GL_CTL};
use crate::hw::desc::{BoxKind, SimSpec};
use crate::hw::model::count::inc_of;
use crate::hw::model::precond::{preconditions, Precondition};
use crate::hw::model::{Family, GlobalBlock, Occurrence};

/// The Xeon 7100/7400 events that count only with a mode or filter set:
/// none (the table's comment says what was read).
pub const PRECONDITIONS: &[Precondition] = preconditions!("preconditions.tsv");

/// The register model's behaviour class of each box kind: one for all.
fn family(_kind: BoxKind) -> Family {
    Family::L3
}

/// What a counter with control `ctl` counts of `o`: all of it when the
/// control has every bit of `o`'s attribute set (`sub`, in the control
/// field's position).
fn counts(ctl: u64, o: &Occurrence) -> Option<u64> {
    let want = o.props.sub.unwrap_or(0);
    (ctl & want == want).then(|| o.cycles.saturating_mul(inc_of(o)))
}

/// The model of both parts. No fixed counter to simulate.
pub const SIM: SimSpec = SimSpec {
    counts: |_, _, _, _, ctl, o| counts(ctl, o),
    preconditions: PRECONDITIONS,
    ..SimSpec::new(
        family,
        GlobalBlock::L3 {
            first: CTR_CTL0,
            gl_ctl: GL_CTL,
        },
        0,
        0,
    )
};

// SPDX-License-Identifier: GPL-2.0

//! The register model's rules of Broadwell-EP/EX (and Broadwell-DE):
//! Haswell-EP's ([`super::super::hsx::model`]: SNB-EP's box behaviour, the
//! C-box filter split over two MSRs, the PCU band filter), with
//! broadwellx's preconditions.

use super::super::hsx::model::{aux_msr, family, HSX_FILTER};
use super::super::snbep::model::{counts, fits};
use crate::hw::desc::SimSpec;
use crate::hw::model::precond::{preconditions, Precondition};
use crate::hw::model::GlobalBlock;

/// The Broadwell-EP events that count only with a C-box filter field set
/// (broadwellx's uncore JSON, worded as haswellx's).
pub const PRECONDITIONS: &[Precondition] = preconditions!("preconditions.tsv");

/// Broadwell-EP's model. The simulated fixed counters run at the iMC's
/// DCLK (DDR4-2400: 1200 MHz).
pub const SIM: SimSpec = SimSpec {
    aux_msr,
    fits: |kind, o| fits(&HSX_FILTER, kind, o),
    counts: |sock, b, kind, _, ctl, o| counts(&HSX_FILTER, PRECONDITIONS, sock, b, kind, ctl, o),
    preconditions: PRECONDITIONS,
    ..SimSpec::new(family, GlobalBlock::None, 0, 1200)
};

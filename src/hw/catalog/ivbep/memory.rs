// SPDX-License-Identifier: GPL-2.0

//! Ivy Bridge-EP home agent and memory controller catalogs.

use super::super::join;
use crate::hw::catalog::snbep;
use crate::hw::desc::Alias;

/// Home agent events.
pub const HA: &[Alias] = &join::<HA_LEN>(&[HA_OWN, snbep::HA_SHARED]);

/// The home agent events of Ivy Bridge-EP only.
const HA_OWN: &[Alias] = tsv!(include_str!("ha_own.tsv"));

const HA_LEN: usize = HA_OWN.len() + snbep::HA_SHARED.len();

/// iMC events after the Linux driver's aliases. CAS counts (`cas_count.*`,
/// `rd_cas_*`, `wr_cas_*`) are 64-byte lines, reported in MiB.
pub const IMC: &[Alias] = &join::<IMC_LEN>(&[IMC_OWN, snbep::IMC_SHARED]);

/// The iMC events of Ivy Bridge-EP only (after the aliases the platform carries).
const IMC_OWN: &[Alias] = tsv!(include_str!("imc_own.tsv"));

const IMC_LEN: usize = IMC_OWN.len() + snbep::IMC_SHARED.len();

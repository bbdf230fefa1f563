// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Broadwell-DE.
//!
//! Source: perf's broadwellde uncore event tables (`uncore-*.json` in the
//! kernel tree's `tools/perf/pmu-events/arch/x86/broadwellde`), written by
//! `scripts/catalog-from-json.py` as for Broadwell-EP ([`super::bdx`]).
//! Where broadwellde's table of a box type is broadwellx's line for line
//! (PCU, R2PCIe) or Haswell-EP's (IRP), the box type keeps that one.

use crate::hw::desc::Alias;

/// U-box events.
pub const UBOX: &[Alias] = tsv!(include_str!("bdxde/ubox.tsv"));

/// C-box events, as for Broadwell-EP (perf's broadwellde gives
/// `LLC_LOOKUP.ANY` no state: the default, every state, is added).
pub const CBOX: &[Alias] = tsv!(include_str!("bdxde/cbox.tsv"));

/// Home agent events.
pub const HA: &[Alias] = tsv!(include_str!("bdxde/ha.tsv"));

/// iMC events after the Linux driver's aliases. CAS counts are 64-byte
/// lines, reported in MiB.
pub const IMC: &[Alias] = tsv!(include_str!("bdxde/imc.tsv"));

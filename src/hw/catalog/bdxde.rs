// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Broadwell-DE.
//!
//! Source: perf's broadwellde uncore event tables (`uncore-*.json` in the
//! kernel tree's `tools/perf/pmu-events/arch/x86/broadwellde`), written by
//! `scripts/catalog-from-json.py` as for Broadwell-EP ([`super::bdx`]), each
//! table the lines it shares with the others ([`super::hswbdw`]) joined
//! with its own. Its PCU, IRP and R2PCIe tables are Broadwell-EP's, which
//! its box types keep.

use super::hswbdw as s;
use crate::hw::desc::Alias;

/// U-box events.
pub const UBOX: &[Alias] = s::UBOX_HSX_BDX_BDXDE;

/// C-box events, as for Broadwell-EP (perf's broadwellde gives
/// `LLC_LOOKUP.ANY` no state: the default, every state, is added).
pub const CBOX: &[Alias] = joined!(s::CBOX_HSX_BDX_BDXDE, tsv!(include_str!("bdxde/cbox.tsv")));

/// Home agent events.
pub const HA: &[Alias] = joined!(
    s::HA_HSX_BDX_BDXDE,
    s::HA_BDX_BDXDE,
    tsv!(include_str!("bdxde/ha.tsv"))
);

/// iMC events after the Linux driver's aliases. CAS counts are 64-byte
/// lines, reported in MiB.
pub const IMC: &[Alias] = s::IMC_HSX_BDX_BDXDE;

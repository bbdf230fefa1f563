// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Broadwell-EP/EX (Broadwell-X).
//!
//! Source: perf's broadwellx uncore event tables (`uncore-*.json` in the
//! kernel tree's `tools/perf/pmu-events/arch/x86/broadwellx`), written by
//! `scripts/catalog-from-json.py` as for Haswell-EP ([`super::hsx`]: the
//! same encoding, names, MiB scale and left-out events), each table the
//! lines it shares with Haswell-EP or Broadwell-DE ([`super::hswbdw`])
//! joined with its own.

use super::hswbdw as s;
use crate::hw::desc::Alias;

/// U-box events.
pub const UBOX: &[Alias] = joined!(s::UBOX_HSX_BDX_BDXDE, tsv!(include_str!("bdx/ubox.tsv")));

/// C-box events, with perf's filter terms but a thread filter without
/// `tid_en`, and the defaults of the events whose description needs a
/// filter perf gives them none of (`bdx/preconditions.tsv`), as on
/// Haswell-EP.
pub const CBOX: &[Alias] = joined!(s::CBOX_HSX_BDX_BDXDE, s::CBOX_HSX_BDX);

/// S-box events.
pub const SBOX: &[Alias] = joined!(s::SBOX_HSX_BDX, tsv!(include_str!("bdx/sbox.tsv")));

/// PCU events (Broadwell-DE's too).
pub const PCU: &[Alias] = s::PCU_HSX_BDX_BDXDE;

/// Home agent events.
pub const HA: &[Alias] = joined!(s::HA_HSX_BDX_BDXDE, s::HA_HSX_BDX, s::HA_BDX_BDXDE);

/// iMC events after the Linux driver's aliases. CAS counts are 64-byte
/// lines, reported in MiB.
pub const IMC: &[Alias] = joined!(
    s::IMC_HSX_BDX_BDXDE,
    s::IMC_HSX_BDX,
    tsv!(include_str!("bdx/imc.tsv"))
);

/// QPI events.
pub const QPI: &[Alias] = s::QPI_HSX_BDX;

/// R2PCIe events (Broadwell-DE's too).
pub const R2PCIE: &[Alias] = joined!(s::R2PCIE_HSX_BDX_BDXDE, s::R2PCIE_BDX_BDXDE);

/// R3QPI events.
pub const R3QPI: &[Alias] = joined!(s::R3QPI_HSX_BDX, tsv!(include_str!("bdx/r3qpi.tsv")));

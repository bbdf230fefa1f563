// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Broadwell-EP/EX (Broadwell-X).
//!
//! Source: perf's broadwellx uncore event tables (`uncore-*.json` in the
//! kernel tree's `tools/perf/pmu-events/arch/x86/broadwellx`), written by
//! `scripts/catalog-from-json.py` as for Haswell-EP ([`super::hsx`]: the
//! same encoding, names, MiB scale and left-out terms). The IRP events are
//! Haswell-EP's, line for line, and the IRP box type keeps that table. Left
//! out: `qpi_ctl_bandwidth_tx` and `qpi_data_bandwidth_tx`, perf's
//! `txl_flits_g0.non_data` and `.data` scaled to 8-byte units (an alias
//! carries only the MiB scale; the flit counts are here).

use crate::hw::desc::Alias;

/// U-box events.
pub const UBOX: &[Alias] = tsv!(include_str!("bdx/ubox.tsv"));

/// C-box events, with perf's filter terms but a thread filter without
/// `tid_en`, and the defaults of the events whose description needs a
/// filter perf gives them none of (`bdx/preconditions.tsv`), as on
/// Haswell-EP.
pub const CBOX: &[Alias] = tsv!(include_str!("bdx/cbox.tsv"));

/// S-box events.
pub const SBOX: &[Alias] = tsv!(include_str!("bdx/sbox.tsv"));

/// PCU events (Broadwell-DE's too).
pub const PCU: &[Alias] = tsv!(include_str!("bdx/pcu.tsv"));

/// Home agent events.
pub const HA: &[Alias] = tsv!(include_str!("bdx/ha.tsv"));

/// iMC events after the Linux driver's aliases. CAS counts are 64-byte
/// lines, reported in MiB.
pub const IMC: &[Alias] = tsv!(include_str!("bdx/imc.tsv"));

/// QPI events.
pub const QPI: &[Alias] = tsv!(include_str!("bdx/qpi.tsv"));

/// R2PCIe events (Broadwell-DE's too).
pub const R2PCIE: &[Alias] = tsv!(include_str!("bdx/r2pcie.tsv"));

/// R3QPI events.
pub const R3QPI: &[Alias] = tsv!(include_str!("bdx/r3qpi.tsv"));

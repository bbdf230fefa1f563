// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Haswell-EP (Haswell-X).
//!
//! Source: perf's haswellx uncore event tables (`uncore-*.json` in the
//! kernel tree's `tools/perf/pmu-events/arch/x86/haswellx`), every event as
//! perf encodes it (`event=EventCode`, the unit mask where it is not zero,
//! then the table's `Filter` terms), named by its perfmon name without the
//! `UNC_<box>_` prefix, in lower case; a `ScaleUnit` of 64 bytes makes a
//! count of 64-byte lines reported in MiB. The files were written by
//! `scripts/catalog-from-json.py`, then `scripts/catalog-split.py`, which
//! keeps the lines Haswell-EP shares with Broadwell-EP or -DE in
//! [`super::hswbdw`] and its own lines here; the build reads only them.
//! Every event is expressible; left out are `qpi_ctl_bandwidth_tx` and
//! `qpi_data_bandwidth_tx`, perf's `txl_flits_g0.non_data` and `.data`
//! scaled to 8-byte units (an alias carries only the MiB scale; the flit
//! counts are here). The iMC catalog starts with the Linux driver's aliases
//! (its `clockticks` is perf's `UNC_M_CLOCKTICKS`).

use super::hswbdw as s;
use crate::hw::desc::Alias;

/// U-box events.
pub const UBOX: &[Alias] = joined!(s::UBOX_HSX_BDX_BDXDE, tsv!(include_str!("hsx/ubox.tsv")));

/// C-box events, with the filter terms of perf's tables where it gives
/// them (`llc_lookup.any` with `filter_state=0x1`, the `llc_misses.*` and
/// `llc_references.*` opcodes) and, where perf's tables give none to an
/// event whose description needs one (`hsx/preconditions.tsv`), IVB-EP's
/// defaults: every line state (`filter_state=0x7f`), the demand data read
/// opcode (`filter_opc=0x182`), node 0 (`filter_nid=0x1`); a term given
/// with the alias overrides them. Left out is `filter_tid=0x3e` of
/// `llc_misses.pcie_non_snoop_write`, `llc_references.pcie_write` and
/// `llc_references.pcie_ns_partial_write`: without `tid_en` those events
/// use no thread field, the Linux driver drops it, and this driver refuses
/// a filter field an event does not use.
pub const CBOX: &[Alias] = joined!(
    s::CBOX_HSX_BDX_BDXDE,
    s::CBOX_HSX_BDX,
    tsv!(include_str!("hsx/cbox.tsv"))
);

/// S-box events.
pub const SBOX: &[Alias] = s::SBOX_HSX_BDX;

/// PCU events.
pub const PCU: &[Alias] = joined!(s::PCU_HSX_BDX_BDXDE, tsv!(include_str!("hsx/pcu.tsv")));

/// Home agent events.
pub const HA: &[Alias] = joined!(s::HA_HSX_BDX_BDXDE, s::HA_HSX_BDX);

/// iMC events after the Linux driver's aliases. CAS counts are 64-byte
/// lines, reported in MiB.
pub const IMC: &[Alias] = joined!(s::IMC_HSX_BDX_BDXDE, s::IMC_HSX_BDX);

/// IRP events.
pub const IRP: &[Alias] = s::IRP_HSX_BDX_BDXDE;

/// QPI events.
pub const QPI: &[Alias] = s::QPI_HSX_BDX;

/// R2PCIe events.
pub const R2PCIE: &[Alias] = s::R2PCIE_HSX_BDX_BDXDE;

/// R3QPI events.
pub const R3QPI: &[Alias] = s::R3QPI_HSX_BDX;

// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Sandy Bridge-EP (Jaketown).
//!
//! Source: the jaketown rows of the perfmon catalog as flattened in
//! pmu-events.tsv, with the extended select bit restored (an event with
//! `ExtSel` is `0x100 + EventCode`, config bit 21); C-box filter values from
//! 327043-001 Tables 2-12 and 2-13. Names are the perfmon names without
//! the `UNC_<box>_` prefix, in lower case (`llc_lookup.data_read`).
//!
//! Each catalog is Sandy Bridge-EP's own events (`snbep/<box>_own.tsv`)
//! then the events Ivy Bridge-EP has too, with the same encodings, listed
//! once, here (`snbep/<box>_shared.tsv`, the `*_SHARED` tables; the U-box
//! catalog whole), which the Ivy Bridge-EP catalogs add to their own.
//!
//! Events left out:
//! - U-box `MSG_CHNL_SIZE_COUNT.4B`, `MSG_CHNL_SIZE_COUNT.8B`,
//!   `PHOLD_CYCLES.ACK_TO_DEASSERT`, `PHOLD_CYCLES.ASSERT_TO_ACK`,
//!   `RACU_REQUESTS.COUNT`: extended-select events (`0x100 + code`), and the
//!   U-box has no bit 21 in its formats or control mask.
//! - The 36 IRP (`UNC_I_*`) events: Sandy Bridge-EP has no IRP box type.

use crate::hw::desc::Alias;

/// U-box events; the extended-select ones are left out (see the module
/// documentation).
pub const UBOX: &[Alias] = tsv!(include_str!("snbep/ubox.tsv"));

/// C-box events. `LLC_LOOKUP.*` select every line state
/// (`filter_state=0x1f`, 327043 Table 2-12), the `*OPCODE` events the demand
/// data read opcode (`filter_opc=0x182`, Table 2-13) and the `NID` events
/// node 0 (`filter_nid=0x1`); give the filter term to choose another.
pub const CBOX: &[Alias] = joined!(tsv!(include_str!("snbep/cbox_own.tsv")), CBOX_SHARED);

/// The C-box events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const CBOX_SHARED: &[Alias] = tsv!(include_str!("snbep/cbox_shared.tsv"));

/// PCU events (extended-select events at 0x100 + code). The band events
/// `FREQ_BAND0..3_CYCLES` count cycles at or above `filter_bandN` x 100 MHz
/// (default 1.2, 2.0, 3.0 and 4.0 GHz, as the derived `freq_ge_*` events);
/// `*_transitions` count entries into the band (`edge=1`).
pub const PCU: &[Alias] = joined!(tsv!(include_str!("snbep/pcu_own.tsv")), PCU_SHARED);

/// The PCU events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const PCU_SHARED: &[Alias] = tsv!(include_str!("snbep/pcu_shared.tsv"));

/// Home agent events.
pub const HA: &[Alias] = joined!(tsv!(include_str!("snbep/ha_own.tsv")), HA_SHARED);

/// The home agent events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const HA_SHARED: &[Alias] = tsv!(include_str!("snbep/ha_shared.tsv"));

/// iMC events after the Linux driver's aliases. Perfmon's programmable
/// `UNC_M_CLOCKTICKS` (event 0) is `dclockticks`, as on IVB-EP, since
/// `clockticks` is the fixed DCLK counter. CAS counts are 64-byte lines,
/// reported in MiB.
pub const IMC: &[Alias] = joined!(tsv!(include_str!("snbep/imc_own.tsv")), IMC_SHARED);

/// The iMC events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const IMC_SHARED: &[Alias] = tsv!(include_str!("snbep/imc_shared.tsv"));

/// QPI events after the Linux driver's aliases (perfmon's `UNC_Q_CLOCKTICKS`
/// is the driver's `clockticks`). `cto_count` counts the packets selected by
/// the match/mask registers, to be given as `match*`/`mask*` terms; the
/// `message.*` events are `cto_count` with the packet match/mask of
/// 325294-001 Tables 2-51..2-53 (the same QPI packet fields as these
/// formats; IVB-EP's perfmon catalog names the same events).
pub const QPI: &[Alias] = joined!(tsv!(include_str!("snbep/qpi_own.tsv")), QPI_SHARED);

/// The QPI events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const QPI_SHARED: &[Alias] = tsv!(include_str!("snbep/qpi_shared.tsv"));

/// R2PCIe events.
pub const R2PCIE: &[Alias] = joined!(tsv!(include_str!("snbep/r2pcie_own.tsv")), R2PCIE_SHARED);

/// The R2PCIe events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const R2PCIE_SHARED: &[Alias] = tsv!(include_str!("snbep/r2pcie_shared.tsv"));

/// R3QPI events.
pub const R3QPI: &[Alias] = joined!(tsv!(include_str!("snbep/r3qpi_own.tsv")), R3QPI_SHARED);

/// The R3QPI events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const R3QPI_SHARED: &[Alias] = tsv!(include_str!("snbep/r3qpi_shared.tsv"));

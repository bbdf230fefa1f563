// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Ivy Bridge-EP (Ivytown).
//!
//! Source: the ivytown rows of the perfmon catalog as flattened in
//! pmu-events.tsv, with the extended select bit restored (an event with
//! `ExtSel` is `0x100 + EventCode`, config bit 21). Names are the perfmon
//! names without the `UNC_<box>_` prefix, in lower case. Every ivytown event
//! is expressible; none is left out. Each catalog is Ivy Bridge-EP's own
//! events (`ivbep/<box>_own.tsv`) then those Sandy Bridge-EP has too, with
//! the same encodings, from its catalogs (`snbep::*_SHARED`, and its U-box
//! catalog whole).

use crate::hw::catalog::snbep;
use crate::hw::desc::Alias;

/// U-box events.
pub const UBOX: &[Alias] = joined!(tsv!(include_str!("ivbep/ubox_own.tsv")), snbep::UBOX);

/// C-box events. `LLC_LOOKUP.*` select every line state
/// (`filter_state=0x3f`), the `*OPCODE` events the demand data read opcode
/// (`filter_opc=0x182`) and the `NID` events node 0 (`filter_nid=0x1`);
/// give the filter term to choose another. `RxR_IPQ_RETRY.QPI_CREDITS` may
/// be narrowed to a link with `filter_link`, which has no default.
pub const CBOX: &[Alias] = joined!(tsv!(include_str!("ivbep/cbox_own.tsv")), snbep::CBOX_SHARED);

/// PCU events (extended-select events at 0x100 + code). The band events
/// `FREQ_BAND0..3_CYCLES` count cycles at or above `filter_bandN` x 100 MHz
/// (default 1.2, 2.0, 3.0 and 4.0 GHz, as the derived `freq_ge_*` events);
/// `*_transitions` count entries into the band (`edge=1`).
pub const PCU: &[Alias] = joined!(tsv!(include_str!("ivbep/pcu_own.tsv")), snbep::PCU_SHARED);

/// IRP events.
pub const IRP: &[Alias] = tsv!(include_str!("ivbep/irp.tsv"));

/// Home agent events.
pub const HA: &[Alias] = joined!(tsv!(include_str!("ivbep/ha_own.tsv")), snbep::HA_SHARED);

/// iMC events after the Linux driver's aliases. CAS counts (`cas_count.*`,
/// `rd_cas_*`, `wr_cas_*`) are 64-byte lines, reported in MiB.
pub const IMC: &[Alias] = joined!(tsv!(include_str!("ivbep/imc_own.tsv")), snbep::IMC_SHARED);

/// QPI events after the aliases the platform carries (perfmon's
/// `UNC_Q_CLOCKTICKS` is `clockticks`). `cto_count` and `match_mask` count
/// the packets selected by `match*`/`mask*` terms; the `message.*` events
/// carry the packet match/mask of 325294-001 Tables 2-51..2-53 (perfmon
/// drops them). The third port has no match/mask registers.
pub const QPI: &[Alias] = joined!(tsv!(include_str!("ivbep/qpi_own.tsv")), snbep::QPI_SHARED);

/// R2PCIe events.
pub const R2PCIE: &[Alias] = joined!(
    tsv!(include_str!("ivbep/r2pcie_own.tsv")),
    snbep::R2PCIE_SHARED
);

/// R3QPI events.
pub const R3QPI: &[Alias] = joined!(
    tsv!(include_str!("ivbep/r3qpi_own.tsv")),
    snbep::R3QPI_SHARED
);

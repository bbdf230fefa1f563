// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Sandy Bridge-EP (Jaketown).
//!
//! Source: the jaketown rows of the perfmon catalog as flattened in
//! pmu-events.tsv, with the extended select bit restored (an event with
//! `ExtSel` is `0x100 + EventCode`, config bit 21); C-box filter values from
//! 327043-001 Tables 2-12 and 2-13. Names are the perfmon names without
//! the `UNC_<box>_` prefix, in lower case (`llc_lookup.data_read`).
//!
//! The events Ivy Bridge-EP has too, with the same encodings, are listed
//! once, here (each catalog's `*_SHARED` part; the U-box catalog whole), and
//! the Ivy Bridge-EP catalogs add them to their own.
//!
//! Events left out:
//! - U-box `MSG_CHNL_SIZE_COUNT.4B`, `MSG_CHNL_SIZE_COUNT.8B`,
//!   `PHOLD_CYCLES.ACK_TO_DEASSERT`, `PHOLD_CYCLES.ASSERT_TO_ACK`,
//!   `RACU_REQUESTS.COUNT`: extended-select events (`0x100 + code`), and the
//!   U-box has no bit 21 in its formats or control mask.
//! - The 36 IRP (`UNC_I_*`) events: Sandy Bridge-EP has no IRP box type.

use super::join;
use crate::hw::desc::Alias;

mod link;

pub use link::{IMC, QPI, R2PCIE, R3QPI};
pub(crate) use link::{IMC_SHARED, QPI_SHARED, R2PCIE_SHARED, R3QPI_SHARED};

/// U-box events; the extended-select ones are left out (see the module
/// documentation).
pub const UBOX: &[Alias] = tsv!(include_str!("snbep/ubox.tsv"));

/// C-box events. `LLC_LOOKUP.*` select every line state
/// (`filter_state=0x1f`, 327043 Table 2-12), the `*OPCODE` events the demand
/// data read opcode (`filter_opc=0x182`, Table 2-13) and the `NID` events
/// node 0 (`filter_nid=0x1`); give the filter term to choose another.
pub const CBOX: &[Alias] = &join::<CBOX_LEN>(&[CBOX_OWN, CBOX_SHARED]);

/// The C-box events of Sandy Bridge-EP only.
const CBOX_OWN: &[Alias] = tsv!(include_str!("snbep/cbox_own.tsv"));

/// The C-box events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const CBOX_SHARED: &[Alias] = tsv!(include_str!("snbep/cbox_shared.tsv"));

const CBOX_LEN: usize = CBOX_OWN.len() + CBOX_SHARED.len();

/// PCU events (extended-select events at 0x100 + code). The band events
/// `FREQ_BAND0..3_CYCLES` count cycles at or above `filter_bandN` x 100 MHz
/// (default 1.2, 2.0, 3.0 and 4.0 GHz, as the derived `freq_ge_*` events);
/// `*_transitions` count entries into the band (`edge=1`).
pub const PCU: &[Alias] = &join::<PCU_LEN>(&[PCU_OWN, PCU_SHARED]);

/// The PCU events of Sandy Bridge-EP only.
const PCU_OWN: &[Alias] = tsv!(include_str!("snbep/pcu_own.tsv"));

/// The PCU events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const PCU_SHARED: &[Alias] = tsv!(include_str!("snbep/pcu_shared.tsv"));

const PCU_LEN: usize = PCU_OWN.len() + PCU_SHARED.len();

/// Home agent events.
pub const HA: &[Alias] = &join::<HA_LEN>(&[HA_OWN, HA_SHARED]);

/// The home agent events of Sandy Bridge-EP only.
const HA_OWN: &[Alias] = tsv!(include_str!("snbep/ha_own.tsv"));

/// The home agent events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const HA_SHARED: &[Alias] = tsv!(include_str!("snbep/ha_shared.tsv"));

const HA_LEN: usize = HA_OWN.len() + HA_SHARED.len();

// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Ivy Bridge-EP (Ivytown).
//!
//! Source: the ivytown rows of the perfmon catalog as flattened in
//! pmu-events.tsv, with the extended select bit restored (an event with
//! `ExtSel` is `0x100 + EventCode`, config bit 21). Names are the perfmon
//! names without the `UNC_<box>_` prefix, in lower case. Every ivytown event
//! is expressible; none is left out. The events Sandy Bridge-EP has too,
//! with the same encodings, come from its catalogs (`snbep::*_SHARED`, and
//! its U-box catalog whole).

use super::join;
use crate::hw::catalog::snbep;
use crate::hw::desc::Alias;

mod link;
mod memory;

pub use link::{QPI, R2PCIE, R3QPI};
pub use memory::{HA, IMC};

/// U-box events.
pub const UBOX: &[Alias] = &join::<UBOX_LEN>(&[UBOX_OWN, snbep::UBOX]);

/// The U-box events of Ivy Bridge-EP only.
const UBOX_OWN: &[Alias] = tsv!(include_str!("ivbep/ubox_own.tsv"));

const UBOX_LEN: usize = UBOX_OWN.len() + snbep::UBOX.len();

/// C-box events. `LLC_LOOKUP.*` select every line state
/// (`filter_state=0x3f`), the `*OPCODE` events the demand data read opcode
/// (`filter_opc=0x182`) and the `NID` events node 0 (`filter_nid=0x1`);
/// give the filter term to choose another. `RxR_IPQ_RETRY.QPI_CREDITS` may
/// be narrowed to a link with `filter_link`, which has no default.
pub const CBOX: &[Alias] = &join::<CBOX_LEN>(&[CBOX_OWN, snbep::CBOX_SHARED]);

/// The C-box events of Ivy Bridge-EP only.
const CBOX_OWN: &[Alias] = tsv!(include_str!("ivbep/cbox_own.tsv"));

const CBOX_LEN: usize = CBOX_OWN.len() + snbep::CBOX_SHARED.len();

/// PCU events (extended-select events at 0x100 + code). The band events
/// `FREQ_BAND0..3_CYCLES` count cycles at or above `filter_bandN` x 100 MHz
/// (default 1.2, 2.0, 3.0 and 4.0 GHz, as the derived `freq_ge_*` events);
/// `*_transitions` count entries into the band (`edge=1`).
pub const PCU: &[Alias] = &join::<PCU_LEN>(&[PCU_OWN, snbep::PCU_SHARED]);

/// The PCU events of Ivy Bridge-EP only.
const PCU_OWN: &[Alias] = tsv!(include_str!("ivbep/pcu_own.tsv"));

const PCU_LEN: usize = PCU_OWN.len() + snbep::PCU_SHARED.len();

/// IRP events.
pub const IRP: &[Alias] = tsv!(include_str!("ivbep/irp.tsv"));

// SPDX-License-Identifier: GPL-2.0

//! Nehalem-EX / Westmere-EX M-box catalogs (325294-001 section 2.7).
//!
//! Events are chosen with `inc_sel` or, with `flag_mode=1`, `set_flag_sel`
//! (Table 2-84); their unit masks are values of the subcontrol registers
//! `dsp`, `iss`, `map`, `thr`, `pgt`, `pld` and `fvc` (Tables 2-73..2-83).
//! `dram_cmd.all`, `dram_cmd.illegal` and `dram_cmd.all.trdoff` have the
//! same encoding, as the manual gives them. Read and write commands from the
//! B-box move whole 64-byte lines, so `fvc_evN.bbox_cmds.{reads,writes}` are
//! reported in MiB (the Linux driver's `bbox_cmds_read`/`_write` keep their
//! plain counts).

use crate::hw::desc::Alias;

/// M-box events other than the FVC events, the same on both parts (Table
/// 2-84 and the unit masks of section 2.7.7).
const COMMON: &[Alias] = tsv!(include_str!("mbox_common.tsv"));

/// Nehalem-EX `FVC_EV0..3` sub-events: the Westmere-EX encodings in the
/// Nehalem-EX layout of `ZDP_CTL_FVC`, one bit lower (`bcmd` 7:5, `resp`
/// 10:8, `evnt0..3` from bit 11, `pbox_init_err` 23).
const NHMEX_FVC: &[Alias] = tsv!(include_str!("nhmex_fvc.tsv"));

/// Westmere-EX `FVC_EV0..3` sub-events (Tables 2-80..2-83, 2-89..2-92):
/// `evnt0..3` at bits 14:12, 17:15, 20:18, 23:21, `resp` 11:9, `bcmd` 8:6,
/// `pbox_init_err` 24. The driver moves an event to a free `evnt` field
/// when its own is taken, so the four events are interchangeable.
const WSMEX_FVC: &[Alias] = tsv!(include_str!("wsmex_fvc.tsv"));

/// The Nehalem-EX M-box catalog: the Linux driver's aliases, the FVC events
/// in the Nehalem-EX layout, then the events common to both parts.
pub const NHMEX_MBOX: &[Alias] = joined!(NHMEX_FVC, COMMON);

/// The Westmere-EX M-box catalog: the Linux driver's aliases, the FVC events
/// in the Westmere-EX layout, then the events common to both parts.
pub const WSMEX_MBOX: &[Alias] = joined!(WSMEX_FVC, COMMON);

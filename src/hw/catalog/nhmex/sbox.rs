// SPDX-License-Identifier: GPL-2.0

//! Nehalem-EX / Westmere-EX S-box catalog (325294-001 section 2.5).

use crate::hw::desc::Alias;

/// S-box events (Table 2-37) with the unit masks of section 2.5.6.
/// `TO_R_PROG_EV` (event 0) needs `S_MSR_MATCH`/`S_MSR_MASK`: see
/// [`SBOX_PROG_EV`].
pub const SBOX: &[Alias] = tsv!(include_str!("sbox.tsv"));

/// Westmere-EX S-box events with a C-box unit mask (325294 section 2.5.6):
/// five bits, C-boxes 0 and 5 at bit 0 to C-boxes 4 and 9 at bit 4.
pub const WSMEX_SBOX_CBOX: &[Alias] = tsv!(include_str!("wsmex_sbox_cbox.tsv"));

/// Nehalem-EX S-box events with a C-box unit mask: four bits, C-boxes 0
/// and 4 at bit 0 to C-boxes 3 and 7 at bit 3, `ALL` 0xf (Intel Xeon
/// Processor 7500 Series Uncore Programming Guide, 323535-001, March 2010,
/// section 2.5.6, the unit-mask tables of the S-box event list, e.g. of
/// `TO_R_DRS_MSGQ_*` and `TO_R_NCB_MSGQ_*`; not a seed of this project: read
/// from a public copy of the guide's pages 2-66 to 2-68).
pub const NHMEX_SBOX_CBOX: &[Alias] = tsv!(include_str!("nhmex_sbox_cbox.tsv"));

/// `TO_R_PROG_EV` (event 0) programmed through `S_MSR_MATCH`/`S_MSR_MASK`
/// (section 2.5.3.4, Tables 2-33..2-35): `to_r_prog_ev.any` matches every
/// system bound packet, `to_r_prog_ev.<class>` one message class and
/// `to_r_prog_ev.<class>.<opcode>` one opcode of it. The mask makes every
/// address bit a don't-care and turns home node matching off.
///
/// A table apart from [`SBOX`] because `match` and `mask` are 64-bit
/// fields; `catalog::parts` exports both in `events/`.
pub const SBOX_PROG_EV: &[Alias] = tsv!(include_str!("sbox_prog_ev.tsv"));

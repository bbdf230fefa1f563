// SPDX-License-Identifier: GPL-2.0

//! Nehalem-EX / Westmere-EX R-box catalog (325294-001 section 2.6).
//!
//! An R-box event selects a port's subcontrol register (Tables 2-45, 2-46:
//! `event` = 6 x port + 0/1 for `IPERF_CFG0/1`, 2/3 for the two `QLX_CFG`
//! bytes, 4/5 for the two XBAR match/mask sets); the tables name the first
//! of each pair. Sub-events without unit masks in the manual
//! (`LOCAL_ARB_BID`, `GLOBAL_ARB_BID`, `LOCAL_ARB_BID_FAIL`, `STARVING`) leave
//! the QLX class fields 0.

use crate::hw::desc::Alias;

/// R-box events (Table 2-54 and section 2.6.6) for each of the four ports
/// of a PMU (`.port0`..`.port3`: ports 0-3 on `rbox_0`, 4-7 on `rbox_1`,
/// Table 2-40), after the Linux driver's aliases. RIX events use the port's
/// `IPERF` register (`iperf_cfg`), QLX events the low byte of its `QLX_CFG`
/// (`qlx_cfg`); the driver moves an event to the paired register when its
/// own is taken. The XBAR match/mask events are in [`RBOX_XBAR`].
pub const RBOX: &[Alias] = tsv!(include_str!("rbox.tsv"));

/// The message events of Table 2-53 on each port, counted by the port's
/// first XBAR match/mask set (`xbr_mm_cfg=0x210000`: `mm_trig_en`, bit 21,
/// and `match_flit_cnt` 0x1, bits 19:16, so that a packet counts once, on
/// its first flit, as the note before Table 2-50 asks; `ig_flit_cnt`, bit
/// 20, stays 0).
///
/// A table apart from [`RBOX`] because `xbr_match` and `xbr_mask` are
/// 64-bit fields; `catalog::parts` exports both in `events/`.
pub const RBOX_XBAR: &[Alias] = tsv!(include_str!("rbox_xbar.tsv"));

/// The QPI links of `rbox_0` by their names in Table 2-40: port 0 is QPI1
/// (events 0x0..0x5), port 1 is QPI0 (0x6..0xb). The Linux driver's
/// `qpi0_*`/`qpi1_*` aliases name these ports the other way round.
pub const RBOX_L_LINKS: &[Alias] = tsv!(include_str!("rbox_l_links.tsv"));

/// The QPI links of `rbox_1` (Table 2-40): port 4 is QPI2 (events
/// 0x0..0x5 of this half), port 5 is QPI3 (0x6..0xb).
pub const RBOX_R_LINKS: &[Alias] = tsv!(include_str!("rbox_r_links.tsv"));

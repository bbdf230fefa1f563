// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Nehalem-EX and Westmere-EX.
//!
//! Source: Intel Xeon E7 Family Uncore Performance Monitoring Programming
//! Guide (325294-001), chapter 2: Tables 2-8 (U-box), 2-15 (C-box), 2-24
//! (B-box), 2-37 (S-box), 2-54 (R-box), 2-84 (M-box) and 2-101 (W-box), and
//! the unit masks and subcontrol values of the event list after each. The
//! guide describes Westmere-EX; Nehalem-EX has the same boxes and events but
//! another layout of the M-box `ZDP_CTL_FVC` register and 8 C-boxes where
//! Westmere-EX has 10, so the M-box (`*_fvc.tsv`) and the S-box events that
//! name C-box pairs (`*_sbox_cbox.tsv`) have a table per part.
//!
//! Manual events left out, as the box's formats cannot express them or the
//! encoder refuses them:
//! - U-box `RECOV` (0x1df), `CORRECTED_ERR` (0x1e4), `UNCORRECTED_ERR`
//!   (0x1e5) and `FATAL_ERR` (0x1e6): the codes are wider than `ev_sel`
//!   (bits 7:0, Table 2-6) and the `event` format (config:0-7).
//! - M-box `ISS_SCHED.FRAME_BEAT` (inc_sel 0x8 with ISS bit 10) and
//!   `PGT_PAGE_EV2.PAGE_EMPTY` (inc_sel 0x15 with PGT bit 11): the encoder
//!   programs ISS only for inc_sel 0x9/0xa and set_flag_sel 1, and PGT only
//!   for inc_sel 0x16 and set_flag_sel 5, so it refuses a subcontrol value
//!   for these two. Their other unit masks (`CHANGES`, `AUTO_CLS`), which
//!   need the bit clear, are in the catalog.
//!
//! S-box `TO_R_PROG_EV` with its match/mask values and the R-box XBAR
//! match/mask events of Table 2-53 are in tables of their own,
//! [`SBOX_PROG_EV`] and [`RBOX_XBAR`], because their 64-bit match and mask
//! fields need the full-width term parser; `parts` exports them with the
//! rest (`events/`).
//!
//! Where the guide contradicts itself:
//! - S-box `TO_RING_R2S_*`/`TO_RING_B2S_*`: Table 2-37 gives R2S 0x2a-0x2c
//!   and B2S 0x2d-0x2f, the event list of section 2.5.6 interleaves them (R2S
//!   0x2a/0x2c/0x2e, B2S 0x2b/0x2d/0x2f). The catalog follows Table 2-37.
//! - R-box classes in `IPERF_CFG`: Table 2-48 has Home at bit 4 and Snoop at
//!   bit 5 of `NEW_PC` but Home VN0 at bit 15 and Snoop at bit 13 of
//!   `ARB_SEL`; the unit-mask Tables 2-55 and 2-59 put Home above Snoop in
//!   both (`NEW_PC` bit 5, `ARB_SEL` bits 14 (VN0) and 15 (VN1)). The catalog
//!   follows the unit-mask tables, which agree with each other.
//! - C-box `SNP_HITS` (0x28): the unit-mask patterns of `REMOTE_RFO_HITE`
//!   (`bxx1xxxx`), `REMOTE_RFO_HITS` (`bx1xxxx`) and `REMOTE_RFO_HITF`
//!   (`b1xxxxxx`) are one or two digits short of the 8-bit `umask` and, read
//!   as written, put HITE and HITS on `REMOTE_RFO_HITM`'s bit 4. The rows
//!   run through the bits in order (RD HITM/E/S/F bits 0-3, RFO HITM bit
//!   4): the catalog takes RFO HITE, HITS and HITF as bits 5, 6 and 7
//!   (0x20, 0x40, 0x80).
//! - R-box `VN0.NCB` in the QLX unit-mask tables (Table 2-58
//!   `GLOBAL_ARB_BID_FAIL`, and `TARGET_AVAILABLE`): `b1001`, which is also
//!   `VN1.SNP`'s value, where the VN0 rows run HOM 0000, SNP 0001, NDR 0010,
//!   NCS 0011, DRS 0100 and the VN1 rows repeat them from 1000 with NCB at
//!   1101. The catalog takes VN0.NCB as `b0101` (`qlx_cfg` 0x5x), the value
//!   VN1.NCB's less the VN1 bit.
//! - M-box `DRAM_CMD.PREALL.ADAPTIVE` and `.RAS.ADAPTIVE` give scheduling mode
//!   0x2, the `WRPRIO` value; the catalog uses 0x3 (adaptive, Table 2-74), as
//!   the other `*.ADAPTIVE` unit masks do. The all-commands mask is spelled
//!   `ALL.ADAPT` there, and so in the catalog (`dram_cmd.all.adapt`).
//! - M-box events 0x09 and 0x0b are `ISS_EV` and `PLD_RETRY_EV` in Table
//!   2-84 but `FRM_TYPE` and `DRAM_MISC` in the event list of section
//!   2.7.7, whose unit-mask tables (`FRM_TYPE_3CMD`, `RETRIES_ALL`, ...) the
//!   aliases are built from: the catalog names them `frm_type.*` and
//!   `dram_misc.*`.
//! - Names differ between the tables and the event lists in places (e.g.
//!   `MSGS_IN_NON_SNOOP`/`MSG_IN_NON_SNP`, `PAGE_HITS`/`PAGE_HIT`); the
//!   catalog uses the table names, reads the letter O as a zero where a digit
//!   is meant (`SBOX_VN0_UNAVAIL`, `*_BYP0`, `C_C0_*`) and takes the W-box
//!   event 0x03 as `C_C0_THROTTLE_PROCHOT` from the event list.
//!
//! Names are the manual's in lower case, unit masks joined with a dot
//! (`llc_hits.all`); the R-box adds the PMU-relative port (`.port0`..`.port3`).

use crate::hw::desc::Alias;

mod mbox;
mod rbox;
mod sbox;

pub use mbox::{NHMEX_MBOX, WSMEX_MBOX};
pub use rbox::{RBOX, RBOX_L_LINKS, RBOX_R_LINKS, RBOX_XBAR};
pub use sbox::{NHMEX_SBOX_CBOX, SBOX, SBOX_PROG_EV, WSMEX_SBOX_CBOX};

/// U-box events (Table 2-8). `RECOV` (0x1df), `CORRECTED_ERR` (0x1e4),
/// `UNCORRECTED_ERR` (0x1e5) and `FATAL_ERR` (0x1e6) are left out: their
/// codes do not fit the 8-bit `ev_sel` (Table 2-6).
pub const UBOX: &[Alias] = tsv!(include_str!("nhmex/ubox.tsv"));

/// C-box events (Table 2-15) with the unit masks of section 2.3.6. An event
/// with unit masks appears once per unit mask (a zero unit mask counts nothing).
pub const CBOX: &[Alias] = tsv!(include_str!("nhmex/cbox.tsv"));

/// B-box events (Table 2-24; `COHQ_BYPASS` from section 2.4.6). Each counter
/// has its own event set, named by `counter`. The `*_match` events count
/// what `B_MSR_MATCH_REG`/`B_MSR_MASK_REG` (Tables 2-22, 2-23) select; they
/// carry the registers' reset values, `match=0x0,mask=0x0` (a zero mask
/// selects no bit, so every packet matches), which `match=` and `mask=`
/// given with the alias replace.
pub const BBOX: &[Alias] = tsv!(include_str!("nhmex/bbox.tsv"));

/// W-box events (Table 2-101) after the Linux driver's `clockticks` (the
/// fixed UCLK counter). The per-core events select cores with the `umask`
/// core mask (Table 2-97); the aliases select every core the 8-bit mask can
/// name (`umask=0xff`): give `umask=` to narrow them.
pub const WBOX: &[Alias] = tsv!(include_str!("nhmex/wbox.tsv"));

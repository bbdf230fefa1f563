// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Nehalem-EX and Westmere-EX.
//!
//! Source: Intel Xeon E7 Family Uncore Performance Monitoring Programming
//! Guide (325294-001), chapter 2: Tables 2-8 (U-box), 2-15 (C-box), 2-24
//! (B-box), 2-37 (S-box), 2-54 (R-box), 2-84 (M-box) and 2-101 (W-box), and
//! the unit masks and subcontrol values of the event list after each. The
//! guide describes Westmere-EX; Nehalem-EX has the same boxes and events but
//! another layout of the M-box `ZDP_CTL_FVC` register, so only the M-box has
//! a table per part.
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
pub const UBOX: &[Alias] = &[
    Alias::plain("buf_valid_local_int", "event=0x0"),
    Alias::plain("buf_valid_remote_int", "event=0x1"),
    Alias::plain("buf_valid_lock", "event=0x2"),
    Alias::plain("buf_valid_stst", "event=0x3"),
    Alias::plain("buf_valid_spc_cycles", "event=0x4"),
    Alias::plain("buf_valid_door_bell", "event=0x5"),
    Alias::plain("buf_valid_pm_in", "event=0x6"),
    Alias::plain("buf_valid_pm_out", "event=0x7"),
    Alias::plain("u2r_requests", "event=0x50"),
    Alias::plain("u2b_request_cycles", "event=0x51"),
    Alias::plain("woken", "event=0xf8"),
    Alias::plain("ipis_sent", "event=0xf9"),
];

/// C-box events (Table 2-15) with the unit masks of section 2.3.6. An event
/// with unit masks appears once per unit mask (a zero unit mask counts nothing).
pub const CBOX: &[Alias] = &[
    Alias::plain("bounces_p2c_ad.sb", "event=0x1,umask=0x1"),
    Alias::plain("bounces_p2c_ad.nsb", "event=0x1,umask=0x2"),
    Alias::plain("bounces_p2c_ad.all", "event=0x1,umask=0x3"),
    Alias::plain("bounces_c2p_ak.sb", "event=0x2,umask=0x1"),
    Alias::plain("bounces_c2p_ak.nsb", "event=0x2,umask=0x2"),
    Alias::plain("bounces_c2p_ak.all", "event=0x2,umask=0x3"),
    Alias::plain("bounces_c2p_bl.sb", "event=0x3,umask=0x1"),
    Alias::plain("bounces_c2p_bl.nsb", "event=0x3,umask=0x2"),
    Alias::plain("bounces_c2p_bl.all", "event=0x3,umask=0x3"),
    Alias::plain("bounces_c2p_iv", "event=0x4"),
    Alias::plain("sinks_p2c.ad", "event=0x5,umask=0x1"),
    Alias::plain("sinks_p2c.ak", "event=0x5,umask=0x2"),
    Alias::plain("sinks_p2c.bl", "event=0x5,umask=0x4"),
    Alias::plain("sinks_c2p.iv", "event=0x6,umask=0x1"),
    Alias::plain("sinks_c2p.ak", "event=0x6,umask=0x2"),
    Alias::plain("sinks_c2p.bl", "event=0x6,umask=0x4"),
    Alias::plain("sinks_s2c.ad", "event=0x7,umask=0x1"),
    Alias::plain("sinks_s2c.ak", "event=0x7,umask=0x2"),
    Alias::plain("sinks_s2c.bl", "event=0x7,umask=0x4"),
    Alias::plain("sinks_s2p_bl", "event=0x8"),
    Alias::plain("arb_wins.ad_sb", "event=0x9,umask=0x1"),
    Alias::plain("arb_wins.ad_nsb", "event=0x9,umask=0x2"),
    Alias::plain("arb_wins.ad_all", "event=0x9,umask=0x3"),
    Alias::plain("arb_wins.ak_sb", "event=0x9,umask=0x4"),
    Alias::plain("arb_wins.ak_nsb", "event=0x9,umask=0x8"),
    Alias::plain("arb_wins.ak_all", "event=0x9,umask=0xc"),
    Alias::plain("arb_wins.bl_sb", "event=0x9,umask=0x10"),
    Alias::plain("arb_wins.bl_nsb", "event=0x9,umask=0x20"),
    Alias::plain("arb_wins.bl_all", "event=0x9,umask=0x30"),
    Alias::plain("arb_wins.iv", "event=0x9,umask=0x40"),
    Alias::plain("arb_wins.all", "event=0x9,umask=0x7f"),
    Alias::plain("arb_losses.ad_sb", "event=0xa,umask=0x1"),
    Alias::plain("arb_losses.ad_nsb", "event=0xa,umask=0x2"),
    Alias::plain("arb_losses.ad_all", "event=0xa,umask=0x3"),
    Alias::plain("arb_losses.ak_sb", "event=0xa,umask=0x4"),
    Alias::plain("arb_losses.ak_nsb", "event=0xa,umask=0x8"),
    Alias::plain("arb_losses.ak_all", "event=0xa,umask=0xc"),
    Alias::plain("arb_losses.bl_sb", "event=0xa,umask=0x10"),
    Alias::plain("arb_losses.bl_nsb", "event=0xa,umask=0x20"),
    Alias::plain("arb_losses.bl_all", "event=0xa,umask=0x30"),
    Alias::plain("arb_losses.iv", "event=0xa,umask=0x40"),
    Alias::plain("arb_losses.all", "event=0xa,umask=0x7f"),
    Alias::plain("starved_egress.p2c_ad_sb", "event=0xb,umask=0x1"),
    Alias::plain("starved_egress.c2s_ad_sb", "event=0xb,umask=0x2"),
    Alias::plain("starved_egress.ad_sb", "event=0xb,umask=0x3"),
    Alias::plain("starved_egress.ad_nsb", "event=0xb,umask=0x4"),
    Alias::plain("starved_egress.ad", "event=0xb,umask=0x7"),
    Alias::plain("starved_egress.ak_sb", "event=0xb,umask=0x8"),
    Alias::plain("starved_egress.ak_nsb", "event=0xb,umask=0x10"),
    Alias::plain("starved_egress.ak", "event=0xb,umask=0x18"),
    Alias::plain("starved_egress.bl_sb", "event=0xb,umask=0x20"),
    Alias::plain("starved_egress.bl_nsb", "event=0xb,umask=0x40"),
    Alias::plain("starved_egress.bl", "event=0xb,umask=0x60"),
    Alias::plain("starved_egress.iv", "event=0xb,umask=0x80"),
    Alias::plain("egress_bypass_wins.ad_byp0", "event=0xc,umask=0x1"),
    Alias::plain("egress_bypass_wins.ad_byp1", "event=0xc,umask=0x2"),
    Alias::plain("egress_bypass_wins.ak_byp0", "event=0xc,umask=0x4"),
    Alias::plain("egress_bypass_wins.ak_byp1", "event=0xc,umask=0x8"),
    Alias::plain("egress_bypass_wins.bl_byp0", "event=0xc,umask=0x10"),
    Alias::plain("egress_bypass_wins.bl_byp1", "event=0xc,umask=0x20"),
    Alias::plain("egress_bypass_wins.iv_byp0", "event=0xc,umask=0x40"),
    Alias::plain("egress_bypass_wins.iv_byp1", "event=0xc,umask=0x80"),
    Alias::plain("ingress_bypass_wins_ad.irq_byp0", "event=0xe,umask=0x1"),
    Alias::plain("ingress_bypass_wins_ad.irq_byp1", "event=0xe,umask=0x2"),
    Alias::plain("ingress_bypass_wins_ad.ipq_byp0", "event=0xe,umask=0x4"),
    Alias::plain("ingress_bypass_wins_ad.ipq_byp1", "event=0xe,umask=0x8"),
    Alias::plain("maf_ack", "event=0x10"),
    Alias::plain("maf_nack1.go_pending", "event=0x11,umask=0x1"),
    Alias::plain("maf_nack1.vic_pending", "event=0x11,umask=0x2"),
    Alias::plain("maf_nack1.snp_pending", "event=0x11,umask=0x4"),
    Alias::plain("maf_nack1.ac_pending", "event=0x11,umask=0x8"),
    Alias::plain("maf_nack1.idx_block", "event=0x11,umask=0x10"),
    Alias::plain("maf_nack1.pa_block", "event=0x11,umask=0x20"),
    Alias::plain("maf_nack1.idle_qpi", "event=0x11,umask=0x40"),
    Alias::plain("maf_nack1.all_maf_nack2", "event=0x11,umask=0x80"),
    Alias::plain("maf_nack1.total_maf_nacks", "event=0x11,umask=0xff"),
    Alias::plain("maf_nack2.maf_full", "event=0x12,umask=0x1"),
    Alias::plain("maf_nack2.egress_full", "event=0x12,umask=0x2"),
    Alias::plain("maf_nack2.viq_full", "event=0x12,umask=0x4"),
    Alias::plain("maf_nack2.no_tracker_credits", "event=0x12,umask=0x8"),
    Alias::plain("maf_nack2.no_s_fifo_credits", "event=0x12,umask=0x10"),
    Alias::plain("maf_nack2.no_s_reqtbl_entries", "event=0x12,umask=0x20"),
    Alias::plain("maf_nack2.wb_pending", "event=0x12,umask=0x40"),
    Alias::plain("maf_nack2.nack2_else", "event=0x12,umask=0x80"),
    Alias::plain("llc_misses.s", "event=0x14,umask=0x1"),
    Alias::plain("llc_misses.f", "event=0x14,umask=0x2"),
    Alias::plain("llc_misses.i", "event=0x14,umask=0x4"),
    Alias::plain("llc_misses.all", "event=0x14,umask=0x7"),
    Alias::plain("llc_hits.m", "event=0x15,umask=0x1"),
    Alias::plain("llc_hits.e", "event=0x15,umask=0x2"),
    Alias::plain("llc_hits.s", "event=0x15,umask=0x4"),
    Alias::plain("llc_hits.f", "event=0x15,umask=0x8"),
    Alias::plain("llc_hits.all", "event=0x15,umask=0xf"),
    Alias::plain("llc_s_fills.m", "event=0x16,umask=0x1"),
    Alias::plain("llc_s_fills.e", "event=0x16,umask=0x2"),
    Alias::plain("llc_s_fills.s", "event=0x16,umask=0x4"),
    Alias::plain("llc_s_fills.f", "event=0x16,umask=0x8"),
    Alias::plain("llc_s_fills.all", "event=0x16,umask=0xf"),
    Alias::plain("llc_victims.m", "event=0x17,umask=0x1"),
    Alias::plain("llc_victims.e", "event=0x17,umask=0x2"),
    Alias::plain("llc_victims.s", "event=0x17,umask=0x4"),
    Alias::plain("llc_victims.f", "event=0x17,umask=0x8"),
    Alias::plain("llc_victims.i", "event=0x17,umask=0x10"),
    Alias::plain("occupancy_irq", "event=0x18"),
    Alias::plain("trans_irq", "event=0x19"),
    Alias::plain("occupancy_ipq", "event=0x1a"),
    Alias::plain("trans_ipq", "event=0x1b"),
    Alias::plain("occupancy_viq", "event=0x1c"),
    Alias::plain("trans_viq", "event=0x1d"),
    Alias::plain("occupancy_maf", "event=0x1e"),
    Alias::plain("trans_maf", "event=0x1f"),
    Alias::plain("occupancy_rwrf", "event=0x20"),
    Alias::plain("trans_rwrf", "event=0x21"),
    Alias::plain("occupancy_rspf", "event=0x22"),
    Alias::plain("trans_rspf", "event=0x23"),
    Alias::plain("snps.remote_rd", "event=0x27,umask=0x1"),
    Alias::plain("snps.remote_rfo", "event=0x27,umask=0x2"),
    Alias::plain("snps.remote_any", "event=0x27,umask=0x3"),
    Alias::plain("snp_hits.remote_rd_hitm", "event=0x28,umask=0x1"),
    Alias::plain("snp_hits.remote_rd_hite", "event=0x28,umask=0x2"),
    Alias::plain("snp_hits.remote_rd_hits", "event=0x28,umask=0x4"),
    Alias::plain("snp_hits.remote_rd_hitf", "event=0x28,umask=0x8"),
    Alias::plain("snp_hits.remote_rfo_hitm", "event=0x28,umask=0x10"),
    Alias::plain("snp_hits.remote_rfo_hite", "event=0x28,umask=0x20"),
    Alias::plain("snp_hits.remote_rfo_hits", "event=0x28,umask=0x40"),
    Alias::plain("snp_hits.remote_rfo_hitf", "event=0x28,umask=0x80"),
    Alias::plain("snp_hits.remote_hitm", "event=0x28,umask=0x11"),
    Alias::plain("snp_hits.remote_hite", "event=0x28,umask=0x22"),
    Alias::plain("snp_hits.remote_hits", "event=0x28,umask=0x44"),
    Alias::plain("snp_hits.remote_hitf", "event=0x28,umask=0x88"),
    Alias::plain("snp_hits.remote_any", "event=0x28,umask=0xff"),
    Alias::plain("spl_dead", "event=0x29"),
    Alias::plain("spl_arb_pri_sw", "event=0x2a"),
    Alias::plain("spl_not_co", "event=0x2b"),
    Alias::plain("spl_co_sb", "event=0x2c"),
    Alias::plain("spl_co_nsb", "event=0x2d"),
    Alias::plain("spl_in_full_irq", "event=0x2e"),
    Alias::plain("spl_egr_sb", "event=0x2f"),
    Alias::plain("spl_egr_nsb", "event=0x30"),
    Alias::plain("igr_op_sram", "event=0x31"),
    Alias::plain("igr_op_uc", "event=0x32"),
    Alias::plain("arb_wins_p2c_sb", "event=0x33"),
    Alias::plain("arb_wins_p2c_nsb", "event=0x34"),
    Alias::plain("spoof_crd_empty", "event=0x35"),
    Alias::plain("idf_nonzero_no_bl_crd", "event=0x36"),
    Alias::plain("idf_nonzero_no_vld", "event=0x37"),
    Alias::plain("bounce_assert", "event=0x38"),
    Alias::plain("bounce_deassert", "event=0x39"),
    Alias::plain("spoof_assert", "event=0x3a"),
    Alias::plain("spoof_deassert", "event=0x3b"),
    Alias::plain("igr_bid_blocked", "event=0x3c"),
];

/// B-box events (Table 2-24; `COHQ_BYPASS` from section 2.4.6). Each counter
/// has its own event set, named by `counter`. The `*_match` events count
/// what `B_MSR_MATCH_REG`/`B_MSR_MASK_REG` (Tables 2-22, 2-23) select; they
/// carry the registers' reset values, `match=0x0,mask=0x0` (a zero mask
/// selects no bit, so every packet matches), which `match=` and `mask=`
/// given with the alias replace.
pub const BBOX: &[Alias] = &[
    Alias::plain(
        "msg_addr_in_match",
        "event=0x1,counter=0,match=0x0,mask=0x0",
    ),
    Alias::plain(
        "opcode_addr_in_match",
        "event=0x2,counter=0,match=0x0,mask=0x0",
    ),
    Alias::plain(
        "msg_opcode_addr_in_match",
        "event=0x3,counter=0,match=0x0,mask=0x0",
    ),
    Alias::plain("tf_occupancy_all", "event=0x4,counter=0"),
    Alias::plain("tf_occupancy_wr", "event=0x5,counter=0"),
    Alias::plain("tf_occupancy_invitoe", "event=0x6,counter=0"),
    Alias::plain("imt_valid_occupancy", "event=0x7,counter=0"),
    Alias::plain("drsq_occupancy", "event=0x9,counter=0"),
    Alias::plain("tf_occupancy_ioh", "event=0xb,counter=0"),
    Alias::plain("tf_occupancy_ioh_wr", "event=0xd,counter=0"),
    Alias::plain("tf_occupancy_ioh_invitoe", "event=0xf,counter=0"),
    Alias::plain("snpoq_occupancy", "event=0x12,counter=0"),
    Alias::plain("dirq_occupancy", "event=0x17,counter=0"),
    Alias::plain("tf_occupancy_ioh_non_invitoe_rd", "event=0x1c,counter=0"),
    Alias::plain("msg_in_match", "event=0x1,counter=1,match=0x0,mask=0x0"),
    Alias::plain("msg_out_match", "event=0x2,counter=1,match=0x0,mask=0x0"),
    Alias::plain("opcode_in_match", "event=0x3,counter=1,match=0x0,mask=0x0"),
    Alias::plain("opcode_out_match", "event=0x4,counter=1,match=0x0,mask=0x0"),
    Alias::plain(
        "msg_opcode_in_match",
        "event=0x5,counter=1,match=0x0,mask=0x0",
    ),
    Alias::plain(
        "msg_opcode_out_match",
        "event=0x6,counter=1,match=0x0,mask=0x0",
    ),
    Alias::plain("imt_inserts_all", "event=0x7,counter=1"),
    Alias::plain("drsq_inserts", "event=0x9,counter=1"),
    Alias::plain("imt_inserts_ioh", "event=0xa,counter=1"),
    Alias::plain("imt_inserts_non_ioh", "event=0xb,counter=1"),
    Alias::plain("imt_inserts_wr", "event=0xc,counter=1"),
    Alias::plain("imt_inserts_ioh_wr", "event=0xd,counter=1"),
    Alias::plain("imt_inserts_non_ioh_wr", "event=0xe,counter=1"),
    Alias::plain("imt_inserts_invitoe", "event=0xf,counter=1"),
    Alias::plain("imt_inserts_ioh_invitoe", "event=0x10,counter=1"),
    Alias::plain("snpoq_inserts", "event=0x12,counter=1"),
    Alias::plain("dirq_inserts", "event=0x17,counter=1"),
    Alias::plain("imt_inserts_non_ioh_invitoe", "event=0x1c,counter=1"),
    Alias::plain("imt_inserts_rd", "event=0x1d,counter=1"),
    Alias::plain("imt_inserts_non_ioh_rd", "event=0x1f,counter=1"),
    Alias::plain("msgs_in_non_snoop", "event=0x1,counter=2"),
    Alias::plain("msgs_s_to_b", "event=0x2,counter=2"),
    Alias::plain("msgs_b_to_s", "event=0x3,counter=2"),
    Alias::plain("addr_in_match", "event=0x4,counter=2,match=0x0,mask=0x0"),
    Alias::plain("imt_ne_cycles", "event=0x7,counter=2"),
    Alias::plain("early_ack", "event=0x2,counter=3"),
    Alias::plain("imt_prealloc", "event=0x6,counter=3"),
    Alias::plain("cohq_bypass", "event=0xe,counter=3"),
    Alias::plain("demand_fetch", "event=0xf,counter=3"),
    Alias::plain("implicit_wbs", "event=0x12,counter=3"),
    Alias::plain("cohq_imt_alloc_wait", "event=0x13,counter=3"),
    Alias::plain("sbox_vn0_unavail", "event=0x14,counter=3"),
    Alias::plain("rbox_vna_unavail", "event=0x15,counter=3"),
    Alias::plain("imt_full", "event=0x16,counter=3"),
    Alias::plain("conflicts", "event=0x17,counter=3"),
    Alias::plain("ack_before_last_snp", "event=0x19,counter=3"),
];

/// W-box events (Table 2-101) after the Linux driver's `clockticks` (the
/// fixed UCLK counter). The per-core events select cores with the `umask`
/// core mask (Table 2-97); the aliases select every core the 8-bit mask can
/// name (`umask=0xff`): give `umask=` to narrow them.
pub const WBOX: &[Alias] = &[
    Alias::plain("clockticks", "event=0xff,umask=0"),
    Alias::plain("c_throttle_tmp", "event=0x0,umask=0xff"),
    Alias::plain("c_c0_throttle_die", "event=0x1,umask=0xff"),
    Alias::plain("prochot", "event=0x2"),
    Alias::plain("c_c0_throttle_prochot", "event=0x3,umask=0xff"),
    Alias::plain("c_cycles_turbo", "event=0x4,umask=0xff"),
    Alias::plain("tm1_on", "event=0x7,umask=0xff"),
    Alias::plain("ratio_change_abort", "event=0x8,umask=0xff"),
];

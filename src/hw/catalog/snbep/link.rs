// SPDX-License-Identifier: GPL-2.0

//! Sandy Bridge-EP memory controller, QPI and ring-interface catalogs.

use super::super::join;
use crate::hw::desc::Alias;

/// iMC events after the Linux driver's aliases. Perfmon's programmable
/// `UNC_M_CLOCKTICKS` (event 0) is `dclockticks`, as on IVB-EP, since
/// `clockticks` is the fixed DCLK counter. CAS counts are 64-byte lines,
/// reported in MiB.
pub const IMC: &[Alias] = &join::<IMC_LEN>(&[IMC_OWN, IMC_SHARED]);

/// The iMC events of Sandy Bridge-EP only (after the aliases the platform carries).
const IMC_OWN: &[Alias] = &[
    Alias::plain("clockticks", "event=0xff,umask=0x00"),
    Alias::mib("cas_count_read", "event=0x04,umask=0x03"),
    Alias::mib("cas_count_write", "event=0x04,umask=0x0c"),
    Alias::plain("act_count", "event=0x1"),
    Alias::plain("rpq_cycles_full", "event=0x12"),
    Alias::plain("rpq_occupancy", "event=0x80"),
    Alias::plain("wpq_occupancy", "event=0x81"),
];

/// The iMC events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const IMC_SHARED: &[Alias] = &[
    Alias::mib("cas_count.all", "event=0x4,umask=0xf"),
    Alias::mib("cas_count.rd", "event=0x4,umask=0x3"),
    Alias::mib("cas_count.rd_reg", "event=0x4,umask=0x1"),
    Alias::mib("cas_count.rd_underfill", "event=0x4,umask=0x2"),
    Alias::mib("cas_count.wr", "event=0x4,umask=0xc"),
    Alias::mib("cas_count.wr_rmm", "event=0x4,umask=0x8"),
    Alias::mib("cas_count.wr_wmm", "event=0x4,umask=0x4"),
    Alias::plain("dclockticks", "event=0x0"),
    Alias::plain("dram_pre_all", "event=0x6"),
    Alias::plain("dram_refresh.high", "event=0x5,umask=0x4"),
    Alias::plain("dram_refresh.panic", "event=0x5,umask=0x2"),
    Alias::plain("ecc_correctable_errors", "event=0x9"),
    Alias::plain("major_modes.isoch", "event=0x7,umask=0x8"),
    Alias::plain("major_modes.partial", "event=0x7,umask=0x4"),
    Alias::plain("major_modes.read", "event=0x7,umask=0x1"),
    Alias::plain("major_modes.write", "event=0x7,umask=0x2"),
    Alias::plain("power_channel_dlloff", "event=0x84"),
    Alias::plain("power_channel_ppd", "event=0x85"),
    Alias::plain("power_cke_cycles.rank0", "event=0x83,umask=0x1"),
    Alias::plain("power_cke_cycles.rank1", "event=0x83,umask=0x2"),
    Alias::plain("power_cke_cycles.rank2", "event=0x83,umask=0x4"),
    Alias::plain("power_cke_cycles.rank3", "event=0x83,umask=0x8"),
    Alias::plain("power_cke_cycles.rank4", "event=0x83,umask=0x10"),
    Alias::plain("power_cke_cycles.rank5", "event=0x83,umask=0x20"),
    Alias::plain("power_cke_cycles.rank6", "event=0x83,umask=0x40"),
    Alias::plain("power_cke_cycles.rank7", "event=0x83,umask=0x80"),
    Alias::plain("power_critical_throttle_cycles", "event=0x86"),
    Alias::plain("power_self_refresh", "event=0x43"),
    Alias::plain("power_throttle_cycles.rank0", "event=0x41,umask=0x1"),
    Alias::plain("power_throttle_cycles.rank1", "event=0x41,umask=0x2"),
    Alias::plain("power_throttle_cycles.rank2", "event=0x41,umask=0x4"),
    Alias::plain("power_throttle_cycles.rank3", "event=0x41,umask=0x8"),
    Alias::plain("power_throttle_cycles.rank4", "event=0x41,umask=0x10"),
    Alias::plain("power_throttle_cycles.rank5", "event=0x41,umask=0x20"),
    Alias::plain("power_throttle_cycles.rank6", "event=0x41,umask=0x40"),
    Alias::plain("power_throttle_cycles.rank7", "event=0x41,umask=0x80"),
    Alias::plain("preemption.rd_preempt_rd", "event=0x8,umask=0x1"),
    Alias::plain("preemption.rd_preempt_wr", "event=0x8,umask=0x2"),
    Alias::plain("pre_count.page_close", "event=0x2,umask=0x2"),
    Alias::plain("pre_count.page_miss", "event=0x2,umask=0x1"),
    Alias::plain("rpq_cycles_ne", "event=0x11"),
    Alias::plain("rpq_inserts", "event=0x10"),
    Alias::plain("wpq_cycles_full", "event=0x22"),
    Alias::plain("wpq_cycles_ne", "event=0x21"),
    Alias::plain("wpq_inserts", "event=0x20"),
    Alias::plain("wpq_read_hit", "event=0x23"),
    Alias::plain("wpq_write_hit", "event=0x24"),
];

const IMC_LEN: usize = IMC_OWN.len() + IMC_SHARED.len();

/// QPI events after the Linux driver's aliases (perfmon's `UNC_Q_CLOCKTICKS`
/// is the driver's `clockticks`). `cto_count` counts the packets selected by
/// the match/mask registers, to be given as `match*`/`mask*` terms; the
/// `message.*` events are `cto_count` with the packet match/mask of
/// 325294-001 Tables 2-51..2-53 (the same QPI packet fields as these
/// formats; IVB-EP's perfmon catalog names the same events).
pub const QPI: &[Alias] = &join::<QPI_LEN>(&[QPI_OWN, QPI_SHARED]);

/// The QPI events of Sandy Bridge-EP only (after the aliases the platform carries).
const QPI_OWN: &[Alias] = &[
    Alias::plain("clockticks", "event=0x14"),
    Alias::plain("txl_flits_active", "event=0x00,umask=0x06"),
    Alias::plain("drs_data", "event=0x102,umask=0x08"),
    Alias::plain("ncb_data", "event=0x103,umask=0x04"),
    Alias::plain("direct2core.failure_rbt", "event=0x13,umask=0x4"),
    Alias::plain("direct2core.success", "event=0x13,umask=0x1"),
    Alias::plain("rxl_stalls.bgf_drs", "event=0x35,umask=0x1"),
    Alias::plain("rxl_stalls.bgf_hom", "event=0x35,umask=0x8"),
    Alias::plain("rxl_stalls.bgf_ncb", "event=0x35,umask=0x2"),
    Alias::plain("rxl_stalls.bgf_ncs", "event=0x35,umask=0x4"),
    Alias::plain("rxl_stalls.bgf_ndr", "event=0x35,umask=0x20"),
    Alias::plain("rxl_stalls.bgf_snp", "event=0x35,umask=0x10"),
    Alias::plain("rxl_stalls.egress_credits", "event=0x35,umask=0x40"),
    Alias::plain("rxl_stalls.gv", "event=0x35,umask=0x80"),
    Alias::plain("txl_flits_g0.idle", "event=0x0,umask=0x1"),
];

/// The QPI events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const QPI_SHARED: &[Alias] = &[
    Alias::plain("cto_count", "event=0x138"),
    Alias::plain("direct2core.failure_credits", "event=0x13,umask=0x2"),
    Alias::plain("direct2core.failure_credits_rbt", "event=0x13,umask=0x8"),
    Alias::plain("l1_power_cycles", "event=0x12"),
    Alias::plain("rxl0p_power_cycles", "event=0x10"),
    Alias::plain("rxl0_power_cycles", "event=0xf"),
    Alias::plain("rxl_bypassed", "event=0x9"),
    Alias::plain("rxl_crc_errors.link_init", "event=0x3,umask=0x1"),
    Alias::plain("rxl_crc_errors.normal_op", "event=0x3,umask=0x2"),
    Alias::plain("rxl_credits_consumed_vn0.drs", "event=0x11e,umask=0x1"),
    Alias::plain("rxl_credits_consumed_vn0.hom", "event=0x11e,umask=0x8"),
    Alias::plain("rxl_credits_consumed_vn0.ncb", "event=0x11e,umask=0x2"),
    Alias::plain("rxl_credits_consumed_vn0.ncs", "event=0x11e,umask=0x4"),
    Alias::plain("rxl_credits_consumed_vn0.ndr", "event=0x11e,umask=0x20"),
    Alias::plain("rxl_credits_consumed_vn0.snp", "event=0x11e,umask=0x10"),
    Alias::plain("rxl_credits_consumed_vna", "event=0x11d"),
    Alias::plain("rxl_cycles_ne", "event=0xa"),
    Alias::plain("rxl_flits_g0.data", "event=0x1,umask=0x2"),
    Alias::plain("rxl_flits_g0.idle", "event=0x1,umask=0x1"),
    Alias::plain("rxl_flits_g0.non_data", "event=0x1,umask=0x4"),
    Alias::plain("rxl_flits_g1.drs", "event=0x102,umask=0x18"),
    Alias::plain("rxl_flits_g1.drs_data", "event=0x102,umask=0x8"),
    Alias::plain("rxl_flits_g1.drs_nondata", "event=0x102,umask=0x10"),
    Alias::plain("rxl_flits_g1.hom", "event=0x102,umask=0x6"),
    Alias::plain("rxl_flits_g1.hom_nonreq", "event=0x102,umask=0x4"),
    Alias::plain("rxl_flits_g1.hom_req", "event=0x102,umask=0x2"),
    Alias::plain("rxl_flits_g1.snp", "event=0x102,umask=0x1"),
    Alias::plain("rxl_flits_g2.ncb", "event=0x103,umask=0xc"),
    Alias::plain("rxl_flits_g2.ncb_data", "event=0x103,umask=0x4"),
    Alias::plain("rxl_flits_g2.ncb_nondata", "event=0x103,umask=0x8"),
    Alias::plain("rxl_flits_g2.ncs", "event=0x103,umask=0x10"),
    Alias::plain("rxl_flits_g2.ndr_ad", "event=0x103,umask=0x1"),
    Alias::plain("rxl_flits_g2.ndr_ak", "event=0x103,umask=0x2"),
    Alias::plain("rxl_inserts", "event=0x8"),
    Alias::plain("rxl_inserts_drs", "event=0x109"),
    Alias::plain("rxl_inserts_hom", "event=0x10c"),
    Alias::plain("rxl_inserts_ncb", "event=0x10a"),
    Alias::plain("rxl_inserts_ncs", "event=0x10b"),
    Alias::plain("rxl_inserts_ndr", "event=0x10e"),
    Alias::plain("rxl_inserts_snp", "event=0x10d"),
    Alias::plain("rxl_occupancy", "event=0xb"),
    Alias::plain("rxl_occupancy_drs", "event=0x115"),
    Alias::plain("rxl_occupancy_hom", "event=0x118"),
    Alias::plain("rxl_occupancy_ncb", "event=0x116"),
    Alias::plain("rxl_occupancy_ncs", "event=0x117"),
    Alias::plain("rxl_occupancy_ndr", "event=0x11a"),
    Alias::plain("rxl_occupancy_snp", "event=0x119"),
    Alias::plain("txl0p_power_cycles", "event=0xd"),
    Alias::plain("txl0_power_cycles", "event=0xc"),
    Alias::plain("txl_bypassed", "event=0x5"),
    Alias::plain("txl_crc_no_credits.almost_full", "event=0x2,umask=0x2"),
    Alias::plain("txl_crc_no_credits.full", "event=0x2,umask=0x1"),
    Alias::plain("txl_cycles_ne", "event=0x6"),
    Alias::plain("txl_flits_g0.data", "event=0x0,umask=0x2"),
    Alias::plain("txl_flits_g0.non_data", "event=0x0,umask=0x4"),
    Alias::plain("txl_flits_g1.drs", "event=0x100,umask=0x18"),
    Alias::plain("txl_flits_g1.drs_data", "event=0x100,umask=0x8"),
    Alias::plain("txl_flits_g1.drs_nondata", "event=0x100,umask=0x10"),
    Alias::plain("txl_flits_g1.hom", "event=0x100,umask=0x6"),
    Alias::plain("txl_flits_g1.hom_nonreq", "event=0x100,umask=0x4"),
    Alias::plain("txl_flits_g1.hom_req", "event=0x100,umask=0x2"),
    Alias::plain("txl_flits_g1.snp", "event=0x100,umask=0x1"),
    Alias::plain("txl_flits_g2.ncb", "event=0x101,umask=0xc"),
    Alias::plain("txl_flits_g2.ncb_data", "event=0x101,umask=0x4"),
    Alias::plain("txl_flits_g2.ncb_nondata", "event=0x101,umask=0x8"),
    Alias::plain("txl_flits_g2.ncs", "event=0x101,umask=0x10"),
    Alias::plain("txl_flits_g2.ndr_ad", "event=0x101,umask=0x1"),
    Alias::plain("txl_flits_g2.ndr_ak", "event=0x101,umask=0x2"),
    Alias::plain("txl_inserts", "event=0x4"),
    Alias::plain("txl_occupancy", "event=0x7"),
    Alias::plain("vna_credit_returns", "event=0x11c"),
    Alias::plain("vna_credit_return_occupancy", "event=0x11b"),
    Alias::plain(
        "message.drs.anydatac",
        "event=0x138,match0=0x1c00,mask0=0x1f80",
    ),
    Alias::plain(
        "message.drs.datac_m",
        "event=0x138,match0=0x1c00,mask0=0x1fe0,match_rds=0x8,mask_rds=0xf",
    ),
    Alias::plain(
        "message.drs.datac_e",
        "event=0x138,match0=0x1c00,mask0=0x1fe0,match_rds=0x4,mask_rds=0xf",
    ),
    Alias::plain(
        "message.drs.datac_f",
        "event=0x138,match0=0x1c00,mask0=0x1fe0,match_rds=0x1,mask_rds=0xf",
    ),
    Alias::plain(
        "message.drs.datac_e_frcackcnflt",
        "event=0x138,match0=0x1c20,mask0=0x1fe0,match_rds=0x4,mask_rds=0xf",
    ),
    Alias::plain(
        "message.drs.datac_f_frcackcnflt",
        "event=0x138,match0=0x1c20,mask0=0x1fe0,match_rds=0x1,mask_rds=0xf",
    ),
    Alias::plain(
        "message.drs.datac_e_cmp",
        "event=0x138,match0=0x1c40,mask0=0x1fe0,match_rds=0x4,mask_rds=0xf",
    ),
    Alias::plain(
        "message.drs.datac_f_cmp",
        "event=0x138,match0=0x1c40,mask0=0x1fe0,match_rds=0x1,mask_rds=0xf",
    ),
    Alias::plain(
        "message.drs.wbidata",
        "event=0x138,match0=0x1c80,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.drs.wbsdata",
        "event=0x138,match0=0x1ca0,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.drs.wbedata",
        "event=0x138,match0=0x1cc0,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.drs.anyresp",
        "event=0x138,match0=0x1c00,mask0=0x1e00",
    ),
    Alias::plain(
        "message.drs.anyresp9flits",
        "event=0x138,match0=0x1c00,mask0=0x1f00",
    ),
    Alias::plain(
        "message.drs.anyresp11flits",
        "event=0x138,match0=0x1d00,mask0=0x1f00",
    ),
    Alias::plain("message.hom.anyreq", "event=0x138,match0=0x0,mask0=0x1e00"),
    Alias::plain(
        "message.hom.anyresp",
        "event=0x138,match0=0x200,mask0=0x1e00",
    ),
    Alias::plain(
        "message.hom.respfwd",
        "event=0x138,match0=0x300,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.hom.respfwdi",
        "event=0x138,match0=0x320,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.hom.respfwds",
        "event=0x138,match0=0x340,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.hom.respfwdiwb",
        "event=0x138,match0=0x360,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.hom.respfwdswb",
        "event=0x138,match0=0x380,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.hom.respiwb",
        "event=0x138,match0=0x3a0,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.hom.respswb",
        "event=0x138,match0=0x3c0,mask0=0x1fe0",
    ),
    Alias::plain(
        "message.ncb.anymsg",
        "event=0x138,match0=0x1800,mask0=0x1e00",
    ),
    Alias::plain(
        "message.ncb.anymsg9flits",
        "event=0x138,match0=0x1800,mask0=0x1f00",
    ),
    Alias::plain(
        "message.ncb.anymsg11flits",
        "event=0x138,match0=0x1900,mask0=0x1f00",
    ),
    Alias::plain(
        "message.ncb.anyint",
        "event=0x138,match0=0x1900,mask0=0x1f80",
    ),
    Alias::plain(
        "message.ncs.anymsg1or2flits",
        "event=0x138,match0=0x800,mask0=0x1f00",
    ),
    Alias::plain(
        "message.ncs.anymsg3flits",
        "event=0x138,match0=0x900,mask0=0x1f00",
    ),
    Alias::plain("message.ncs.ncrd", "event=0x138,match0=0x800,mask0=0x1fe0"),
    Alias::plain(
        "message.ndr.anycmp",
        "event=0x138,match0=0x400,mask0=0x1e00",
    ),
    Alias::plain(
        "message.snp.anysnp",
        "event=0x138,match0=0x600,mask0=0x1e00",
    ),
];

const QPI_LEN: usize = QPI_OWN.len() + QPI_SHARED.len();

/// R2PCIe events.
pub const R2PCIE: &[Alias] = &join::<R2PCIE_LEN>(&[R2PCIE_OWN, R2PCIE_SHARED]);

/// The R2PCIe events of Sandy Bridge-EP only.
const R2PCIE_OWN: &[Alias] = &[
    Alias::plain("iio_credits_reject.ncb", "event=0x34,umask=0x10"),
    Alias::plain("iio_credits_reject.ncs", "event=0x34,umask=0x20"),
    Alias::plain("ring_ad_used.ccw_even", "event=0x7,umask=0x4"),
    Alias::plain("ring_ad_used.ccw_odd", "event=0x7,umask=0x8"),
    Alias::plain("ring_ad_used.cw_even", "event=0x7,umask=0x1"),
    Alias::plain("ring_ad_used.cw_odd", "event=0x7,umask=0x2"),
    Alias::plain("ring_ak_used.ccw_even", "event=0x8,umask=0x4"),
    Alias::plain("ring_ak_used.ccw_odd", "event=0x8,umask=0x8"),
    Alias::plain("ring_ak_used.cw_even", "event=0x8,umask=0x1"),
    Alias::plain("ring_ak_used.cw_odd", "event=0x8,umask=0x2"),
    Alias::plain("ring_bl_used.ccw_even", "event=0x9,umask=0x4"),
    Alias::plain("ring_bl_used.ccw_odd", "event=0x9,umask=0x8"),
    Alias::plain("ring_bl_used.cw_even", "event=0x9,umask=0x1"),
    Alias::plain("ring_bl_used.cw_odd", "event=0x9,umask=0x2"),
    Alias::plain("ring_iv_used.any", "event=0xa,umask=0xf"),
    Alias::plain("rxr_cycles_ne.drs", "event=0x10,umask=0x8"),
    Alias::plain("txr_nacks.ad", "event=0x26,umask=0x1"),
    Alias::plain("txr_nacks.ak", "event=0x26,umask=0x2"),
    Alias::plain("txr_nacks.bl", "event=0x26,umask=0x4"),
];

/// The R2PCIe events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const R2PCIE_SHARED: &[Alias] = &[
    Alias::plain("clockticks", "event=0x1"),
    Alias::plain("iio_credits_acquired.drs", "event=0x33,umask=0x8"),
    Alias::plain("iio_credits_acquired.ncb", "event=0x33,umask=0x10"),
    Alias::plain("iio_credits_acquired.ncs", "event=0x33,umask=0x20"),
    Alias::plain("iio_credits_reject.drs", "event=0x34,umask=0x8"),
    Alias::plain("iio_credits_used.drs", "event=0x32,umask=0x8"),
    Alias::plain("iio_credits_used.ncb", "event=0x32,umask=0x10"),
    Alias::plain("iio_credits_used.ncs", "event=0x32,umask=0x20"),
    Alias::plain("rxr_ak_bounces", "event=0x12"),
    Alias::plain("rxr_cycles_ne.ncb", "event=0x10,umask=0x10"),
    Alias::plain("rxr_cycles_ne.ncs", "event=0x10,umask=0x20"),
    Alias::plain("txr_cycles_full.ad", "event=0x25,umask=0x1"),
    Alias::plain("txr_cycles_full.ak", "event=0x25,umask=0x2"),
    Alias::plain("txr_cycles_full.bl", "event=0x25,umask=0x4"),
    Alias::plain("txr_cycles_ne.ad", "event=0x23,umask=0x1"),
    Alias::plain("txr_cycles_ne.ak", "event=0x23,umask=0x2"),
    Alias::plain("txr_cycles_ne.bl", "event=0x23,umask=0x4"),
];

const R2PCIE_LEN: usize = R2PCIE_OWN.len() + R2PCIE_SHARED.len();

/// R3QPI events.
pub const R3QPI: &[Alias] = &join::<R3QPI_LEN>(&[R3QPI_OWN, R3QPI_SHARED]);

/// The R3QPI events of Sandy Bridge-EP only.
const R3QPI_OWN: &[Alias] = &[
    Alias::plain("iio_credits_acquired.drs", "event=0x20,umask=0x8"),
    Alias::plain("iio_credits_acquired.ncb", "event=0x20,umask=0x10"),
    Alias::plain("iio_credits_acquired.ncs", "event=0x20,umask=0x20"),
    Alias::plain("iio_credits_reject.drs", "event=0x21,umask=0x8"),
    Alias::plain("iio_credits_reject.ncb", "event=0x21,umask=0x10"),
    Alias::plain("iio_credits_reject.ncs", "event=0x21,umask=0x20"),
    Alias::plain("iio_credits_used.drs", "event=0x22,umask=0x8"),
    Alias::plain("iio_credits_used.ncb", "event=0x22,umask=0x10"),
    Alias::plain("iio_credits_used.ncs", "event=0x22,umask=0x20"),
    Alias::plain("ring_ad_used.ccw_even", "event=0x7,umask=0x4"),
    Alias::plain("ring_ad_used.ccw_odd", "event=0x7,umask=0x8"),
    Alias::plain("ring_ad_used.cw_even", "event=0x7,umask=0x1"),
    Alias::plain("ring_ad_used.cw_odd", "event=0x7,umask=0x2"),
    Alias::plain("ring_ak_used.ccw_even", "event=0x8,umask=0x4"),
    Alias::plain("ring_ak_used.ccw_odd", "event=0x8,umask=0x8"),
    Alias::plain("ring_ak_used.cw_even", "event=0x8,umask=0x1"),
    Alias::plain("ring_ak_used.cw_odd", "event=0x8,umask=0x2"),
    Alias::plain("ring_bl_used.ccw_even", "event=0x9,umask=0x4"),
    Alias::plain("ring_bl_used.ccw_odd", "event=0x9,umask=0x8"),
    Alias::plain("ring_bl_used.cw_even", "event=0x9,umask=0x1"),
    Alias::plain("ring_bl_used.cw_odd", "event=0x9,umask=0x2"),
    Alias::plain("ring_iv_used.any", "event=0xa,umask=0xf"),
    Alias::plain("rxr_cycles_ne.drs", "event=0x10,umask=0x8"),
    Alias::plain("rxr_cycles_ne.ncb", "event=0x10,umask=0x10"),
    Alias::plain("rxr_cycles_ne.ncs", "event=0x10,umask=0x20"),
];

/// The R3QPI events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const R3QPI_SHARED: &[Alias] = &[
    Alias::plain("clockticks", "event=0x1"),
    Alias::plain("rxr_bypassed.ad", "event=0x12,umask=0x1"),
    Alias::plain("rxr_cycles_ne.hom", "event=0x10,umask=0x1"),
    Alias::plain("rxr_cycles_ne.ndr", "event=0x10,umask=0x4"),
    Alias::plain("rxr_cycles_ne.snp", "event=0x10,umask=0x2"),
    Alias::plain("rxr_inserts.drs", "event=0x11,umask=0x8"),
    Alias::plain("rxr_inserts.hom", "event=0x11,umask=0x1"),
    Alias::plain("rxr_inserts.ncb", "event=0x11,umask=0x10"),
    Alias::plain("rxr_inserts.ncs", "event=0x11,umask=0x20"),
    Alias::plain("rxr_inserts.ndr", "event=0x11,umask=0x4"),
    Alias::plain("rxr_inserts.snp", "event=0x11,umask=0x2"),
    Alias::plain("rxr_occupancy.drs", "event=0x13,umask=0x8"),
    Alias::plain("rxr_occupancy.hom", "event=0x13,umask=0x1"),
    Alias::plain("rxr_occupancy.ncb", "event=0x13,umask=0x10"),
    Alias::plain("rxr_occupancy.ncs", "event=0x13,umask=0x20"),
    Alias::plain("rxr_occupancy.ndr", "event=0x13,umask=0x4"),
    Alias::plain("rxr_occupancy.snp", "event=0x13,umask=0x2"),
    Alias::plain("vn0_credits_reject.drs", "event=0x37,umask=0x8"),
    Alias::plain("vn0_credits_reject.hom", "event=0x37,umask=0x1"),
    Alias::plain("vn0_credits_reject.ncb", "event=0x37,umask=0x10"),
    Alias::plain("vn0_credits_reject.ncs", "event=0x37,umask=0x20"),
    Alias::plain("vn0_credits_reject.ndr", "event=0x37,umask=0x4"),
    Alias::plain("vn0_credits_reject.snp", "event=0x37,umask=0x2"),
    Alias::plain("vn0_credits_used.drs", "event=0x36,umask=0x8"),
    Alias::plain("vn0_credits_used.hom", "event=0x36,umask=0x1"),
    Alias::plain("vn0_credits_used.ncb", "event=0x36,umask=0x10"),
    Alias::plain("vn0_credits_used.ncs", "event=0x36,umask=0x20"),
    Alias::plain("vn0_credits_used.ndr", "event=0x36,umask=0x4"),
    Alias::plain("vn0_credits_used.snp", "event=0x36,umask=0x2"),
    Alias::plain("vna_credits_acquired", "event=0x33"),
    Alias::plain("vna_credits_reject.drs", "event=0x34,umask=0x8"),
    Alias::plain("vna_credits_reject.hom", "event=0x34,umask=0x1"),
    Alias::plain("vna_credits_reject.ncb", "event=0x34,umask=0x10"),
    Alias::plain("vna_credits_reject.ncs", "event=0x34,umask=0x20"),
    Alias::plain("vna_credits_reject.ndr", "event=0x34,umask=0x4"),
    Alias::plain("vna_credits_reject.snp", "event=0x34,umask=0x2"),
    Alias::plain("vna_credit_cycles_out", "event=0x31"),
    Alias::plain("vna_credit_cycles_used", "event=0x32"),
];

const R3QPI_LEN: usize = R3QPI_OWN.len() + R3QPI_SHARED.len();

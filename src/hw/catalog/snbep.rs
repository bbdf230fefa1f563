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
pub const UBOX: &[Alias] = &[
    Alias::plain("clockticks", "event=0x0"),
    Alias::plain("event_msg.doorbell_rcvd", "event=0x42,umask=0x8"),
    Alias::plain("event_msg.int_prio", "event=0x42,umask=0x10"),
    Alias::plain("event_msg.ipi_rcvd", "event=0x42,umask=0x4"),
    Alias::plain("event_msg.msi_rcvd", "event=0x42,umask=0x2"),
    Alias::plain("event_msg.vlw_rcvd", "event=0x42,umask=0x1"),
    Alias::plain("filter_match.disable", "event=0x41,umask=0x2"),
    Alias::plain("filter_match.enable", "event=0x41,umask=0x1"),
    Alias::plain("filter_match.u2c_disable", "event=0x41,umask=0x8"),
    Alias::plain("filter_match.u2c_enable", "event=0x41,umask=0x4"),
    Alias::plain("lock_cycles", "event=0x44"),
    Alias::plain("u2c_events.cmc", "event=0x43,umask=0x10"),
    Alias::plain("u2c_events.livelock", "event=0x43,umask=0x4"),
    Alias::plain("u2c_events.lterror", "event=0x43,umask=0x8"),
    Alias::plain("u2c_events.monitor_t0", "event=0x43,umask=0x1"),
    Alias::plain("u2c_events.monitor_t1", "event=0x43,umask=0x2"),
    Alias::plain("u2c_events.other", "event=0x43,umask=0x80"),
    Alias::plain("u2c_events.trap", "event=0x43,umask=0x40"),
    Alias::plain("u2c_events.umc", "event=0x43,umask=0x20"),
];

/// C-box events. `LLC_LOOKUP.*` select every line state
/// (`filter_state=0x1f`, 327043 Table 2-12), the `*OPCODE` events the demand
/// data read opcode (`filter_opc=0x182`, Table 2-13) and the `NID` events
/// node 0 (`filter_nid=0x1`); give the filter term to choose another.
pub const CBOX: &[Alias] = &join::<CBOX_LEN>(&[CBOX_OWN, CBOX_SHARED]);

/// The C-box events of Sandy Bridge-EP only.
const CBOX_OWN: &[Alias] = &[
    Alias::plain("ismq_drd_miss_occ", "event=0x21"),
    Alias::plain(
        "llc_lookup.data_read",
        "event=0x34,umask=0x3,filter_state=0x1f",
    ),
    Alias::plain(
        "llc_lookup.nid",
        "event=0x34,umask=0x41,filter_nid=0x1,filter_state=0x1f",
    ),
    Alias::plain(
        "llc_lookup.remote_snoop",
        "event=0x34,umask=0x9,filter_state=0x1f",
    ),
    Alias::plain("llc_lookup.write", "event=0x34,umask=0x5,filter_state=0x1f"),
    Alias::plain("ring_ad_used.down_even", "event=0x1b,umask=0x4"),
    Alias::plain("ring_ad_used.down_odd", "event=0x1b,umask=0x8"),
    Alias::plain("ring_ad_used.up_even", "event=0x1b,umask=0x1"),
    Alias::plain("ring_ad_used.up_odd", "event=0x1b,umask=0x2"),
    Alias::plain("ring_ak_used.down_even", "event=0x1c,umask=0x4"),
    Alias::plain("ring_ak_used.down_odd", "event=0x1c,umask=0x8"),
    Alias::plain("ring_ak_used.up_even", "event=0x1c,umask=0x1"),
    Alias::plain("ring_ak_used.up_odd", "event=0x1c,umask=0x2"),
    Alias::plain("ring_bl_used.down_even", "event=0x1d,umask=0x4"),
    Alias::plain("ring_bl_used.down_odd", "event=0x1d,umask=0x8"),
    Alias::plain("ring_bl_used.up_even", "event=0x1d,umask=0x1"),
    Alias::plain("ring_bl_used.up_odd", "event=0x1d,umask=0x2"),
    Alias::plain("ring_sink_starved.ad_cache", "event=0x6,umask=0x1"),
    Alias::plain("ring_sink_starved.ak_core", "event=0x6,umask=0x2"),
    Alias::plain("ring_sink_starved.bl_core", "event=0x6,umask=0x4"),
    Alias::plain("ring_sink_starved.iv_core", "event=0x6,umask=0x8"),
    Alias::plain("rxr_ext_starved.ismq", "event=0x12,umask=0x4"),
    Alias::plain("tor_inserts.miss_all", "event=0x35,umask=0xa"),
    Alias::plain("txr_ads_used", "event=0x4"),
    Alias::plain("txr_starved.ak", "event=0x3,umask=0x2"),
    Alias::plain("txr_starved.bl", "event=0x3,umask=0x4"),
];

/// The C-box events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const CBOX_SHARED: &[Alias] = &[
    Alias::plain("clockticks", "event=0x0"),
    Alias::plain("counter0_occupancy", "event=0x1f"),
    Alias::plain("llc_victims.e_state", "event=0x37,umask=0x2"),
    Alias::plain("llc_victims.miss", "event=0x37,umask=0x8"),
    Alias::plain("llc_victims.m_state", "event=0x37,umask=0x1"),
    Alias::plain("llc_victims.nid", "event=0x37,umask=0x40,filter_nid=0x1"),
    Alias::plain("llc_victims.s_state", "event=0x37,umask=0x4"),
    Alias::plain("misc.rfo_hit_s", "event=0x39,umask=0x8"),
    Alias::plain("misc.rspi_was_fse", "event=0x39,umask=0x1"),
    Alias::plain("misc.started", "event=0x39,umask=0x4"),
    Alias::plain("misc.wc_aliasing", "event=0x39,umask=0x2"),
    Alias::plain("ring_bounces.ak_core", "event=0x5,umask=0x2"),
    Alias::plain("ring_bounces.bl_core", "event=0x5,umask=0x4"),
    Alias::plain("ring_bounces.iv_core", "event=0x5,umask=0x8"),
    Alias::plain("ring_iv_used.any", "event=0x1e,umask=0xf"),
    Alias::plain("ring_src_thrtl", "event=0x7"),
    Alias::plain("rxr_ext_starved.ipq", "event=0x12,umask=0x2"),
    Alias::plain("rxr_ext_starved.irq", "event=0x12,umask=0x1"),
    Alias::plain("rxr_ext_starved.ismq_bids", "event=0x12,umask=0x8"),
    Alias::plain("rxr_inserts.ipq", "event=0x13,umask=0x4"),
    Alias::plain("rxr_inserts.irq", "event=0x13,umask=0x1"),
    Alias::plain("rxr_inserts.irq_rejected", "event=0x13,umask=0x2"),
    Alias::plain("rxr_inserts.vfifo", "event=0x13,umask=0x10"),
    Alias::plain("rxr_int_starved.ipq", "event=0x14,umask=0x4"),
    Alias::plain("rxr_int_starved.irq", "event=0x14,umask=0x1"),
    Alias::plain("rxr_int_starved.ismq", "event=0x14,umask=0x8"),
    Alias::plain("rxr_ipq_retry.addr_conflict", "event=0x31,umask=0x4"),
    Alias::plain("rxr_ipq_retry.any", "event=0x31,umask=0x1"),
    Alias::plain("rxr_ipq_retry.full", "event=0x31,umask=0x2"),
    Alias::plain("rxr_ipq_retry.qpi_credits", "event=0x31,umask=0x10"),
    Alias::plain("rxr_irq_retry.addr_conflict", "event=0x32,umask=0x4"),
    Alias::plain("rxr_irq_retry.any", "event=0x32,umask=0x1"),
    Alias::plain("rxr_irq_retry.full", "event=0x32,umask=0x2"),
    Alias::plain("rxr_irq_retry.qpi_credits", "event=0x32,umask=0x10"),
    Alias::plain("rxr_irq_retry.rtid", "event=0x32,umask=0x8"),
    Alias::plain("rxr_ismq_retry.any", "event=0x33,umask=0x1"),
    Alias::plain("rxr_ismq_retry.full", "event=0x33,umask=0x2"),
    Alias::plain("rxr_ismq_retry.iio_credits", "event=0x33,umask=0x20"),
    Alias::plain("rxr_ismq_retry.qpi_credits", "event=0x33,umask=0x10"),
    Alias::plain("rxr_ismq_retry.rtid", "event=0x33,umask=0x8"),
    Alias::plain("rxr_occupancy.ipq", "event=0x11,umask=0x4"),
    Alias::plain("rxr_occupancy.irq", "event=0x11,umask=0x1"),
    Alias::plain("rxr_occupancy.irq_rejected", "event=0x11,umask=0x2"),
    Alias::plain("rxr_occupancy.vfifo", "event=0x11,umask=0x10"),
    Alias::plain("tor_inserts.eviction", "event=0x35,umask=0x4"),
    Alias::plain(
        "tor_inserts.miss_opcode",
        "event=0x35,umask=0x3,filter_opc=0x182",
    ),
    Alias::plain(
        "tor_inserts.nid_all",
        "event=0x35,umask=0x48,filter_nid=0x1",
    ),
    Alias::plain(
        "tor_inserts.nid_eviction",
        "event=0x35,umask=0x44,filter_nid=0x1",
    ),
    Alias::plain(
        "tor_inserts.nid_miss_all",
        "event=0x35,umask=0x4a,filter_nid=0x1",
    ),
    Alias::plain(
        "tor_inserts.nid_miss_opcode",
        "event=0x35,umask=0x43,filter_nid=0x1,filter_opc=0x182",
    ),
    Alias::plain(
        "tor_inserts.nid_opcode",
        "event=0x35,umask=0x41,filter_nid=0x1,filter_opc=0x182",
    ),
    Alias::plain("tor_inserts.nid_wb", "event=0x35,umask=0x50,filter_nid=0x1"),
    Alias::plain(
        "tor_inserts.opcode",
        "event=0x35,umask=0x1,filter_opc=0x182",
    ),
    Alias::plain("tor_inserts.wb", "event=0x35,umask=0x10"),
    Alias::plain("tor_occupancy.all", "event=0x36,umask=0x8"),
    Alias::plain("tor_occupancy.eviction", "event=0x36,umask=0x4"),
    Alias::plain("tor_occupancy.miss_all", "event=0x36,umask=0xa"),
    Alias::plain(
        "tor_occupancy.miss_opcode",
        "event=0x36,umask=0x3,filter_opc=0x182",
    ),
    Alias::plain(
        "tor_occupancy.nid_all",
        "event=0x36,umask=0x48,filter_nid=0x1",
    ),
    Alias::plain(
        "tor_occupancy.nid_eviction",
        "event=0x36,umask=0x44,filter_nid=0x1",
    ),
    Alias::plain(
        "tor_occupancy.nid_miss_all",
        "event=0x36,umask=0x4a,filter_nid=0x1",
    ),
    Alias::plain(
        "tor_occupancy.nid_miss_opcode",
        "event=0x36,umask=0x43,filter_nid=0x1,filter_opc=0x182",
    ),
    Alias::plain(
        "tor_occupancy.nid_opcode",
        "event=0x36,umask=0x41,filter_nid=0x1,filter_opc=0x182",
    ),
    Alias::plain(
        "tor_occupancy.opcode",
        "event=0x36,umask=0x1,filter_opc=0x182",
    ),
    Alias::plain("txr_inserts.ad_cache", "event=0x2,umask=0x1"),
    Alias::plain("txr_inserts.ad_core", "event=0x2,umask=0x10"),
    Alias::plain("txr_inserts.ak_cache", "event=0x2,umask=0x2"),
    Alias::plain("txr_inserts.ak_core", "event=0x2,umask=0x20"),
    Alias::plain("txr_inserts.bl_cache", "event=0x2,umask=0x4"),
    Alias::plain("txr_inserts.bl_core", "event=0x2,umask=0x40"),
    Alias::plain("txr_inserts.iv_cache", "event=0x2,umask=0x8"),
];

const CBOX_LEN: usize = CBOX_OWN.len() + CBOX_SHARED.len();

/// PCU events (extended-select events at 0x100 + code). The band events
/// `FREQ_BAND0..3_CYCLES` count cycles at or above `filter_bandN` x 100 MHz
/// (default 1.2, 2.0, 3.0 and 4.0 GHz, as the derived `freq_ge_*` events);
/// `*_transitions` count entries into the band (`edge=1`).
pub const PCU: &[Alias] = &join::<PCU_LEN>(&[PCU_OWN, PCU_SHARED]);

/// The PCU events of Sandy Bridge-EP only.
const PCU_OWN: &[Alias] = &[
    Alias::plain("core0_transition_cycles", "event=0x103"),
    Alias::plain("core1_transition_cycles", "event=0x104"),
    Alias::plain("core2_transition_cycles", "event=0x105"),
    Alias::plain("core3_transition_cycles", "event=0x106"),
    Alias::plain("core4_transition_cycles", "event=0x107"),
    Alias::plain("core5_transition_cycles", "event=0x108"),
    Alias::plain("core6_transition_cycles", "event=0x109"),
    Alias::plain("core7_transition_cycles", "event=0x10a"),
    Alias::plain("freq_min_io_p_cycles", "event=0x101"),
    Alias::plain("freq_min_perf_p_cycles", "event=0x102"),
    Alias::plain("freq_trans_cycles", "event=0x100"),
    Alias::plain("total_transition_cycles", "event=0x10b"),
];

/// The PCU events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const PCU_SHARED: &[Alias] = &[
    Alias::plain("clockticks", "event=0x0"),
    Alias::plain("demotions_core0", "event=0x1e"),
    Alias::plain("demotions_core1", "event=0x1f"),
    Alias::plain("demotions_core2", "event=0x20"),
    Alias::plain("demotions_core3", "event=0x21"),
    Alias::plain("demotions_core4", "event=0x22"),
    Alias::plain("demotions_core5", "event=0x23"),
    Alias::plain("demotions_core6", "event=0x24"),
    Alias::plain("demotions_core7", "event=0x25"),
    Alias::plain("freq_band0_cycles", "event=0xb,filter_band0=12"),
    Alias::plain("freq_band1_cycles", "event=0xc,filter_band1=20"),
    Alias::plain("freq_band2_cycles", "event=0xd,filter_band2=30"),
    Alias::plain("freq_band3_cycles", "event=0xe,filter_band3=40"),
    Alias::plain("freq_max_current_cycles", "event=0x7"),
    Alias::plain("freq_max_limit_thermal_cycles", "event=0x4"),
    Alias::plain("freq_max_os_cycles", "event=0x6"),
    Alias::plain("freq_max_power_cycles", "event=0x5"),
    Alias::plain("memory_phase_shedding_cycles", "event=0x2f"),
    Alias::plain("power_state_occupancy.cores_c0", "event=0x80,occ_sel=1"),
    Alias::plain("power_state_occupancy.cores_c3", "event=0x80,occ_sel=2"),
    Alias::plain("power_state_occupancy.cores_c6", "event=0x80,occ_sel=3"),
    Alias::plain("prochot_external_cycles", "event=0xa"),
    Alias::plain("prochot_internal_cycles", "event=0x9"),
    Alias::plain("volt_trans_cycles_change", "event=0x3"),
    Alias::plain("volt_trans_cycles_decrease", "event=0x2"),
    Alias::plain("volt_trans_cycles_increase", "event=0x1"),
    Alias::plain("vr_hot_cycles", "event=0x32"),
    Alias::plain("freq_ge_1200mhz_cycles", "event=0xb,filter_band0=12"),
    Alias::plain(
        "freq_ge_1200mhz_transitions",
        "event=0xb,edge=1,filter_band0=12",
    ),
    Alias::plain("freq_ge_2000mhz_cycles", "event=0xc,filter_band1=20"),
    Alias::plain(
        "freq_ge_2000mhz_transitions",
        "event=0xc,edge=1,filter_band1=20",
    ),
    Alias::plain("freq_ge_3000mhz_cycles", "event=0xd,filter_band2=30"),
    Alias::plain(
        "freq_ge_3000mhz_transitions",
        "event=0xd,edge=1,filter_band2=30",
    ),
    Alias::plain("freq_ge_4000mhz_cycles", "event=0xe,filter_band3=40"),
    Alias::plain(
        "freq_ge_4000mhz_transitions",
        "event=0xe,edge=1,filter_band3=40",
    ),
];

const PCU_LEN: usize = PCU_OWN.len() + PCU_SHARED.len();

/// Home agent events.
pub const HA: &[Alias] = &join::<HA_LEN>(&[HA_OWN, HA_SHARED]);

/// The home agent events of Sandy Bridge-EP only.
const HA_OWN: &[Alias] = &[
    Alias::plain("conflict_cycles.no_conflict", "event=0xb,umask=0x1"),
    Alias::plain("ring_ad_used.ccw_even", "event=0x3e,umask=0x4"),
    Alias::plain("ring_ad_used.ccw_odd", "event=0x3e,umask=0x8"),
    Alias::plain("ring_ad_used.cw_even", "event=0x3e,umask=0x1"),
    Alias::plain("ring_ad_used.cw_odd", "event=0x3e,umask=0x2"),
    Alias::plain("ring_ak_used.ccw_even", "event=0x3f,umask=0x4"),
    Alias::plain("ring_ak_used.ccw_odd", "event=0x3f,umask=0x8"),
    Alias::plain("ring_ak_used.cw_even", "event=0x3f,umask=0x1"),
    Alias::plain("ring_ak_used.cw_odd", "event=0x3f,umask=0x2"),
    Alias::plain("ring_bl_used.ccw_even", "event=0x40,umask=0x4"),
    Alias::plain("ring_bl_used.ccw_odd", "event=0x40,umask=0x8"),
    Alias::plain("ring_bl_used.cw_even", "event=0x40,umask=0x1"),
    Alias::plain("ring_bl_used.cw_odd", "event=0x40,umask=0x2"),
    Alias::plain("tracker_inserts.all", "event=0x6,umask=0x3"),
    Alias::plain("txr_ad.ndr", "event=0xf,umask=0x1"),
    Alias::plain("txr_ad.snp", "event=0xf,umask=0x2"),
    Alias::plain("txr_ad_occupancy.all", "event=0x28,umask=0x3"),
    Alias::plain("txr_ak_ndr", "event=0xe"),
    Alias::plain("txr_ak_occupancy.all", "event=0x30,umask=0x3"),
];

/// The home agent events Ivy Bridge-EP has too, with the same encodings.
pub(crate) const HA_SHARED: &[Alias] = &[
    Alias::plain("bypass_imc.not_taken", "event=0x14,umask=0x2"),
    Alias::plain("bypass_imc.taken", "event=0x14,umask=0x1"),
    Alias::plain("clockticks", "event=0x0"),
    Alias::plain("conflict_cycles.conflict", "event=0xb,umask=0x2"),
    Alias::plain("direct2core_count", "event=0x11"),
    Alias::plain("direct2core_cycles_disabled", "event=0x12"),
    Alias::plain("direct2core_txn_override", "event=0x13"),
    Alias::plain("directory_lookup.no_snp", "event=0xc,umask=0x2"),
    Alias::plain("directory_lookup.snp", "event=0xc,umask=0x1"),
    Alias::plain("directory_update.any", "event=0xd,umask=0x3"),
    Alias::plain("directory_update.clear", "event=0xd,umask=0x2"),
    Alias::plain("directory_update.set", "event=0xd,umask=0x1"),
    Alias::plain("igr_no_credit_cycles.ad_qpi0", "event=0x22,umask=0x1"),
    Alias::plain("igr_no_credit_cycles.ad_qpi1", "event=0x22,umask=0x2"),
    Alias::plain("igr_no_credit_cycles.bl_qpi0", "event=0x22,umask=0x4"),
    Alias::plain("igr_no_credit_cycles.bl_qpi1", "event=0x22,umask=0x8"),
    Alias::plain("imc_retry", "event=0x1e"),
    Alias::plain("imc_writes.all", "event=0x1a,umask=0xf"),
    Alias::plain("imc_writes.full", "event=0x1a,umask=0x1"),
    Alias::plain("imc_writes.full_isoch", "event=0x1a,umask=0x4"),
    Alias::plain("imc_writes.partial", "event=0x1a,umask=0x2"),
    Alias::plain("imc_writes.partial_isoch", "event=0x1a,umask=0x8"),
    Alias::plain("requests.reads", "event=0x1,umask=0x3"),
    Alias::plain("requests.writes", "event=0x1,umask=0xc"),
    Alias::plain("rpq_cycles_no_reg_credits.chn0", "event=0x15,umask=0x1"),
    Alias::plain("rpq_cycles_no_reg_credits.chn1", "event=0x15,umask=0x2"),
    Alias::plain("rpq_cycles_no_reg_credits.chn2", "event=0x15,umask=0x4"),
    Alias::plain("rpq_cycles_no_reg_credits.chn3", "event=0x15,umask=0x8"),
    Alias::plain("rpq_cycles_no_spec_credits.chn0", "event=0x16,umask=0x1"),
    Alias::plain("rpq_cycles_no_spec_credits.chn1", "event=0x16,umask=0x2"),
    Alias::plain("rpq_cycles_no_spec_credits.chn2", "event=0x16,umask=0x4"),
    Alias::plain("rpq_cycles_no_spec_credits.chn3", "event=0x16,umask=0x8"),
    Alias::plain("tad_requests_g0.region0", "event=0x1b,umask=0x1"),
    Alias::plain("tad_requests_g0.region1", "event=0x1b,umask=0x2"),
    Alias::plain("tad_requests_g0.region2", "event=0x1b,umask=0x4"),
    Alias::plain("tad_requests_g0.region3", "event=0x1b,umask=0x8"),
    Alias::plain("tad_requests_g0.region4", "event=0x1b,umask=0x10"),
    Alias::plain("tad_requests_g0.region5", "event=0x1b,umask=0x20"),
    Alias::plain("tad_requests_g0.region6", "event=0x1b,umask=0x40"),
    Alias::plain("tad_requests_g0.region7", "event=0x1b,umask=0x80"),
    Alias::plain("tad_requests_g1.region10", "event=0x1c,umask=0x4"),
    Alias::plain("tad_requests_g1.region11", "event=0x1c,umask=0x8"),
    Alias::plain("tad_requests_g1.region8", "event=0x1c,umask=0x1"),
    Alias::plain("tad_requests_g1.region9", "event=0x1c,umask=0x2"),
    Alias::plain("txr_ad_cycles_full.all", "event=0x2a,umask=0x3"),
    Alias::plain("txr_ad_cycles_full.sched0", "event=0x2a,umask=0x1"),
    Alias::plain("txr_ad_cycles_full.sched1", "event=0x2a,umask=0x2"),
    Alias::plain("txr_ad_cycles_ne.all", "event=0x29,umask=0x3"),
    Alias::plain("txr_ad_cycles_ne.sched0", "event=0x29,umask=0x1"),
    Alias::plain("txr_ad_cycles_ne.sched1", "event=0x29,umask=0x2"),
    Alias::plain("txr_ad_inserts.all", "event=0x27,umask=0x3"),
    Alias::plain("txr_ad_inserts.sched0", "event=0x27,umask=0x1"),
    Alias::plain("txr_ad_inserts.sched1", "event=0x27,umask=0x2"),
    Alias::plain("txr_ad_occupancy.sched0", "event=0x28,umask=0x1"),
    Alias::plain("txr_ad_occupancy.sched1", "event=0x28,umask=0x2"),
    Alias::plain("txr_ak_cycles_full.all", "event=0x32,umask=0x3"),
    Alias::plain("txr_ak_cycles_full.sched0", "event=0x32,umask=0x1"),
    Alias::plain("txr_ak_cycles_full.sched1", "event=0x32,umask=0x2"),
    Alias::plain("txr_ak_cycles_ne.all", "event=0x31,umask=0x3"),
    Alias::plain("txr_ak_cycles_ne.sched0", "event=0x31,umask=0x1"),
    Alias::plain("txr_ak_cycles_ne.sched1", "event=0x31,umask=0x2"),
    Alias::plain("txr_ak_inserts.all", "event=0x2f,umask=0x3"),
    Alias::plain("txr_ak_inserts.sched0", "event=0x2f,umask=0x1"),
    Alias::plain("txr_ak_inserts.sched1", "event=0x2f,umask=0x2"),
    Alias::plain("txr_ak_occupancy.sched0", "event=0x30,umask=0x1"),
    Alias::plain("txr_ak_occupancy.sched1", "event=0x30,umask=0x2"),
    Alias::plain("txr_bl.drs_cache", "event=0x10,umask=0x1"),
    Alias::plain("txr_bl.drs_core", "event=0x10,umask=0x2"),
    Alias::plain("txr_bl.drs_qpi", "event=0x10,umask=0x4"),
    Alias::plain("txr_bl_cycles_full.all", "event=0x36,umask=0x3"),
    Alias::plain("txr_bl_cycles_full.sched0", "event=0x36,umask=0x1"),
    Alias::plain("txr_bl_cycles_full.sched1", "event=0x36,umask=0x2"),
    Alias::plain("txr_bl_cycles_ne.all", "event=0x35,umask=0x3"),
    Alias::plain("txr_bl_cycles_ne.sched0", "event=0x35,umask=0x1"),
    Alias::plain("txr_bl_cycles_ne.sched1", "event=0x35,umask=0x2"),
    Alias::plain("txr_bl_inserts.all", "event=0x33,umask=0x3"),
    Alias::plain("txr_bl_inserts.sched0", "event=0x33,umask=0x1"),
    Alias::plain("txr_bl_inserts.sched1", "event=0x33,umask=0x2"),
    Alias::plain("txr_bl_occupancy.all", "event=0x34,umask=0x3"),
    Alias::plain("txr_bl_occupancy.sched0", "event=0x34,umask=0x1"),
    Alias::plain("txr_bl_occupancy.sched1", "event=0x34,umask=0x2"),
    Alias::plain("wpq_cycles_no_reg_credits.chn0", "event=0x18,umask=0x1"),
    Alias::plain("wpq_cycles_no_reg_credits.chn1", "event=0x18,umask=0x2"),
    Alias::plain("wpq_cycles_no_reg_credits.chn2", "event=0x18,umask=0x4"),
    Alias::plain("wpq_cycles_no_reg_credits.chn3", "event=0x18,umask=0x8"),
    Alias::plain("wpq_cycles_no_spec_credits.chn0", "event=0x19,umask=0x1"),
    Alias::plain("wpq_cycles_no_spec_credits.chn1", "event=0x19,umask=0x2"),
    Alias::plain("wpq_cycles_no_spec_credits.chn2", "event=0x19,umask=0x4"),
    Alias::plain("wpq_cycles_no_spec_credits.chn3", "event=0x19,umask=0x8"),
];

const HA_LEN: usize = HA_OWN.len() + HA_SHARED.len();

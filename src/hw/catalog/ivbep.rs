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
const UBOX_OWN: &[Alias] = &[
    Alias::plain("phold_cycles.assert_to_ack", "event=0x45,umask=0x1"),
    Alias::plain("racu_requests", "event=0x46"),
];

const UBOX_LEN: usize = UBOX_OWN.len() + snbep::UBOX.len();

/// C-box events. `LLC_LOOKUP.*` select every line state
/// (`filter_state=0x3f`), the `*OPCODE` events the demand data read opcode
/// (`filter_opc=0x182`) and the `NID` events node 0 (`filter_nid=0x1`);
/// give the filter term to choose another. `RxR_IPQ_RETRY.QPI_CREDITS` may
/// be narrowed to a link with `filter_link`, which has no default.
pub const CBOX: &[Alias] = &join::<CBOX_LEN>(&[CBOX_OWN, snbep::CBOX_SHARED]);

/// The C-box events of Ivy Bridge-EP only.
const CBOX_OWN: &[Alias] = &[
    Alias::plain("llc_lookup.any", "event=0x34,umask=0x11,filter_state=0x3f"),
    Alias::plain(
        "llc_lookup.data_read",
        "event=0x34,umask=0x3,filter_state=0x3f",
    ),
    Alias::plain(
        "llc_lookup.nid",
        "event=0x34,umask=0x41,filter_state=0x3f,filter_nid=0x1",
    ),
    Alias::plain(
        "llc_lookup.remote_snoop",
        "event=0x34,umask=0x9,filter_state=0x3f",
    ),
    Alias::plain("llc_lookup.write", "event=0x34,umask=0x5,filter_state=0x3f"),
    Alias::plain("qlru.age0", "event=0x3c,umask=0x1"),
    Alias::plain("qlru.age1", "event=0x3c,umask=0x2"),
    Alias::plain("qlru.age2", "event=0x3c,umask=0x4"),
    Alias::plain("qlru.age3", "event=0x3c,umask=0x8"),
    Alias::plain("qlru.lru_decrement", "event=0x3c,umask=0x10"),
    Alias::plain("qlru.victim_non_zero", "event=0x3c,umask=0x20"),
    Alias::plain("ring_ad_used.ccw", "event=0x1b,umask=0xc"),
    Alias::plain("ring_ad_used.cw", "event=0x1b,umask=0x3"),
    Alias::plain("ring_ad_used.down", "event=0x1b,umask=0xcc"),
    Alias::plain("ring_ad_used.down_vr0_even", "event=0x1b,umask=0x4"),
    Alias::plain("ring_ad_used.down_vr0_odd", "event=0x1b,umask=0x8"),
    Alias::plain("ring_ad_used.down_vr1_even", "event=0x1b,umask=0x40"),
    Alias::plain("ring_ad_used.down_vr1_odd", "event=0x1b,umask=0x80"),
    Alias::plain("ring_ad_used.up", "event=0x1b,umask=0x33"),
    Alias::plain("ring_ad_used.up_vr0_even", "event=0x1b,umask=0x1"),
    Alias::plain("ring_ad_used.up_vr0_odd", "event=0x1b,umask=0x2"),
    Alias::plain("ring_ad_used.up_vr1_even", "event=0x1b,umask=0x10"),
    Alias::plain("ring_ad_used.up_vr1_odd", "event=0x1b,umask=0x20"),
    Alias::plain("ring_ak_used.ccw", "event=0x1c,umask=0xc"),
    Alias::plain("ring_ak_used.cw", "event=0x1c,umask=0x3"),
    Alias::plain("ring_ak_used.down", "event=0x1c,umask=0xcc"),
    Alias::plain("ring_ak_used.down_vr0_even", "event=0x1c,umask=0x4"),
    Alias::plain("ring_ak_used.down_vr0_odd", "event=0x1c,umask=0x8"),
    Alias::plain("ring_ak_used.down_vr1_even", "event=0x1c,umask=0x40"),
    Alias::plain("ring_ak_used.down_vr1_odd", "event=0x1c,umask=0x80"),
    Alias::plain("ring_ak_used.up", "event=0x1c,umask=0x33"),
    Alias::plain("ring_ak_used.up_vr0_even", "event=0x1c,umask=0x1"),
    Alias::plain("ring_ak_used.up_vr0_odd", "event=0x1c,umask=0x2"),
    Alias::plain("ring_ak_used.up_vr1_even", "event=0x1c,umask=0x10"),
    Alias::plain("ring_ak_used.up_vr1_odd", "event=0x1c,umask=0x20"),
    Alias::plain("ring_bl_used.ccw", "event=0x1d,umask=0xc"),
    Alias::plain("ring_bl_used.cw", "event=0x1d,umask=0x3"),
    Alias::plain("ring_bl_used.down", "event=0x1d,umask=0xcc"),
    Alias::plain("ring_bl_used.down_vr0_even", "event=0x1d,umask=0x4"),
    Alias::plain("ring_bl_used.down_vr0_odd", "event=0x1d,umask=0x8"),
    Alias::plain("ring_bl_used.down_vr1_even", "event=0x1d,umask=0x40"),
    Alias::plain("ring_bl_used.down_vr1_odd", "event=0x1d,umask=0x80"),
    Alias::plain("ring_bl_used.up", "event=0x1d,umask=0x33"),
    Alias::plain("ring_bl_used.up_vr0_even", "event=0x1d,umask=0x1"),
    Alias::plain("ring_bl_used.up_vr0_odd", "event=0x1d,umask=0x2"),
    Alias::plain("ring_bl_used.up_vr1_even", "event=0x1d,umask=0x10"),
    Alias::plain("ring_bl_used.up_vr1_odd", "event=0x1d,umask=0x20"),
    Alias::plain("ring_bounces.ad_irq", "event=0x5,umask=0x2"),
    Alias::plain("ring_bounces.ak", "event=0x5,umask=0x4"),
    Alias::plain("ring_bounces.bl", "event=0x5,umask=0x8"),
    Alias::plain("ring_bounces.iv", "event=0x5,umask=0x10"),
    Alias::plain("ring_iv_used.down", "event=0x1e,umask=0xcc"),
    Alias::plain("ring_iv_used.up", "event=0x1e,umask=0x33"),
    Alias::plain("ring_sink_starved.ad_ipq", "event=0x6,umask=0x2"),
    Alias::plain("ring_sink_starved.ad_irq", "event=0x6,umask=0x1"),
    Alias::plain("ring_sink_starved.iv", "event=0x6,umask=0x10"),
    Alias::plain("rxr_ext_starved.prq", "event=0x12,umask=0x4"),
    Alias::plain("rxr_inserts.irq_rej", "event=0x13,umask=0x2"),
    Alias::plain("rxr_irq_retry.iio_credits", "event=0x32,umask=0x20"),
    Alias::plain("rxr_ismq_retry.wb_credits", "event=0x33,umask=0x80"),
    Alias::plain("rxr_occupancy.irq_rej", "event=0x11,umask=0x2"),
    Alias::plain("tor_inserts.all", "event=0x35,umask=0x8"),
    Alias::plain("tor_inserts.local", "event=0x35,umask=0x28"),
    Alias::plain(
        "tor_inserts.local_opcode",
        "event=0x35,umask=0x21,filter_opc=0x182",
    ),
    Alias::plain("tor_inserts.miss_local", "event=0x35,umask=0x2a"),
    Alias::plain(
        "tor_inserts.miss_local_opcode",
        "event=0x35,umask=0x23,filter_opc=0x182",
    ),
    Alias::plain("tor_inserts.miss_remote", "event=0x35,umask=0x8a"),
    Alias::plain(
        "tor_inserts.miss_remote_opcode",
        "event=0x35,umask=0x83,filter_opc=0x182",
    ),
    Alias::plain("tor_inserts.remote", "event=0x35,umask=0x88"),
    Alias::plain(
        "tor_inserts.remote_opcode",
        "event=0x35,umask=0x81,filter_opc=0x182",
    ),
    Alias::plain("tor_occupancy.local", "event=0x36,umask=0x28"),
    Alias::plain(
        "tor_occupancy.local_opcode",
        "event=0x36,umask=0x21,filter_opc=0x182",
    ),
    Alias::plain("tor_occupancy.miss_local", "event=0x36,umask=0x2a"),
    Alias::plain(
        "tor_occupancy.miss_local_opcode",
        "event=0x36,umask=0x23,filter_opc=0x182",
    ),
    Alias::plain("tor_occupancy.miss_remote", "event=0x36,umask=0x8a"),
    Alias::plain(
        "tor_occupancy.miss_remote_opcode",
        "event=0x36,umask=0x83,filter_opc=0x182",
    ),
    Alias::plain(
        "tor_occupancy.nid_wb",
        "event=0x36,umask=0x50,filter_nid=0x1",
    ),
    Alias::plain("tor_occupancy.remote", "event=0x36,umask=0x88"),
    Alias::plain(
        "tor_occupancy.remote_opcode",
        "event=0x36,umask=0x81,filter_opc=0x182",
    ),
    Alias::plain("tor_occupancy.wb", "event=0x36,umask=0x10"),
    Alias::plain("txr_ads_used.ad", "event=0x4,umask=0x1"),
    Alias::plain("txr_ads_used.ak", "event=0x4,umask=0x2"),
    Alias::plain("txr_ads_used.bl", "event=0x4,umask=0x4"),
    Alias::plain("txr_starved.ad_core", "event=0x3,umask=0x10"),
    Alias::plain("txr_starved.ak_both", "event=0x3,umask=0x2"),
    Alias::plain("txr_starved.iv", "event=0x3,umask=0x8"),
];

const CBOX_LEN: usize = CBOX_OWN.len() + snbep::CBOX_SHARED.len();

/// PCU events (extended-select events at 0x100 + code). The band events
/// `FREQ_BAND0..3_CYCLES` count cycles at or above `filter_bandN` x 100 MHz
/// (default 1.2, 2.0, 3.0 and 4.0 GHz, as the derived `freq_ge_*` events);
/// `*_transitions` count entries into the band (`edge=1`).
pub const PCU: &[Alias] = &join::<PCU_LEN>(&[PCU_OWN, snbep::PCU_SHARED]);

/// The PCU events of Ivy Bridge-EP only.
const PCU_OWN: &[Alias] = &[
    Alias::plain("core0_transition_cycles", "event=0x70"),
    Alias::plain("core10_transition_cycles", "event=0x7a"),
    Alias::plain("core11_transition_cycles", "event=0x7b"),
    Alias::plain("core12_transition_cycles", "event=0x7c"),
    Alias::plain("core13_transition_cycles", "event=0x7d"),
    Alias::plain("core14_transition_cycles", "event=0x7e"),
    Alias::plain("core1_transition_cycles", "event=0x71"),
    Alias::plain("core2_transition_cycles", "event=0x72"),
    Alias::plain("core3_transition_cycles", "event=0x73"),
    Alias::plain("core4_transition_cycles", "event=0x74"),
    Alias::plain("core5_transition_cycles", "event=0x75"),
    Alias::plain("core6_transition_cycles", "event=0x76"),
    Alias::plain("core7_transition_cycles", "event=0x77"),
    Alias::plain("core8_transition_cycles", "event=0x78"),
    Alias::plain("core9_transition_cycles", "event=0x79"),
    Alias::plain("delayed_c_state_abort_core0", "event=0x117"),
    Alias::plain("delayed_c_state_abort_core1", "event=0x118"),
    Alias::plain("delayed_c_state_abort_core10", "event=0x121"),
    Alias::plain("delayed_c_state_abort_core11", "event=0x122"),
    Alias::plain("delayed_c_state_abort_core12", "event=0x123"),
    Alias::plain("delayed_c_state_abort_core13", "event=0x124"),
    Alias::plain("delayed_c_state_abort_core14", "event=0x125"),
    Alias::plain("delayed_c_state_abort_core2", "event=0x119"),
    Alias::plain("delayed_c_state_abort_core3", "event=0x11a"),
    Alias::plain("delayed_c_state_abort_core4", "event=0x11b"),
    Alias::plain("delayed_c_state_abort_core5", "event=0x11c"),
    Alias::plain("delayed_c_state_abort_core6", "event=0x11d"),
    Alias::plain("delayed_c_state_abort_core7", "event=0x11e"),
    Alias::plain("delayed_c_state_abort_core8", "event=0x11f"),
    Alias::plain("delayed_c_state_abort_core9", "event=0x120"),
    Alias::plain("demotions_core10", "event=0x42"),
    Alias::plain("demotions_core11", "event=0x43"),
    Alias::plain("demotions_core12", "event=0x44"),
    Alias::plain("demotions_core13", "event=0x45"),
    Alias::plain("demotions_core14", "event=0x46"),
    Alias::plain("demotions_core8", "event=0x40"),
    Alias::plain("demotions_core9", "event=0x41"),
    Alias::plain("freq_min_io_p_cycles", "event=0x61"),
    Alias::plain("freq_min_perf_p_cycles", "event=0x62"),
    Alias::plain("freq_trans_cycles", "event=0x60"),
    Alias::plain("pkg_c_exit_latency", "event=0x126"),
    Alias::plain("pkg_c_exit_latency_sel", "event=0x126"),
    Alias::plain("pkg_c_state_residency_c0_cycles", "event=0x12a"),
    Alias::plain("pkg_c_state_residency_c2_cycles", "event=0x12b"),
    Alias::plain("pkg_c_state_residency_c3_cycles", "event=0x12c"),
    Alias::plain("pkg_c_state_residency_c6_cycles", "event=0x12d"),
    Alias::plain("total_transition_cycles", "event=0x63"),
];

const PCU_LEN: usize = PCU_OWN.len() + snbep::PCU_SHARED.len();

/// IRP events.
pub const IRP: &[Alias] = &[
    Alias::plain("address_match.merge_count", "event=0x17,umask=0x2"),
    Alias::plain("address_match.stall_count", "event=0x17,umask=0x1"),
    Alias::plain("cache_ack_pending_occupancy.any", "event=0x14,umask=0x1"),
    Alias::plain("cache_ack_pending_occupancy.source", "event=0x14,umask=0x2"),
    Alias::plain("cache_own_occupancy.any", "event=0x13,umask=0x1"),
    Alias::plain("cache_own_occupancy.source", "event=0x13,umask=0x2"),
    Alias::plain("cache_read_occupancy.any", "event=0x10,umask=0x1"),
    Alias::plain("cache_read_occupancy.source", "event=0x10,umask=0x2"),
    Alias::plain("cache_total_occupancy.any", "event=0x12,umask=0x1"),
    Alias::plain("cache_total_occupancy.source", "event=0x12,umask=0x2"),
    Alias::plain("cache_write_occupancy.any", "event=0x11,umask=0x1"),
    Alias::plain("cache_write_occupancy.source", "event=0x11,umask=0x2"),
    Alias::plain("clockticks", "event=0x0"),
    Alias::plain("rxr_ak_cycles_full", "event=0xb"),
    Alias::plain("rxr_ak_inserts", "event=0xa"),
    Alias::plain("rxr_ak_occupancy", "event=0xc"),
    Alias::plain("rxr_bl_drs_cycles_full", "event=0x4"),
    Alias::plain("rxr_bl_drs_inserts", "event=0x1"),
    Alias::plain("rxr_bl_drs_occupancy", "event=0x7"),
    Alias::plain("rxr_bl_ncb_cycles_full", "event=0x5"),
    Alias::plain("rxr_bl_ncb_inserts", "event=0x2"),
    Alias::plain("rxr_bl_ncb_occupancy", "event=0x8"),
    Alias::plain("rxr_bl_ncs_cycles_full", "event=0x6"),
    Alias::plain("rxr_bl_ncs_inserts", "event=0x3"),
    Alias::plain("rxr_bl_ncs_occupancy", "event=0x9"),
    Alias::plain("tickles.lost_ownership", "event=0x16,umask=0x1"),
    Alias::plain("tickles.top_of_queue", "event=0x16,umask=0x2"),
    Alias::plain("transactions.pd_prefetches", "event=0x15,umask=0x4"),
    Alias::plain("transactions.rd_prefetches", "event=0x15,umask=0x4"),
    Alias::plain("transactions.reads", "event=0x15,umask=0x1"),
    Alias::plain("transactions.writes", "event=0x15,umask=0x2"),
    Alias::plain("txr_ad_stall_credit_cycles", "event=0x18"),
    Alias::plain("txr_bl_stall_credit_cycles", "event=0x19"),
    Alias::plain("txr_data_inserts_ncb", "event=0xe"),
    Alias::plain("txr_data_inserts_ncs", "event=0xf"),
    Alias::plain("txr_request_occupancy", "event=0xd"),
    Alias::plain("write_ordering_stall_cycles", "event=0x1a"),
];

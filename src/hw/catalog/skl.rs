// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of Skylake client (6th generation Core).
//!
//! Source: 6th Generation Intel Core Processor Family Uncore Performance
//! Monitoring Reference Manual (334060-001) Tables 3-1 (CBo), 3-2 (ARB) and
//! 3-3 (IMC), and the skylake rows of pmu-events.tsv (which add
//! `UNC_ARB_TRK_OCCUPANCY.DATA_READ`, `UNC_ARB_TRK_REQUESTS.DATA_READ` and
//! `.DRD_DIRECT`). Names drop the `UNC_CBO_`/`UNC_ARB_` prefix
//! (`cache_lookup.read_mesi`); the IMC counters keep the manual's names.
//! Every event is expressible; none is left out.

use crate::hw::desc::Alias;

/// CBo events (Table 3-1) after the Linux driver's `clockticks`; `clock.socket`
/// (`UNC_CLOCK.SOCKET`, Table 3-2) is the same fixed UCLK counter, on
/// `cbox_0` only.
pub const CBOX: &[Alias] = &[
    Alias::plain("clockticks", "event=0xff,umask=0x00"),
    Alias::plain("cache_lookup.any_es", "event=0x34,umask=0x86"),
    Alias::plain("cache_lookup.any_i", "event=0x34,umask=0x88"),
    Alias::plain("cache_lookup.any_m", "event=0x34,umask=0x81"),
    Alias::plain("cache_lookup.any_mesi", "event=0x34,umask=0x8f"),
    Alias::plain("cache_lookup.read_es", "event=0x34,umask=0x16"),
    Alias::plain("cache_lookup.read_i", "event=0x34,umask=0x18"),
    Alias::plain("cache_lookup.read_mesi", "event=0x34,umask=0x1f"),
    Alias::plain("cache_lookup.write_es", "event=0x34,umask=0x26"),
    Alias::plain("cache_lookup.write_m", "event=0x34,umask=0x21"),
    Alias::plain("cache_lookup.write_mesi", "event=0x34,umask=0x2f"),
    Alias::plain("xsnp_response.hitm_xcore", "event=0x22,umask=0x48"),
    Alias::plain("xsnp_response.hit_xcore", "event=0x22,umask=0x44"),
    Alias::plain("xsnp_response.miss_eviction", "event=0x22,umask=0x81"),
    Alias::plain("xsnp_response.miss_xcore", "event=0x22,umask=0x41"),
    Alias::plain("clock.socket", "event=0xff"),
];

/// ARB events (Table 3-2 and the skylake perfmon rows).
pub const ARB: &[Alias] = &[
    Alias::plain("coh_trk_requests.all", "event=0x84,umask=0x1"),
    Alias::plain("trk_occupancy.all", "event=0x80,umask=0x1"),
    Alias::plain(
        "trk_occupancy.cycles_with_any_request",
        "event=0x80,umask=0x1,cmask=1",
    ),
    Alias::plain("trk_occupancy.data_read", "event=0x80,umask=0x2"),
    Alias::plain("trk_requests.all", "event=0x81,umask=0x1"),
    Alias::plain("trk_requests.data_read", "event=0x81,umask=0x2"),
    Alias::plain("trk_requests.drd_direct", "event=0x81,umask=0x2"),
    Alias::plain("trk_requests.writes", "event=0x81,umask=0x20"),
];

/// IMC free-running counters (Table 3-3) after the aliases the platform
/// carries. The data counters count 64-byte transfers and are reported in
/// MiB; the request counters are plain counts (partial writes make
/// "requests x 64 bytes" inaccurate).
pub const IMC: &[Alias] = &[
    Alias::mib("data_reads", "event=0x01"),
    Alias::mib("data_writes", "event=0x02"),
    Alias::plain("gt_requests", "event=0x03"),
    Alias::plain("ia_requests", "event=0x04"),
    Alias::plain("io_requests", "event=0x05"),
    Alias::mib("dram_data_reads", "event=0x1"),
    Alias::mib("dram_data_writes", "event=0x2"),
    Alias::plain("dram_gt_requests", "event=0x3"),
    Alias::plain("dram_ia_requests", "event=0x4"),
    Alias::plain("dram_io_requests", "event=0x5"),
];

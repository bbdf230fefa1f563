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
pub const CBOX: &[Alias] = tsv!(include_str!("skl/cbox.tsv"));

/// ARB events (Table 3-2 and the skylake perfmon rows).
pub const ARB: &[Alias] = tsv!(include_str!("skl/arb.tsv"));

/// IMC free-running counters (Table 3-3) after the aliases the platform
/// carries. The data counters count 64-byte transfers and are reported in
/// MiB; the request counters are plain counts (partial writes make
/// "requests x 64 bytes" inaccurate).
pub const IMC: &[Alias] = tsv!(include_str!("skl/imc.tsv"));

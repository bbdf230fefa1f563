// SPDX-License-Identifier: GPL-2.0

//! Event catalogs of the Xeon 7100 and 7400 series L3 / caching bus
//! controller uncore (`gbsq`, `gsnpq`, `fsb`).
//!
//! Source: the seed fragment of Intel SDM Vol. 3B 18.21 defines the three
//! counter groups and their MSRs but no event encodings. The FSB sub-event
//! bits come from the same SDM section (18.21.4.1), which names one
//! sub-event per bit; `FSB_type` (bits 37:32) is left out, as the section
//! does not define its values. The GBSQ and GSNPQ groups have no named
//! events: an event is any combination of their attribute fields
//! (`agent_select`, `type_match`, `snoop_match`, ...), given as terms, so
//! their catalogs are empty. The two series share the tables.

use crate::hw::desc::Alias;

/// GBSQ events: none named (see the module documentation).
pub const GBSQ: &[Alias] = &[];

/// GSNPQ events: none named (see the module documentation).
pub const GSNPQ: &[Alias] = &[];

/// FSB sub-events, one bit of `fsb_submask` each (SDM Vol. 3B
/// 18.21.4.1, bits 38-57). Bit 58, which must be one, is set by the encoder.
pub const FSB: &[Alias] = &[
    Alias::plain("fsb_l_clear", "fsb_submask=0x40"),
    Alias::plain("fsb_l_hit", "fsb_submask=0x80"),
    Alias::plain("fsb_l_hitm", "fsb_submask=0x100"),
    Alias::plain("fsb_l_defer", "fsb_submask=0x200"),
    Alias::plain("fsb_l_retry", "fsb_submask=0x400"),
    Alias::plain("fsb_l_snoop_stall", "fsb_submask=0x800"),
    Alias::plain("fsb_dbsy", "fsb_submask=0x1000"),
    Alias::plain("fsb_drdy", "fsb_submask=0x2000"),
    Alias::plain("fsb_bnr", "fsb_submask=0x4000"),
    Alias::plain("fsb_ioq_empty", "fsb_submask=0x8000"),
    Alias::plain("fsb_ioq_full", "fsb_submask=0x10000"),
    Alias::plain("fsb_ioq_active", "fsb_submask=0x20000"),
    Alias::plain("fsb_ww_data", "fsb_submask=0x40000"),
    Alias::plain("fsb_ww_issue", "fsb_submask=0x80000"),
    Alias::plain("fsb_wr_issue", "fsb_submask=0x100000"),
    Alias::plain("fsb_rw_issue", "fsb_submask=0x200000"),
    Alias::plain("fsb_other_dbsy", "fsb_submask=0x400000"),
    Alias::plain("fsb_other_drdy", "fsb_submask=0x800000"),
    Alias::plain("fsb_other_snoop_stall", "fsb_submask=0x1000000"),
    Alias::plain("fsb_other_bnr", "fsb_submask=0x2000000"),
];

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
pub const FSB: &[Alias] = tsv!(include_str!("l3/fsb.tsv"));

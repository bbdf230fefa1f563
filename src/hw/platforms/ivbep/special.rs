// SPDX-License-Identifier: GPL-2.0

//! The Ivy Bridge-EP C-box filter: SNB-EP's mechanism with 64 bits over
//! two MSRs and its own fields. The other special boxes are SNB-EP's.

use crate::hw::platforms::snbep::special::{filter_uses, CboxFilter, FilterUse};

/// IVB-EP C-box filter fields: TID 4:0, LINK 8:5, STATE 22:17, NID 47:32,
/// OPC 60:52 together with NC (62), C6 (61) and ISOC (63).
const FIELDS: &[u64] = &[
    0x1f,
    0x1e0,
    0x7e_0000,
    0xffff_0000_0000,
    0xe000_0000_0000_0000 | (0x1ff << 52),
];

/// The events that use IVB-EP C-box filter fields.
const USES: &[FilterUse] = filter_uses!("cbox_filter.tsv");

/// The IVB-EP C-box filter: `Cn_MSR_PMON_BOX_FILTER` (0xd14) and
/// `FILTER1` (0xd1a).
pub const CBOX_FILTER: CboxFilter = CboxFilter {
    fields: FIELDS,
    uses: USES,
    msr: 0xd14,
    high_msr: Some(0xd1a),
    stride: 0x20,
};

// SPDX-License-Identifier: GPL-2.0

//! The Ivy Bridge-EP C-box filter: SNB-EP's mechanism with 64 bits over
//! two MSRs and its own fields. The other special boxes are SNB-EP's.

use crate::hw::platforms::snbep::special::{CboxFilter, FilterUse, TID_EN};

/// IVB-EP C-box filter fields: TID 4:0, LINK 8:5, STATE 22:17, NID 47:32,
/// OPC 60:52 together with NC (62), C6 (61) and ISOC (63).
const FIELDS: &[u64] = &[
    0x1f,
    0x1e0,
    0x7e_0000,
    0xffff_0000_0000,
    0xe000_0000_0000_0000 | (0x1ff << 52),
];

const fn ev(code: u64, fields: u8) -> FilterUse {
    FilterUse::event(code, fields)
}

/// The events that use IVB-EP C-box filter fields.
const USES: &[FilterUse] = &[
    FilterUse::new(TID_EN, TID_EN, 0x1),
    FilterUse::new(0x1031, 0x10ff, 0x2),
    ev(0x1134, 0x4),
    ev(0x4134, 0xc),
    ev(0x5134, 0xc),
    ev(0x0334, 0x4),
    ev(0x4334, 0xc),
    ev(0x0534, 0x4),
    ev(0x4534, 0xc),
    ev(0x0934, 0x4),
    ev(0x4934, 0xc),
    ev(0x0135, 0x10),
    ev(0x0335, 0x10),
    ev(0x2135, 0x10),
    ev(0x2335, 0x10),
    ev(0x4135, 0x18),
    ev(0x4335, 0x18),
    ev(0x4435, 0x8),
    ev(0x4835, 0x8),
    ev(0x4a35, 0x8),
    ev(0x5035, 0x8),
    ev(0x8135, 0x10),
    ev(0x8335, 0x10),
    ev(0x0136, 0x10),
    ev(0x0336, 0x10),
    ev(0x2136, 0x10),
    ev(0x2336, 0x10),
    ev(0x4136, 0x18),
    ev(0x4336, 0x18),
    ev(0x4436, 0x8),
    ev(0x4836, 0x8),
    ev(0x4a36, 0x8),
    ev(0x5036, 0x8),
    ev(0x8136, 0x10),
    ev(0x8336, 0x10),
    FilterUse::new(0x4037, 0x40ff, 0x8),
];

/// The IVB-EP C-box filter: `Cn_MSR_PMON_BOX_FILTER` (0xd14) and
/// `FILTER1` (0xd1a).
pub const CBOX_FILTER: CboxFilter = CboxFilter {
    fields: FIELDS,
    uses: USES,
    msr: 0xd14,
    high_msr: Some(0xd1a),
};

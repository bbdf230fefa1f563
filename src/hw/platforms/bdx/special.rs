// SPDX-License-Identifier: GPL-2.0

//! The S-box count of Broadwell-EP/EX: the PCU's `CAPID4` (device 0x6fc0,
//! offset 0x94), read as on Haswell-EP. Source: the Linux driver's
//! `bdx_uncore_cpu_init`, which drops the S-box type when the "chop"
//! field is 0.

use crate::hw::platforms::hsx::special::Capid4;

/// The number of S-boxes `CAPID4` gives: none when its chop field (bits
/// 7:6) is 0; otherwise the table's four (`None`).
pub fn capid4_sboxes(capid4: u32) -> Option<usize> {
    ((capid4 >> 6) & 0x3 == 0).then_some(0)
}

/// The BDX global control: none, with the S-box count of `CAPID4`.
pub const BDX_GLOBAL: Capid4 = Capid4 {
    device: 0x6fc0,
    decode: capid4_sboxes,
};

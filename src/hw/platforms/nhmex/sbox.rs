// SPDX-License-Identifier: GPL-2.0

//! How the Nehalem-EX/Westmere-EX S-box matches a system-bound packet for
//! `TO_R_PROG_EV` (325294 §2.5.3.4): the rules of `S_MSR_MATCH` (Table
//! 2-33) and `S_MSR_MASK` (Table 2-35), for the simulation.
//!
//! A packet is given in the match register's layout: its response state
//! (63:59), opcode (58:48, the bit of Table 2-34) and message class
//! (47:43), one bit each, its physical address bits 43:6 (42:5) and its
//! home node ID (4:0).

use crate::hw::bits::low_mask;

/// `S_MSR_MM_CFG.mm_en` (Table 2-32): match/mask enabled.
pub const MM_EN: u64 = 1 << 63;

/// `resp` (63:59), `opc` (58:48) and `mc` (47:43) of `S_MSR_MATCH`: each
/// "Match will be ignored if field set to all 0s"; otherwise a packet
/// matches when its bit is one of the field's.
const SET_FIELDS: [(u32, u32); 3] = [(59, 5), (48, 11), (43, 5)];

/// Whether `packet` matches `match_` under `mask` with match/mask enabled
/// in `mm_cfg`. The address (`S_MSR_MATCH` 42:5) is compared bit by bit
/// except where `S_MSR_MASK` 38:1 has the bit set ("the corresponding bit
/// in the address is already considered matched"); the home node ID (4:0)
/// unless `S_MSR_MASK` bit 0 is set ("HNID is NOT matched").
pub fn packet_matches(packet: u64, mm_cfg: u64, match_: u64, mask: u64) -> bool {
    if mm_cfg & MM_EN == 0 {
        return false;
    }
    let field = |v: u64, lo: u32, n: u32| (v >> lo) & low_mask(n);
    let sets = SET_FIELDS.iter().all(|&(lo, n)| {
        let want = field(match_, lo, n);
        want == 0 || field(packet, lo, n) & want != 0
    });
    let addr = (field(packet, 5, 38) ^ field(match_, 5, 38)) & !field(mask, 1, 38) == 0;
    let hnid = mask & 1 != 0 || field(packet, 0, 5) == field(match_, 0, 5);
    sets && addr && hnid
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOM0: u64 = 1 << 43;
    const HOM1: u64 = 1 << 44;
    const RDCODE: u64 = 1 << 48;
    const RDDATA: u64 = 1 << 49;
    const STATE_F: u64 = 1 << 63;
    /// The catalog's mask: every address bit a don't-care, no HNID match.
    const ANY: u64 = 0x7f_ffff_ffff;

    #[test]
    fn zero_fields_match_every_packet() {
        // `to_r_prog_ev.any`: match 0.
        for pk in [0, HOM0 | RDCODE, HOM1 | STATE_F | 0x1234_5678 << 5 | 3] {
            assert!(packet_matches(pk, MM_EN, 0, ANY), "{:#x}", pk);
        }
    }

    #[test]
    fn a_class_with_any_opcode() {
        // `to_r_prog_ev.hom0`.
        assert!(packet_matches(HOM0 | RDCODE, MM_EN, HOM0, ANY));
        assert!(packet_matches(HOM0 | RDDATA | STATE_F, MM_EN, HOM0, ANY));
        assert!(!packet_matches(HOM1 | RDCODE, MM_EN, HOM0, ANY));
        // `to_r_prog_ev.hom0.rdcode`.
        assert!(packet_matches(HOM0 | RDCODE, MM_EN, HOM0 | RDCODE, ANY));
        assert!(!packet_matches(HOM0 | RDDATA, MM_EN, HOM0 | RDCODE, ANY));
        // Two classes: either.
        assert!(packet_matches(HOM1, MM_EN, HOM0 | HOM1, ANY));
    }

    #[test]
    fn address_under_the_mask_at_its_own_place() {
        let a = 0x2_0000u64 << 5;
        // Mask 0: the whole address compared (and the HNID: 0 here).
        assert!(packet_matches(a, MM_EN, a, 0));
        assert!(!packet_matches(a | 1 << 5, MM_EN, a, 0));
        // Mask bit 1 is address bit 6, at match bit 5.
        assert!(packet_matches(a | 1 << 5, MM_EN, a, 1 << 1));
        assert!(!packet_matches(a | 1 << 6, MM_EN, a, 1 << 1));
    }

    #[test]
    fn home_node_unless_disabled() {
        assert!(!packet_matches(5, MM_EN, 3, 0));
        assert!(packet_matches(3, MM_EN, 3, 0));
        assert!(packet_matches(5, MM_EN, 3, 1));
    }

    #[test]
    fn nothing_without_mm_en() {
        assert!(!packet_matches(0, 0, 0, ANY));
    }
}

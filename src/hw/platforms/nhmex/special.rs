// SPDX-License-Identifier: GPL-2.0

//! The special event handling of Nehalem-EX/Westmere-EX B-, S- and W-boxes
//! (325294). The M-box and R-box have their own files.

use crate::hw::bits::low_mask;
use crate::hw::desc::{BoxType, Word};
use crate::hw::encode::{Attr, Encoded, Invalid};
use crate::hw::program::{Addr, Ctr, Msr, Ops};
use crate::hw::shared::{Choice, Shared};
use crate::hw::special::{match_mask, no_reserved, Special};

/// The B-box: the event's counter is chosen by `counter` (config bits
/// 7:6); some events of counters 0 to 2 use the match/mask registers
/// (`B_MSR_MATCH_REG`/`B_MSR_MASK_REG`, 0xe45/0xe46 for B-box 0, 8
/// apart).
#[derive(Debug)]
pub struct Bbox;

/// Bits 63:60 of `B_MSR_MATCH_REG` and `B_MSR_MASK_REG`, above their highest
/// field (`opc_out`, 59:56; 325294 Tables 2-22, 2-23), which the manual
/// does not define.
const BBOX_UNDEFINED: u64 = 0xf << 60;

impl Special for Bbox {
    fn encode(&self, _t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        let ctr = (attr.config >> 6) & 3;
        let ev = (attr.config >> 1) & 0x1f;
        let uses = match ctr {
            0 => ev <= 3,
            1 => ev <= 6,
            2 => ev == 4,
            _ => false,
        };
        let e = match_mask(plain, attr, uses)?;
        no_reserved(Word::Config1, "match", attr.config1 & BBOX_UNDEFINED)?;
        no_reserved(Word::Config2, "mask", attr.config2 & BBOX_UNDEFINED)?;
        Ok(e)
    }

    fn write_shared(&self, i: u32, s: &Shared, _choice: &Choice, ops: &mut Ops) {
        let base = 0xe45 + 8 * i;
        ops.write(Addr::Msr(Msr::new(base)), s.slot(0).value);
        ops.write(Addr::Msr(Msr::new(base + 1)), s.slot(1).value);
    }
}

/// `reset_occ_cnt` (bit 17) of an S-box control.
pub const S_RESET_OCC_CNT: u64 = 1 << 17;

/// The S-box's queue occupancy events (325294 Table 2-37, the
/// `*_OCCUPANCY` events; a host test checks them against the catalog).
pub const S_OCCUPANCY_EVENTS: [u8; 12] = [
    0x07, 0x0a, 0x0d, 0x10, 0x13, 0x16, 0x26, 0x29, 0x2c, 0x2f, 0x31, 0x8e,
];

/// The S-box: event 0 (`TO_R_PROG_EV`) uses the match/mask registers
/// (`S_MSR_MM_CFG`, `S_MSR_MATCH`, `S_MSR_MASK`, from 0xe48, 0x10 apart),
/// and a queue occupancy event resets its occupancy subcounter in the same
/// write that enables it (325294 §2.5.2, the note before §2.5.3), so that
/// it starts from zero.
#[derive(Debug)]
pub struct Sbox;

impl Special for Sbox {
    fn encode(&self, _t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        match_mask(plain, attr, plain.ctl & 0xff == 0)
    }

    fn write_shared(&self, i: u32, s: &Shared, _choice: &Choice, ops: &mut Ops) {
        let base = 0xe48 + 0x10 * i;
        ops.write(Addr::Msr(Msr::new(base)), 0);
        ops.write(Addr::Msr(Msr::new(base + 1)), s.slot(0).value);
        ops.write(Addr::Msr(Msr::new(base + 2)), s.slot(1).value);
        ops.write(Addr::Msr(Msr::new(base)), 1 << 63);
    }

    fn enable_bits(&self, ctl: u64) -> u64 {
        if S_OCCUPANCY_EVENTS.contains(&((ctl & 0xff) as u8)) {
            S_RESET_OCC_CNT
        } else {
            0
        }
    }
}

/// W-box read erratum bound (325294 §2.8.3): a read whose low 24 bits are
/// 0 or 1 is this much too high.
pub const WBOX_ERRATUM: u64 = 0x100_0000;

/// The W-box; with `read_erratum` (Westmere-EX), a counter read whose low
/// 24 bits are 0 or 1 is 0x1000000 too high (325294 §2.8.3, the note after
/// Table 2-100): every read path corrects it.
#[derive(Debug)]
pub struct Wbox {
    /// The part has the erratum.
    pub read_erratum: bool,
}

impl Special for Wbox {
    fn corrects_reads(&self) -> bool {
        self.read_erratum
    }

    fn read_value(&self, c: Ctr, raw: u64) -> u64 {
        match c {
            Ctr::General(_) | Ctr::Fixed if self.read_erratum && raw & 0xff_ffff <= 1 => {
                raw.wrapping_sub(WBOX_ERRATUM) & low_mask(48)
            }
            _ => raw,
        }
    }
}

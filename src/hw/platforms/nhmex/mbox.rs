// SPDX-License-Identifier: GPL-2.0

//! The Nehalem-EX/Westmere-EX M-box (325294 §2.7): its subcontrol
//! registers, address match and `ZDP_CTL_FVC` event fields, shared by the
//! events of a box.

use crate::hw::bits::{bit, Field};
use crate::hw::desc::{BoxType, Word};
use crate::hw::encode::{Attr, Encoded, Invalid};
use crate::hw::program::{Addr, Msr, Ops};
use crate::hw::shared::{Choice, Request, Shared};
use crate::hw::special::{no_bits, Special};

/// M-box subcontrol registers, in slot order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MboxReg {
    /// `M_MSR_PMU_DSP` (Table 2-73).
    Dsp = 0,
    /// `M_CSR_ISS_PMU` (Table 2-74).
    Iss = 1,
    /// `M_MSR_PMU_MAP` (Table 2-75).
    Map = 2,
    /// `M_CSR_PMU_MA_MSC_THR` (Table 2-76).
    Thr = 3,
    /// `M_MSR_PMU_PGT` (Table 2-78).
    Pgt = 4,
    /// `M_MSR_PMU_PLD` (Table 2-79).
    Pld = 5,
}

impl MboxReg {
    /// Bits the register defines.
    pub const fn valid(self) -> u64 {
        match self {
            MboxReg::Dsp | MboxReg::Iss | MboxReg::Thr => 0x7ff,
            MboxReg::Map => 0x1fff,
            MboxReg::Pgt => 0xfff,
            MboxReg::Pld => 0xff_ffff,
        }
    }
}

/// M-box slot of the bits of `ZDP_CTL_FVC` shared by all FVC events.
pub const MBOX_ZDP_SHARED: u8 = 6;
/// M-box slot of `ZDP_CTL_FVC` event field 0 (fields 1-3 follow).
pub const MBOX_ZDP_FIELD0: u8 = 7;
/// M-box slot of the address match (`config2`: MM_CFG enable, match, mask).
pub const MBOX_ADDR_MATCH: u8 = 11;

/// The `ZDP_CTL_FVC` layout: the bits shared by all FVC events and the
/// 3-bit event field `n`.
pub const fn zdp_layout(wsmex: bool) -> (u64, [Field; 4]) {
    if wsmex {
        // 325294 Table 2-80: fvid 5:0, bcmd 8:6, resp 11:9, evnt0..3 at
        // 14:12, 17:15, 20:18, 23:21, pbox_init_err 24.
        (
            ((1 << 12) - 1) | (1 << 24),
            [
                Field::new(12, 14),
                Field::new(15, 17),
                Field::new(18, 20),
                Field::new(21, 23),
            ],
        )
    } else {
        // Nehalem-EX: shared bits 10:0 and 23, event fields from bit 11.
        // Sources: the Xeon 7500 uncore guide (323535-001) Table 2-89, the
        // FVC_EV0 unit masks, puts event field 0 at 13:11, bcmd at 10:8
        // and resp at 7:5; the shared mask (10:0 and bit 23) and the
        // fields' stride of 3 are the Linux driver's register facts
        // (`NHMEX_M_PMON_ZDP_CTL_FVC_MASK`, `..._EVENT_MASK(n)`).
        (
            ((1 << 11) - 1) | (1 << 23),
            [
                Field::new(11, 13),
                Field::new(14, 16),
                Field::new(17, 19),
                Field::new(20, 22),
            ],
        )
    }
}

/// M-box `wrap_mode` (bit 6): always set, so that counters wrap.
pub const MBOX_WRAP_MODE: u64 = bit(6);

/// The M-box: its subcontrol registers (`DSP`, `ISS`, `MAP`, `THR`, `PGT`,
/// `PLD`), the address match, and the `ZDP_CTL_FVC` event fields, four
/// alternatives for one FVC event (Westmere-EX layout when `wsmex`).
#[derive(Debug)]
pub struct Mbox {
    /// Westmere-EX layout of `ZDP_CTL_FVC`.
    pub wsmex: bool,
}

/// `pmi_en` of an M-box counter control (Table 2-67).
const PMI_EN: u64 = 1 << 1;

impl Special for Mbox {
    fn encode(&self, _t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        let wsmex = self.wsmex;
        if (attr.config >> 2) & 3 != 0 {
            return Err(Invalid::Value("M-box count_mode must be 0 (count up)"));
        }
        let plain = Encoded {
            ctl: plain.ctl | MBOX_WRAP_MODE,
            ..plain
        };
        let flag_mode = attr.config & bit(7) != 0;
        let inc_sel = (attr.config >> 9) & 0x1f;
        let set_flag_sel = (attr.config >> 19) & 7;
        let (low, pld): (Option<MboxReg>, bool) = if flag_mode {
            match set_flag_sel {
                0 => (Some(MboxReg::Dsp), false),
                1 => (Some(MboxReg::Iss), false),
                5 => (Some(MboxReg::Pgt), false),
                6 => (Some(MboxReg::Map), false),
                _ => (None, false),
            }
        } else {
            match inc_sel {
                0x0 => (Some(MboxReg::Dsp), false),
                0x4 | 0x5 => (Some(MboxReg::Thr), false),
                0x9 => (Some(MboxReg::Iss), false),
                0xa => (Some(MboxReg::Iss), true),
                0xb => (None, true),
                0x16 => (Some(MboxReg::Pgt), false),
                _ => (None, false),
            }
        };
        let zdp = !flag_mode && (0xd..=0x10).contains(&inc_sel);
        let lo = attr.config1 & 0xffff_ffff;
        let hi = attr.config1 >> 32;
        if !pld {
            no_bits(Word::Config1, hi << 32)?;
        } else {
            no_bits(Word::Config1, (hi & !MboxReg::Pld.valid()) << 32)?;
        }
        // Only the ISS+PLD event (inc_sel 0xa) can use the address match.
        let addr = !flag_mode && inc_sel == 0xa && attr.config2 != 0;
        if !addr {
            no_bits(Word::Config2, attr.config2)?;
        }
        let mut c = Choice::new(plain.ctl);
        if let Some(r) = low {
            no_bits(Word::Config1, lo & !r.valid())?;
            c = c.with(r as u8, lo);
        } else if !zdp {
            no_bits(Word::Config1, lo)?;
        }
        if pld {
            c = c.with(MboxReg::Pld as u8, hi);
        }
        if addr {
            c = c.with(MBOX_ADDR_MATCH, attr.config2);
        }
        if zdp {
            let (shared, fields) = zdp_layout(wsmex);
            let n = (inc_sel - 0xd) as usize;
            no_bits(Word::Config1, lo & !(shared | fields[n].mask()))?;
            let ev = fields[n].get(lo);
            let mut req = Request::NONE;
            for j in 0..4 {
                let m = (n + j) % 4;
                let ctl = (plain.ctl & !(0x1f << 9)) | ((0xd + m as u64) << 9);
                req = req.or(Choice::new(ctl)
                    .with(MBOX_ZDP_SHARED, lo & shared)
                    .with(MBOX_ZDP_FIELD0 + m as u8, fields[m].set(0, ev)));
            }
            return Ok(Encoded {
                shared: req,
                ..plain
            });
        }
        if c.slots().is_empty() {
            return Ok(plain);
        }
        Ok(Encoded {
            shared: Request::one(c),
            ..plain
        })
    }

    /// `M_MSR_PMU_MM_CFG` bit 63 (Table 2-70) stays set after the last
    /// address-match event has gone: an event without one clears it while
    /// no running event holds the address match (the C driver writes it 0
    /// for every M-box event).
    fn before_enable(&self, i: u32, s: &Shared, choice: Option<&Choice>, ops: &mut Ops) {
        let addr = choice.is_some_and(|c| c.slots().iter().any(|r| r.slot == MBOX_ADDR_MATCH));
        if !addr && s.slot(MBOX_ADDR_MATCH as usize).refs == 0 {
            ops.write(Addr::Msr(Msr::new(0xe54 + 8 * i)), 0);
        }
    }

    fn write_shared(&self, i: u32, s: &Shared, choice: &Choice, ops: &mut Ops) {
        let off = 0x40 * i;
        for r in choice.slots() {
            match r.slot {
                s_ if s_ <= MboxReg::Pld as u8 => ops.write(
                    Addr::Msr(Msr::new(0xca5 + u32::from(s_) + off)),
                    s.slot(s_ as usize).value,
                ),
                MBOX_ADDR_MATCH => {
                    let cfg = s.slot(MBOX_ADDR_MATCH as usize).value;
                    let mm = 0xe54 + 8 * i;
                    ops.write(Addr::Msr(Msr::new(mm)), 0);
                    ops.write(Addr::Msr(Msr::new(mm + 1)), cfg & 0x3_ffff_ffff);
                    ops.write(Addr::Msr(Msr::new(mm + 2)), (cfg >> 34) & 0xfff_ffff);
                    ops.write(Addr::Msr(Msr::new(mm)), cfg & (1 << 63));
                }
                MBOX_ZDP_SHARED => {
                    let v = s.combined(MBOX_ZDP_SHARED as usize..MBOX_ZDP_FIELD0 as usize + 4);
                    ops.write(Addr::Msr(Msr::new(0xcab + off)), v);
                }
                _ => {}
            }
        }
    }

    fn pmi_bit(&self) -> Option<u64> {
        Some(PMI_EN)
    }
}

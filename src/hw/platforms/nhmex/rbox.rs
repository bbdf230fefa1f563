// SPDX-License-Identifier: GPL-2.0

//! The Nehalem-EX/Westmere-EX R-box (325294 §2.4): per-port IPERF, QLX and
//! XBR match/mask registers shared by the events of a box.

use crate::hw::desc::{BoxType, Word};
use crate::hw::encode::{Attr, Encoded, Invalid};
use crate::hw::program::{Addr, Msr, Ops};
use crate::hw::shared::{Choice, Request, Shared};
use crate::hw::special::{no_bits, no_reserved, Special};

/// Number of R-box slots per port: IPERF0, IPERF1, QLX low byte, QLX high
/// byte, XBR set 1 (MM_CFG, MATCH, MASK), XBR set 2 (MM_CFG, MATCH, MASK).
pub const RBOX_PORT_SLOTS: u8 = 10;

/// The R-box: per port, the IPERF registers, the QLX byte pair and two XBR
/// match/mask sets, each event with its alternative (the other register of
/// the pair, rewriting the event select).
#[derive(Debug)]
pub struct Rbox;

/// The bits of `R_MSR_PORT{7-0}_XBR_SET{2-1}_MATCH` and `_MASK` the manual
/// reserves, 63:52, 47:36, 30:18 and 2:0 ("Reserved; Must write to 0 else
/// behavior is undefined", 325294 Tables 2-51, 2-52).
const XBR_RESERVED: u64 = (0xfff << 52) | (0xfff << 36) | (0x1fff << 18) | 0x7;

/// `pmi_en` of an R-box counter control (Table 2-44).
const PMI_EN: u64 = 1 << 6;

impl Special for Rbox {
    fn encode(&self, _t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        let idx = (attr.config >> 1) & 0x1f;
        if idx >= 0x18 {
            return Err(Invalid::Value(
                "R-box event select must be below 0x18 (Table 2-45)",
            ));
        }
        let port = (idx / 6) as u8;
        let sub = idx % 6;
        let base = port * RBOX_PORT_SLOTS;
        let mm_cfg = attr.config >> 32;
        let ctl_of = |s: u64| (u64::from(port) * 6 + s) << 1;
        let req = match sub {
            0 | 1 => {
                no_bits(Word::Config, mm_cfg << 32)?;
                no_bits(Word::Config1, attr.config1 & !0xffff_ffff)?;
                no_bits(Word::Config2, attr.config2)?;
                Request::one(Choice::new(ctl_of(sub)).with(base + sub as u8, attr.config1))
                    .or(Choice::new(ctl_of(sub ^ 1)).with(base + (sub ^ 1) as u8, attr.config1))
            }
            2 | 3 => {
                no_bits(Word::Config, mm_cfg << 32)?;
                no_bits(Word::Config2, attr.config2)?;
                let byte = (sub - 2) as u32;
                no_bits(Word::Config1, attr.config1 & !(0xff << (8 * byte)))?;
                let v = (attr.config1 >> (8 * byte)) & 0xff;
                let other = byte ^ 1;
                Request::one(Choice::new(ctl_of(sub)).with(base + 2 + byte as u8, v << (8 * byte)))
                    .or(Choice::new(ctl_of(sub ^ 1)).with(base + 2 + other as u8, v << (8 * other)))
            }
            _ => {
                no_reserved(Word::Config1, "xbr_match", attr.config1 & XBR_RESERVED)?;
                no_reserved(Word::Config2, "xbr_mask", attr.config2 & XBR_RESERVED)?;
                let set = (sub - 4) as u8;
                let slots = |s: u8| base + 4 + 3 * s;
                Request::one(
                    Choice::new(ctl_of(sub))
                        .with(slots(set), mm_cfg)
                        .with(slots(set) + 1, attr.config1)
                        .with(slots(set) + 2, attr.config2),
                )
                .or(Choice::new(ctl_of(sub ^ 1))
                    .with(slots(set ^ 1), mm_cfg)
                    .with(slots(set ^ 1) + 1, attr.config1)
                    .with(slots(set ^ 1) + 2, attr.config2))
            }
        };
        Ok(Encoded {
            ctl: ctl_of(sub),
            shared: req,
            ..plain
        })
    }

    fn write_shared(&self, i: u32, s: &Shared, choice: &Choice, ops: &mut Ops) {
        for r in choice.slots() {
            let p = u32::from(r.slot / RBOX_PORT_SLOTS);
            let port = p + 4 * i;
            let base = (p as usize) * RBOX_PORT_SLOTS as usize;
            match r.slot % RBOX_PORT_SLOTS {
                0 => ops.write(Addr::Msr(Msr::new(0xe04 + port)), r.value),
                1 => ops.write(Addr::Msr(Msr::new(0xe24 + port)), r.value),
                2 | 3 => {
                    let qlx = if port < 4 {
                        0xe0c + port
                    } else {
                        0xe2c + port - 4
                    };
                    ops.write(Addr::Msr(Msr::new(qlx)), s.combined(base + 2..base + 4));
                }
                k @ (4 | 7) => {
                    let set = if k == 4 { 0xe60 } else { 0xe70 };
                    let mm = set + if port < 4 { 0 } else { 0x10 } + 4 * port;
                    ops.write(
                        Addr::Msr(Msr::new(mm + 1)),
                        s.slot(r.slot as usize + 1).value,
                    );
                    ops.write(
                        Addr::Msr(Msr::new(mm + 2)),
                        s.slot(r.slot as usize + 2).value,
                    );
                    ops.write(Addr::Msr(Msr::new(mm)), r.value);
                }
                _ => {}
            }
        }
    }

    fn pmi_bit(&self) -> Option<u64> {
        Some(PMI_EN)
    }
}

// SPDX-License-Identifier: GPL-2.0

//! The special event handling of Sandy Bridge-EP boxes, which Ivy
//! Bridge-EP shares: the C-box filter (each part with its own field
//! layout), the PCU band filter and the QPI packet match/mask.

use crate::hw::bits::bit;
use crate::hw::desc::{BoxType, Word};
use crate::hw::encode::{Attr, Encoded, Invalid};
use crate::hw::program::{Addr, CfgReg, Msr, Ops};
use crate::hw::shared::{Choice, Request, Shared};
use crate::hw::special::{match_mask, no_bits, Special};

/// An entry of a C-box filter table: control values with
/// `(ctl & mask) == code` use the filter fields in `fields`.
#[derive(Debug)]
pub struct FilterUse {
    code: u64,
    mask: u64,
    fields: u8,
}

impl FilterUse {
    /// Control values `ctl` with `(ctl & mask) == code` use `fields`.
    pub const fn new(code: u64, mask: u64, fields: u8) -> Self {
        FilterUse { code, mask, fields }
    }

    /// An event and unit mask (the low 16 bits) that uses `fields`.
    pub const fn event(code: u64, fields: u8) -> Self {
        Self::new(code, 0xffff, fields)
    }
}

/// `tid_en` (bit 19) of a C-box control: the event uses the TID filter.
pub const TID_EN: u64 = bit(19);

/// A C-box filter register (`Cn_MSR_PMON_BOX_FILTER`): its fields, which
/// events use which, and where it is.
#[derive(Debug)]
pub struct CboxFilter {
    /// The fields' bits in `config1`; slot `i` is field `1 << i`.
    pub fields: &'static [u64],
    /// Which events use which fields.
    pub uses: &'static [FilterUse],
    /// The MSR of C-box 0's filter (its low 32 bits); box `i`'s is 0x20
    /// further.
    pub msr: u32,
    /// The MSR of C-box 0's filter high 32 bits, for a 64-bit filter.
    pub high_msr: Option<u32>,
}

/// SNB-EP C-box filter fields (327043 Table 2-12): TID 4:0, NID 17:10,
/// STATE 22:18, OPC 31:23.
const FIELDS: &[u64] = &[0x1f, 0x3fc00, 0x7c_0000, 0xff80_0000];

const fn ev(code: u64, fields: u8) -> FilterUse {
    FilterUse::event(code, fields)
}

/// The events that use SNB-EP C-box filter fields.
const USES: &[FilterUse] = &[
    FilterUse::new(TID_EN, TID_EN, 0x1),
    ev(0x0334, 0x4),
    ev(0x4334, 0x6),
    ev(0x0534, 0x4),
    ev(0x4534, 0x6),
    ev(0x0934, 0x4),
    ev(0x4934, 0x6),
    ev(0x4134, 0x6),
    ev(0x0135, 0x8),
    ev(0x0335, 0x8),
    ev(0x4135, 0xa),
    ev(0x4335, 0xa),
    ev(0x4435, 0x2),
    ev(0x4835, 0x2),
    ev(0x4a35, 0x2),
    ev(0x5035, 0x2),
    ev(0x0136, 0x8),
    ev(0x0336, 0x8),
    ev(0x4136, 0xa),
    ev(0x4336, 0xa),
    ev(0x4436, 0x2),
    ev(0x4836, 0x2),
    ev(0x4a36, 0x2),
    FilterUse::new(0x4037, 0x40ff, 0x2),
];

/// The SNB-EP C-box filter: 32 bits at `0xd14`.
pub const CBOX_FILTER: CboxFilter = CboxFilter {
    fields: FIELDS,
    uses: USES,
    msr: 0xd14,
    high_msr: None,
};

impl CboxFilter {
    /// The filter fields control value `ctl` uses (bit `i` for slot `i`).
    pub fn fields_used(&self, ctl: u64) -> u8 {
        self.uses
            .iter()
            .filter(|e| ctl & e.mask == e.code)
            .fold(0, |a, e| a | e.fields)
    }
}

impl Special for CboxFilter {
    fn encode(&self, _t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        let used = self.fields_used(plain.ctl);
        let used_mask = self
            .fields
            .iter()
            .enumerate()
            .filter(|(i, _)| used & (1 << i) != 0)
            .fold(0, |m, (_, f)| m | f);
        no_bits(Word::Config1, attr.config1 & !used_mask)?;
        if used == 0 {
            return Ok(plain);
        }
        let mut c = Choice::new(plain.ctl);
        for (i, f) in self.fields.iter().enumerate() {
            if used & (1 << i) != 0 {
                c = c.with(i as u8, attr.config1 & f);
            }
        }
        Ok(Encoded {
            shared: Request::one(c),
            ..plain
        })
    }

    fn write_shared(&self, i: u32, s: &Shared, _choice: &Choice, ops: &mut Ops) {
        let v = s.combined(0..self.fields.len());
        let lo = Addr::Msr(Msr::new(self.msr + 0x20 * i));
        match self.high_msr {
            Some(hi) => ops.write_split(lo, Addr::Msr(Msr::new(hi + 0x20 * i)), v),
            None => ops.write(lo, v),
        }
    }
}

/// `PCU_MSR_PMON_BOX_FILTER`.
const PCU_FILTER: u32 = 0xc34;

/// The PCU band filter: events `FREQ_BAND0..3_CYCLES` (0xb..0xe) take their
/// band threshold from `filter_bandN`; a band already held with another
/// value is replaced by a free one, rewriting the event select.
#[derive(Debug)]
pub struct PcuBand;

impl Special for PcuBand {
    fn encode(&self, _t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        let ev = plain.ctl & 0xff;
        if !(0xb..=0xe).contains(&ev) || plain.ctl & bit(21) != 0 {
            no_bits(Word::Config1, attr.config1)?;
            return Ok(plain);
        }
        let band = (ev - 0xb) as u32;
        no_bits(Word::Config1, attr.config1 & !(0xff << (8 * band)))?;
        let value = (attr.config1 >> (8 * band)) & 0xff;
        let mut req = Request::NONE;
        for j in 0..4 {
            let b = (band + j) % 4;
            let ctl = (plain.ctl & !0xff) | (0xb + u64::from(b));
            req = req.or(Choice::new(ctl).with(b as u8, value << (8 * b)));
        }
        Ok(Encoded {
            shared: req,
            ..plain
        })
    }

    fn write_shared(&self, _i: u32, s: &Shared, _choice: &Choice, ops: &mut Ops) {
        ops.write(Addr::Msr(Msr::new(PCU_FILTER)), s.combined(0..4));
    }
}

/// The QPI packet match/mask of event 0x38 (`config1` match, `config2`
/// mask), in the port's helper device at 0x228/0x22c and 0x238/0x23c.
#[derive(Debug)]
pub struct QpiMatchMask;

impl Special for QpiMatchMask {
    fn encode(&self, _t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        match_mask(plain, attr, plain.ctl & 0xff == 0x38)
    }

    fn write_shared(&self, _i: u32, s: &Shared, _choice: &Choice, ops: &mut Ops) {
        ops.write_split(
            Addr::Helper(CfgReg::new(0x228)),
            Addr::Helper(CfgReg::new(0x22c)),
            s.slot(0).value,
        );
        ops.write_split(
            Addr::Helper(CfgReg::new(0x238)),
            Addr::Helper(CfgReg::new(0x23c)),
            s.slot(1).value,
        );
    }

    fn helper_device(&self) -> bool {
        true
    }
}

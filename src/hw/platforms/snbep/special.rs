// SPDX-License-Identifier: GPL-2.0

//! The special event handling of Sandy Bridge-EP boxes, which Ivy
//! Bridge-EP shares: the C-box filter (each part with its own field
//! layout), the PCU band filter and the QPI packet match/mask.

use crate::hw::bits::bit;
use crate::hw::catalog::data_line;
use crate::hw::desc::{BoxType, Word};
use crate::hw::encode::{Attr, Encoded, Invalid};
use crate::hw::program::{Addr, CfgReg, Msr, Ops};
use crate::hw::shared::{Choice, Request, Shared};
use crate::hw::special::{match_mask, no_bits, Special};

/// An entry of a C-box filter table: control values with
/// `(ctl & mask) == code` use the filter fields in `fields`.
#[derive(Clone, Copy, Debug)]
pub struct FilterUse {
    code: u64,
    mask: u64,
    fields: u8,
}

/// The `N` entries of a filter-use table file `text`, at compile time.
/// One entry per line, three hexadecimal numbers separated by tabs: the
/// control bits, the mask they are compared under, and the fields used
/// (bit `i` for slot `i`); lines starting with `#` are comments. A
/// malformed line, or `N` other than the number of entries, fails the
/// build.
pub const fn parse_uses<const N: usize>(text: &str) -> [FilterUse; N] {
    let b = text.as_bytes();
    let mut out = [FilterUse {
        code: 0,
        mask: 0,
        fields: 0,
    }; N];
    let mut n = 0;
    let mut next = 0;
    while let Some((start, end)) = data_line(b, next) {
        let mut v = [0u64; 3];
        let mut k = 0;
        let mut j = start;
        while j < end {
            let d = b[j];
            if d == b'\t' {
                k += 1;
                assert!(k < 3, "filter uses: more than three fields");
            } else {
                let x = match d {
                    b'0'..=b'9' => d - b'0',
                    b'a'..=b'f' => d - b'a' + 10,
                    _ => panic!("filter uses: not a hexadecimal digit"),
                };
                assert!(v[k] >> 60 == 0, "filter uses: a number too large");
                v[k] = v[k] << 4 | x as u64;
            }
            j += 1;
        }
        assert!(k == 2, "filter uses: fewer than three fields");
        assert!(v[2] <= 0xff, "filter uses: fields above bit 7");
        out[n] = FilterUse {
            code: v[0],
            mask: v[1],
            fields: v[2] as u8,
        };
        n += 1;
        next = end + 1;
    }
    assert!(n == N, "filter uses: N is not the number of entries");
    out
}

/// The filter-use table of data file `$file` (next to the using source
/// file), parsed at compile time ([`parse_uses`]).
macro_rules! filter_uses {
    ($file:literal) => {{
        const TEXT: &str = include_str!($file);
        &crate::hw::platforms::snbep::special::parse_uses::<{ crate::hw::catalog::count(TEXT) }>(
            TEXT,
        )
    }};
}
pub(crate) use filter_uses;

/// A C-box filter register (`Cn_MSR_PMON_BOX_FILTER`): its fields, which
/// events use which, and where it is.
#[derive(Debug)]
pub struct CboxFilter {
    /// The fields' bits in `config1`; slot `i` is field `1 << i`.
    pub fields: &'static [u64],
    /// Which events use which fields.
    pub uses: &'static [FilterUse],
    /// The MSR of box 0's filter (its low 32 bits); box `i`'s is
    /// `i * stride` further.
    pub msr: u32,
    /// The MSR of box 0's filter high 32 bits, for a 64-bit filter.
    pub high_msr: Option<u32>,
    /// The distance between two boxes' filters (0x20 on SNB-EP and IVB-EP,
    /// 0x10 on Haswell-EP; 0 for a box type of one box).
    pub stride: u32,
}

/// SNB-EP C-box filter fields (327043 Table 2-12): TID 4:0, NID 17:10,
/// STATE 22:18, OPC 31:23.
const FIELDS: &[u64] = &[0x1f, 0x3fc00, 0x7c_0000, 0xff80_0000];

/// The events that use SNB-EP C-box filter fields.
const USES: &[FilterUse] = filter_uses!("cbox_filter.tsv");

/// The SNB-EP C-box filter: 32 bits at `0xd14`.
pub const CBOX_FILTER: CboxFilter = CboxFilter {
    fields: FIELDS,
    uses: USES,
    msr: 0xd14,
    high_msr: None,
    stride: 0x20,
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
        let off = self.stride.wrapping_mul(i);
        let lo = Addr::Msr(Msr::new(self.msr.wrapping_add(off)));
        match self.high_msr {
            Some(hi) => ops.write_split(lo, Addr::Msr(Msr::new(hi.wrapping_add(off))), v),
            None => ops.write(lo, v),
        }
    }
}

/// The SNB-EP and IVB-EP PCU band filter, `PCU_MSR_PMON_BOX_FILTER` (0xc34).
pub const PCU_BAND: PcuBand = PcuBand { msr: 0xc34 };

/// The PCU band filter: events `FREQ_BAND0..3_CYCLES` (0xb..0xe) take their
/// band threshold from `filter_bandN`; a band already held with another
/// value is replaced by a free one, rewriting the event select.
#[derive(Debug)]
pub struct PcuBand {
    /// `PCU_MSR_PMON_BOX_FILTER`.
    pub msr: u32,
}

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
        ops.write(Addr::Msr(Msr::new(self.msr)), s.combined(0..4));
    }
}

/// The QPI packet match/mask of event 0x38 (`config1` match, `config2`
/// mask), in the port's helper device at 0x228/0x22c and 0x238/0x23c.
#[derive(Debug)]
pub struct QpiMatchMask;

impl Special for QpiMatchMask {
    fn helper_device(&self) -> bool {
        true
    }

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
}

// SPDX-License-Identifier: GPL-2.0

//! Event validation and encoding: from `perf_event_attr`'s `config`,
//! `config1` and `config2` to a control register value, the counters the
//! event may use and the shared registers it needs.
//!
//! Every bit a user sets must mean something to the box: bits outside the
//! box's `format/` fields, filter fields the event does not use and values
//! the box cannot take are rejected with a reason, never silently dropped.

use core::fmt;

use super::bits::{bit, Field};
use super::desc::{BoxKind, BoxType, Special, Word};
use super::shared::{Choice, Request};

/// The configuration words of a `perf_event_attr`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attr {
    /// `attr.config`.
    pub config: u64,
    /// `attr.config1`.
    pub config1: u64,
    /// `attr.config2`.
    pub config2: u64,
}

impl Attr {
    /// An attribute with only `config` set.
    pub const fn config(config: u64) -> Self {
        Attr {
            config,
            config1: 0,
            config2: 0,
        }
    }

    /// The value of `word`.
    pub const fn word(&self, word: Word) -> u64 {
        match word {
            Word::Config => self.config,
            Word::Config1 => self.config1,
            Word::Config2 => self.config2,
        }
    }
}

/// Why an event configuration was refused (always `EINVAL`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// Bits outside every `format/` field of the box.
    UnknownBits {
        /// The word.
        word: Word,
        /// The offending bits.
        bits: u64,
    },
    /// Bits of a field the selected event does not use.
    UnusedBits {
        /// The word.
        word: Word,
        /// The offending bits.
        bits: u64,
    },
    /// `event=0xff` on a box without a fixed counter.
    NoFixedCounter,
    /// The fixed counter exists only on box 0.
    FixedOnBox0,
    /// A value the box cannot take.
    Value(&'static str),
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::UnknownBits { word, bits } => {
                write!(
                    f,
                    "{} bits {:#x} are not a field of this PMU",
                    word.name(),
                    bits
                )
            }
            Invalid::UnusedBits { word, bits } => {
                write!(
                    f,
                    "{} bits {:#x} are not used by this event",
                    word.name(),
                    bits
                )
            }
            Invalid::NoFixedCounter => write!(f, "this PMU has no fixed counter (event=0xff)"),
            Invalid::FixedOnBox0 => write!(f, "the fixed counter exists only on box 0"),
            Invalid::Value(s) => write!(f, "{}", s),
        }
    }
}

/// The kind of counter an event uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A general-purpose counter.
    General,
    /// The box's fixed counter.
    Fixed,
    /// Free-running counter `i`, read only; any number of events may read it.
    FreeRunning(u8),
}

/// A validated event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encoded {
    /// Control value (without the enable bit) when no shared registers are
    /// needed; otherwise each [`Choice`] carries its own.
    pub ctl: u64,
    /// Counters it may use; bit `num_counters` is the fixed counter.
    pub counters: u32,
    /// Counter kind.
    pub kind: Kind,
    /// Shared registers.
    pub shared: Request,
}

impl Encoded {
    /// Control value when choice `choice` of the shared request was taken.
    pub fn ctl_for(&self, choice: u8) -> u64 {
        if self.shared.is_none() {
            self.ctl
        } else {
            self.shared.choices()[choice as usize].ctl
        }
    }
}

/// The fixed-counter selector: `config == 0xff` exactly.
pub const FIXED_EVENT: u64 = 0xff;

/// Validates and encodes `attr` for box `index` of type `t`.
pub fn encode(t: &BoxType, index: usize, attr: Attr) -> Result<Encoded, Invalid> {
    for word in [Word::Config, Word::Config1, Word::Config2] {
        let bits = attr.word(word) & !t.valid_mask(word);
        if bits != 0 {
            return Err(Invalid::UnknownBits { word, bits });
        }
    }
    if attr.config == FIXED_EVENT && t.special != Special::FreeRunning {
        let fixed = t.fixed.ok_or(Invalid::NoFixedCounter)?;
        if fixed.only_box0 && index != 0 {
            return Err(Invalid::FixedOnBox0);
        }
        no_bits(Word::Config1, attr.config1)?;
        no_bits(Word::Config2, attr.config2)?;
        return Ok(Encoded {
            ctl: 0,
            counters: 1 << t.fixed_index(),
            kind: Kind::Fixed,
            shared: Request::NONE,
        });
    }
    let ctl = attr.config & t.ctl_mask;
    let counters = t
        .constraints
        .iter()
        .find(|c| attr.config & c.cmask == c.code)
        .map_or(t.all_counters(), |c| c.counters);
    let plain = Encoded {
        ctl,
        counters,
        kind: Kind::General,
        shared: Request::NONE,
    };
    match t.special {
        Special::None | Special::NhmexWbox { .. } => Ok(plain),
        Special::SnbepCboxFilter => cbox_filter(plain, attr, SNBEP_CBOX_FIELDS, SNBEP_CBOX_EXTRA),
        Special::IvbepCboxFilter => cbox_filter(plain, attr, IVBEP_CBOX_FIELDS, IVBEP_CBOX_EXTRA),
        Special::PcuBand => pcu_band(plain, attr),
        Special::QpiMatchMask => match_mask(plain, attr, ctl & 0xff == 0x38),
        Special::NhmexBbox => {
            let ctr = (attr.config >> 6) & 3;
            let ev = (attr.config >> 1) & 0x1f;
            let uses = match ctr {
                0 => ev <= 3,
                1 => ev <= 6,
                2 => ev == 4,
                _ => false,
            };
            match_mask(plain, attr, uses)
        }
        Special::NhmexSbox => match_mask(plain, attr, ctl & 0xff == 0),
        Special::NhmexMbox { wsmex } => mbox(plain, attr, wsmex),
        Special::NhmexRbox => rbox(plain, attr),
        Special::FreeRunning => {
            let k = attr.config;
            if k == 0 || k > u64::from(t.num_counters) {
                return Err(Invalid::Value("free-running event must be 1..5"));
            }
            Ok(Encoded {
                ctl: 0,
                counters: 0,
                kind: Kind::FreeRunning(k as u8 - 1),
                ..plain
            })
        }
        Special::L3Emon => {
            if ctl == 0 {
                return Err(Invalid::Value("the event control field must not be zero"));
            }
            let must = if t.kind == BoxKind::Fsb {
                super::platforms::l3::FSB_MUST_BE_ONE
            } else {
                0
            };
            Ok(Encoded {
                ctl: ctl | must,
                ..plain
            })
        }
    }
}

fn no_bits(word: Word, bits: u64) -> Result<(), Invalid> {
    if bits != 0 {
        Err(Invalid::UnusedBits { word, bits })
    } else {
        Ok(())
    }
}

/// An entry of a C-box filter table: control values with
/// `(ctl & mask) == code` use the filter fields in `fields`.
struct FilterUse {
    code: u64,
    mask: u64,
    fields: u8,
}

const fn fu(code: u64, fields: u8) -> FilterUse {
    FilterUse {
        code,
        mask: 0xffff,
        fields,
    }
}

const TID_EN: u64 = bit(19);

/// SNB-EP C-box filter fields (327043 Table 2-12): TID 4:0, NID 17:10,
/// STATE 22:18, OPC 31:23; slot `i` is field `1 << i`.
const SNBEP_CBOX_FIELDS: &[u64] = &[0x1f, 0x3fc00, 0x7c_0000, 0xff80_0000];

const SNBEP_CBOX_EXTRA: &[FilterUse] = &[
    FilterUse {
        code: TID_EN,
        mask: TID_EN,
        fields: 0x1,
    },
    fu(0x0334, 0x4),
    fu(0x4334, 0x6),
    fu(0x0534, 0x4),
    fu(0x4534, 0x6),
    fu(0x0934, 0x4),
    fu(0x4934, 0x6),
    fu(0x4134, 0x6),
    fu(0x0135, 0x8),
    fu(0x0335, 0x8),
    fu(0x4135, 0xa),
    fu(0x4335, 0xa),
    fu(0x4435, 0x2),
    fu(0x4835, 0x2),
    fu(0x4a35, 0x2),
    fu(0x5035, 0x2),
    fu(0x0136, 0x8),
    fu(0x0336, 0x8),
    fu(0x4136, 0xa),
    fu(0x4336, 0xa),
    fu(0x4436, 0x2),
    fu(0x4836, 0x2),
    fu(0x4a36, 0x2),
    FilterUse {
        code: 0x4037,
        mask: 0x40ff,
        fields: 0x2,
    },
];

/// IVB-EP C-box filter fields: TID 4:0, LINK 8:5, STATE 22:17, NID 47:32,
/// OPC 60:52 together with NC (62), C6 (61) and ISOC (63).
const IVBEP_CBOX_FIELDS: &[u64] = &[
    0x1f,
    0x1e0,
    0x7e_0000,
    0xffff_0000_0000,
    0xe000_0000_0000_0000 | (0x1ff << 52),
];

const IVBEP_CBOX_EXTRA: &[FilterUse] = &[
    FilterUse {
        code: TID_EN,
        mask: TID_EN,
        fields: 0x1,
    },
    FilterUse {
        code: 0x1031,
        mask: 0x10ff,
        fields: 0x2,
    },
    fu(0x1134, 0x4),
    fu(0x4134, 0xc),
    fu(0x5134, 0xc),
    fu(0x0334, 0x4),
    fu(0x4334, 0xc),
    fu(0x0534, 0x4),
    fu(0x4534, 0xc),
    fu(0x0934, 0x4),
    fu(0x4934, 0xc),
    fu(0x0135, 0x10),
    fu(0x0335, 0x10),
    fu(0x2135, 0x10),
    fu(0x2335, 0x10),
    fu(0x4135, 0x18),
    fu(0x4335, 0x18),
    fu(0x4435, 0x8),
    fu(0x4835, 0x8),
    fu(0x4a35, 0x8),
    fu(0x5035, 0x8),
    fu(0x8135, 0x10),
    fu(0x8335, 0x10),
    fu(0x0136, 0x10),
    fu(0x0336, 0x10),
    fu(0x2136, 0x10),
    fu(0x2336, 0x10),
    fu(0x4136, 0x18),
    fu(0x4336, 0x18),
    fu(0x4436, 0x8),
    fu(0x4836, 0x8),
    fu(0x4a36, 0x8),
    fu(0x5036, 0x8),
    fu(0x8136, 0x10),
    fu(0x8336, 0x10),
    FilterUse {
        code: 0x4037,
        mask: 0x40ff,
        fields: 0x8,
    },
];

/// The C-box filter fields an event uses (bit `i` for slot `i`).
pub fn cbox_filter_fields(ctl: u64, ivbep: bool) -> u8 {
    let table = if ivbep {
        IVBEP_CBOX_EXTRA
    } else {
        SNBEP_CBOX_EXTRA
    };
    table
        .iter()
        .filter(|e| ctl & e.mask == e.code)
        .fold(0, |a, e| a | e.fields)
}

fn cbox_filter(
    plain: Encoded,
    attr: Attr,
    fields: &[u64],
    table: &[FilterUse],
) -> Result<Encoded, Invalid> {
    let used = table
        .iter()
        .filter(|e| plain.ctl & e.mask == e.code)
        .fold(0u8, |a, e| a | e.fields);
    let used_mask = fields
        .iter()
        .enumerate()
        .filter(|(i, _)| used & (1 << i) != 0)
        .fold(0, |m, (_, f)| m | f);
    no_bits(Word::Config1, attr.config1 & !used_mask)?;
    if used == 0 {
        return Ok(plain);
    }
    let mut c = Choice::new(plain.ctl);
    for (i, f) in fields.iter().enumerate() {
        if used & (1 << i) != 0 {
            c = c.with(i as u8, attr.config1 & f);
        }
    }
    Ok(Encoded {
        shared: Request::one(c),
        ..plain
    })
}

/// PCU band events `FREQ_BAND0..3_CYCLES` (0xb..0xe) take their band
/// threshold from `filter_bandN`; a band already held with another value
/// is replaced by a free one, rewriting the event select.
fn pcu_band(plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
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

/// Match/mask pairs (QPI, NHM-EX B- and S-box): slot 0 holds `config1`
/// (match), slot 1 `config2` (mask), for the events that use them.
fn match_mask(plain: Encoded, attr: Attr, uses: bool) -> Result<Encoded, Invalid> {
    if !uses {
        no_bits(Word::Config1, attr.config1)?;
        no_bits(Word::Config2, attr.config2)?;
        return Ok(plain);
    }
    let c = Choice::new(plain.ctl)
        .with(0, attr.config1)
        .with(1, attr.config2);
    Ok(Encoded {
        shared: Request::one(c),
        ..plain
    })
}

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

fn mbox(plain: Encoded, attr: Attr, wsmex: bool) -> Result<Encoded, Invalid> {
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

/// Number of R-box slots per port: IPERF0, IPERF1, QLX low byte, QLX high
/// byte, XBR set 1 (MM_CFG, MATCH, MASK), XBR set 2 (MM_CFG, MATCH, MASK).
pub const RBOX_PORT_SLOTS: u8 = 10;

fn rbox(plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
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

#[cfg(test)]
mod tests;

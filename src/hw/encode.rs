// SPDX-License-Identifier: GPL-2.0

//! Event validation and encoding: from `perf_event_attr`'s `config`,
//! `config1` and `config2` to a control register value, the counters the
//! event may use and the shared registers it needs.
//!
//! Every bit a user sets must mean something to the box: bits outside the
//! box's `format/` fields, filter fields the event does not use and values
//! the box cannot take are rejected with a reason, never silently dropped.

use core::fmt;

use super::desc::{BoxType, Word};
use super::shared::Request;
use super::special::no_bits;

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
    /// Bits of a field's register that the manual reserves ("must write
    /// to 0") or leaves undefined.
    Reserved {
        /// The word.
        word: Word,
        /// The offending bits.
        bits: u64,
        /// The field (its `format/` name).
        field: &'static str,
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
            Invalid::Reserved { word, bits, field } => {
                write!(
                    f,
                    "{} bits {:#x} are reserved in {} (they must be 0)",
                    word.name(),
                    bits,
                    field
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
    /// needed; otherwise each [`Choice`](super::shared::Choice) carries its own.
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
    if attr.config == FIXED_EVENT && !t.special.free_running() {
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
    t.special.encode(t, plain, attr)
}

#[cfg(test)]
mod tests;

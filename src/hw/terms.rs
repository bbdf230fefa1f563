// SPDX-License-Identifier: GPL-2.0

//! Perf event terms (`event=0x04,umask=0x03`) applied to a box type's
//! `format/` fields, the way the perf tool turns an alias or an event
//! string into `perf_event_attr` words. Used to check every alias against
//! the formats it is shown with, and by the simulation's injection syntax.

use super::desc::{BoxType, Format, Word};
use super::encode::Attr;

/// Why a term list does not apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TermError<'a> {
    /// A term that is no format field of the box.
    UnknownTerm(&'a str),
    /// A value that is no number.
    BadValue(&'a str),
    /// A value wider than its field.
    TooBig(&'a str),
}

/// Parses a number the way perf does: `0x` hexadecimal or decimal.
pub fn parse_number(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else {
        s.parse().ok()
    }
}

/// Scatters `value` into `attr` along the bit ranges of `f`.
pub fn apply(f: &Format, value: u64, attr: &mut Attr) {
    let mut v = value;
    let mut word = attr.word(f.word);
    for r in f.bits {
        word = r.set(word, v & r.max());
        v = v.checked_shr(r.width()).unwrap_or(0);
    }
    match f.word {
        Word::Config => attr.config = word,
        Word::Config1 => attr.config1 = word,
        Word::Config2 => attr.config2 = word,
    }
}

/// Applies the comma-separated `terms` to `attr` using `t`'s formats. A
/// term without `=value` means 1.
pub fn parse<'a>(t: &BoxType, terms: &'a str, attr: &mut Attr) -> Result<(), TermError<'a>> {
    for term in terms.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) = match term.split_once('=') {
            Some((n, v)) => (n.trim(), parse_number(v).ok_or(TermError::BadValue(term))?),
            None => (term, 1),
        };
        let f = t.format(name).ok_or(TermError::UnknownTerm(name))?;
        if f.width() < 64 && value >> f.width() != 0 {
            return Err(TermError::TooBig(term));
        }
        apply(f, value, attr);
    }
    Ok(())
}

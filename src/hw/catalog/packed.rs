// SPDX-License-Identifier: GPL-2.0

//! The packed form of a catalog file, made at compile time from its text
//! ([`tsv!`](super)), and the views of its aliases ([`AliasRef`]).
//!
//! A catalog file becomes one byte string of records, one per alias, in
//! the file's order:
//!
//! ```text
//! record := name NUL head token*
//! head   := bit 7: the alias counts 64-byte lines (MiB scale and unit);
//!           bits 6-0: the number of tokens
//! token  := key form value
//! key    := index into TERM_NAMES | 0xff, length, the term name's bytes
//! form   := bits 7-6: 0 `=0x<hex>`, 1 `=<decimal>`, 2 no `=value`;
//!           bits 4-0: hex digits written (leading zeros kept), or the
//!           decimal value's bytes
//! value  := the value, little endian, in ceil(digits / 2) bytes (hex) or
//!           the form's byte count (decimal)
//! ```
//!
//! The name is NUL-terminated where it is stored, so a C string can point
//! at it. The terms come back from the tokens byte for byte as the file
//! writes them ([`Terms`]' `Display`): order, leading zeros and explicit
//! zero values (`umask=0x00`) are kept, so an alias' text in sysfs is the
//! catalog's, and a term with value 0 still overrides a default given
//! elsewhere. A term the packing cannot give back exactly (upper-case hex
//! digits, a decimal with leading zeros, spaces, an empty term) fails the
//! build.

use core::ffi::CStr;
use core::fmt;

use super::{data_line, find};
use crate::hw::desc::{BoxType, SCALE_64B_MIB};
use crate::hw::encode::Attr;
use crate::hw::terms::{self, TermError};

/// The term names with a one-byte key (their index): the format fields of
/// the catalogs. Another name is stored whole in its token.
pub(crate) const TERM_NAMES: &[&str] = &[
    "event",
    "umask",
    "edge",
    "inv",
    "thresh",
    "tid_en",
    "filter_tid",
    "filter_nid",
    "filter_state",
    "filter_opc",
    "filter_link",
    "filter_band0",
    "filter_band1",
    "filter_band2",
    "filter_band3",
    "occ_sel",
    "occ_invert",
    "occ_edge",
    "match_rds",
    "match_rnid30",
    "match_rnid4",
    "match_dnid",
    "match_mc",
    "match_opc",
    "match_vnw",
    "match0",
    "match1",
    "mask_rds",
    "mask_rnid30",
    "mask_rnid4",
    "mask_dnid",
    "mask_mc",
    "mask_opc",
    "mask_vnw",
    "mask0",
    "mask1",
    "inc_sel",
    "iperf_cfg",
    "fvc",
    "qlx_cfg",
    "thr",
    "pld",
    "match",
    "mask",
    "counter",
    "xbr_mm_cfg",
    "xbr_match",
    "xbr_mask",
    "iss",
    "set_flag_sel",
    "flag_mode",
    "fsb_submask",
    "map",
    "dsp",
    "pgt",
    "cmask",
];

/// The key of a term name stored whole.
const LITERAL: u8 = 0xff;
/// Head bit: the alias counts 64-byte lines.
const MIB: u8 = 0x80;
/// Form: `=0x<hex>`.
const HEX: u8 = 0;
/// Form: `=<decimal>`.
const DEC: u8 = 1;
/// Form: no `=value` (the value is 1).
const BARE: u8 = 2;

/// `a == b`, in a const context.
pub(crate) const fn bytes_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Writes `v` at `out[n]` when `out` has room (a measuring pass gives an
/// empty `out`); the next position.
const fn put(out: &mut [u8], n: usize, v: u8) -> usize {
    if n < out.len() {
        out[n] = v;
    }
    n + 1
}

/// Writes the `k` bytes of `v`, lowest first.
const fn put_value(out: &mut [u8], mut n: usize, v: u64, k: usize) -> usize {
    let mut i = 0;
    while i < k {
        n = put(out, n, (v >> (8 * i)) as u8);
        i += 1;
    }
    n
}

/// The value of hex digit `c`, which must be lower case.
const fn hex_digit(c: u8) -> u64 {
    match c {
        b'0'..=b'9' => (c - b'0') as u64,
        b'a'..=b'f' => (c - b'a' + 10) as u64,
        _ => panic!("catalog: a hex value with a digit other than 0-9, a-f"),
    }
}

/// Writes the token of term `b[from..to]` (`name`, `name=0x..`, or
/// `name=<decimal>`).
const fn put_term(out: &mut [u8], mut n: usize, b: &[u8], from: usize, to: usize) -> usize {
    assert!(to > from, "catalog: an empty term");
    let eq = find(b, from, to, b'=');
    let (_, rest) = b.split_at(from);
    let (key, _) = rest.split_at(eq - from);
    let mut k = 0;
    while k < TERM_NAMES.len() && !bytes_eq(TERM_NAMES[k].as_bytes(), key) {
        k += 1;
    }
    if k < TERM_NAMES.len() {
        n = put(out, n, k as u8);
    } else {
        assert!(!key.is_empty() && key.len() < 256, "catalog: a term name");
        n = put(out, n, LITERAL);
        n = put(out, n, key.len() as u8);
        let mut i = 0;
        while i < key.len() {
            assert!(key[i] > b' ' && key[i] != b',', "catalog: a term name");
            n = put(out, n, key[i]);
            i += 1;
        }
    }
    if eq == to {
        return put(out, n, BARE << 6);
    }
    let v = eq + 1;
    if to - v > 2 && b[v] == b'0' && b[v + 1] == b'x' {
        let digits = to - v - 2;
        assert!(digits <= 16, "catalog: a hex value over 64 bits");
        let mut x = 0;
        let mut i = v + 2;
        while i < to {
            x = (x << 4) | hex_digit(b[i]);
            i += 1;
        }
        n = put(out, n, (HEX << 6) | digits as u8);
        put_value(out, n, x, digits.div_ceil(2))
    } else {
        assert!(to > v, "catalog: a term without its value");
        assert!(
            b[v] != b'0' || to == v + 1,
            "catalog: a decimal value with leading zeros"
        );
        let mut x: u64 = 0;
        let mut i = v;
        while i < to {
            assert!(
                b[i].is_ascii_digit(),
                "catalog: a value neither 0x hex nor decimal"
            );
            x = match x.checked_mul(10) {
                Some(t) => match t.checked_add((b[i] - b'0') as u64) {
                    Some(s) => s,
                    None => panic!("catalog: a decimal value over 64 bits"),
                },
                None => panic!("catalog: a decimal value over 64 bits"),
            };
            i += 1;
        }
        let k = (u64::BITS - x.leading_zeros()).div_ceil(8) as usize;
        n = put(out, n, (DEC << 6) | k as u8);
        put_value(out, n, x, k)
    }
}

/// Packs catalog text into `out` (see the module documentation), or only
/// measures it when `out` is empty; the packed length. One alias per line:
/// its name, a tab, its terms, and for a count of 64-byte lines a tab and
/// `mib`; lines starting with `#` are comments. A line that does not
/// follow this fails the build.
const fn pack_into(text: &str, out: &mut [u8]) -> usize {
    let b = text.as_bytes();
    let mut n = 0;
    let mut next = 0;
    while let Some((start, i)) = data_line(b, next) {
        let tab = find(b, start, i, b'\t');
        assert!(
            tab < i && tab > start,
            "catalog: a line without a name and a tab"
        );
        let mut c = start;
        while c < tab {
            assert!(
                b[c] > b' ' && b[c] < 0x7f,
                "catalog: a name with a space or a control byte"
            );
            n = put(out, n, b[c]);
            c += 1;
        }
        n = put(out, n, 0);
        let end = find(b, tab + 1, i, b'\t');
        let mut head = 0;
        if end < i {
            let (_, rest) = b.split_at(end + 1);
            let (kind, _) = rest.split_at(i - end - 1);
            assert!(
                bytes_eq(kind, b"mib"),
                "catalog: the third field can only be `mib`"
            );
            head = MIB;
        }
        let at = n;
        n = put(out, n, 0);
        let mut tokens = 0;
        let mut t = tab + 1;
        while t < end {
            let comma = find(b, t, end, b',');
            n = put_term(out, n, b, t, comma);
            tokens += 1;
            assert!(comma + 1 != end, "catalog: an empty term");
            t = comma + 1;
        }
        assert!(tokens < 0x80, "catalog: too many terms");
        if at < out.len() {
            out[at] = head | tokens as u8;
        }
        next = i + 1;
    }
    n
}

/// The length of catalog text `text` packed.
pub(crate) const fn packed_len(text: &str) -> usize {
    pack_into(text, &mut [])
}

/// Catalog text `text` packed, at compile time; `N` must be
/// [`packed_len`]`(text)`.
pub(crate) const fn pack<const N: usize>(text: &str) -> [u8; N] {
    let mut out = [0; N];
    let n = pack_into(text, &mut out);
    assert!(n == N, "catalog: N is not the packed length");
    out
}

/// One term of an alias: its name, value and how the catalog writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// The format field.
    pub name: &'static str,
    /// Its value (1 for a term without one).
    pub value: u64,
    /// The form: [`HEX`] with its digit count, [`DEC`] or [`BARE`].
    form: u8,
}

impl fmt::Display for Term {
    /// The term as the catalog writes it: `umask=0x03`, `counter=1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)?;
        match self.form >> 6 {
            HEX => write!(
                f,
                "=0x{:0width$x}",
                self.value,
                width = usize::from(self.form & 0x1f)
            ),
            DEC => write!(f, "={}", self.value),
            _ => Ok(()),
        }
    }
}

/// The tokens of one packed alias.
#[derive(Clone, Copy, Debug)]
pub struct Tokens {
    /// The bytes from the first token on (past the last, the next records).
    bytes: &'static [u8],
    /// How many tokens.
    count: u8,
}

impl Iterator for Tokens {
    type Item = Term;

    fn next(&mut self) -> Option<Term> {
        if self.count == 0 {
            return None;
        }
        let decoded = decode_token(self.bytes);
        match decoded {
            Some((term, len)) => {
                self.count -= 1;
                self.bytes = self.bytes.get(len..).unwrap_or(&[]);
                Some(term)
            }
            None => {
                self.count = 0;
                None
            }
        }
    }
}

/// The token at the start of `b` and its length; `None` if malformed.
fn decode_token(b: &'static [u8]) -> Option<(Term, usize)> {
    let (&key, _) = b.split_first()?;
    let (name, mut at) = if key == LITERAL {
        let len = usize::from(*b.get(1)?);
        let name = core::str::from_utf8(b.get(2..2 + len)?).ok()?;
        (name, 2 + len)
    } else {
        (*TERM_NAMES.get(usize::from(key))?, 1)
    };
    let form = *b.get(at)?;
    at += 1;
    let k = match form >> 6 {
        HEX => usize::from(form & 0x1f).div_ceil(2),
        DEC => usize::from(form & 0x1f),
        BARE => 0,
        _ => return None,
    };
    if k > 8 {
        return None;
    }
    let bytes = b.get(at..at + k)?;
    // A term without a value means 1.
    let mut value = u64::from(form >> 6 == BARE);
    for (i, &x) in bytes.iter().enumerate() {
        value |= u64::from(x) << (8 * i);
    }
    Some((Term { name, value, form }, at + k))
}

/// The length of the first `count` tokens of `b`, if they are well formed.
fn tokens_len(b: &'static [u8], count: u8) -> Option<usize> {
    let mut at = 0;
    for _ in 0..count {
        let (_, len) = decode_token(b.get(at..)?)?;
        at += len;
    }
    Some(at)
}

/// An alias' term list: text (the aliases platform tables give) or the
/// tokens of a packed catalog. `Display` gives the text perf parses.
#[derive(Clone, Copy, Debug)]
pub enum Terms {
    /// As written, `event=0x04,umask=0x03`.
    Text(&'static str),
    /// Packed.
    Packed(Tokens),
}

impl Terms {
    /// The value of term `name`, if the list has it (the first one).
    pub fn value(&self, name: &str) -> Option<u64> {
        match *self {
            Terms::Text(s) => s.split(',').find_map(|t| match t.split_once('=') {
                Some((k, v)) if k.trim() == name => terms::parse_number(v),
                None if t.trim() == name => Some(1),
                _ => None,
            }),
            Terms::Packed(t) => t.into_iter().find(|x| x.name == name).map(|x| x.value),
        }
    }

    /// Applies the terms to `attr` with `t`'s formats, as
    /// [`terms::parse`] does the text.
    pub fn apply(&self, t: &BoxType, attr: &mut Attr) -> Result<(), TermError<'static>> {
        match *self {
            Terms::Text(s) => terms::parse(t, s, attr),
            Terms::Packed(tokens) => {
                for x in tokens {
                    let f = t.format(x.name).ok_or(TermError::UnknownTerm(x.name))?;
                    if f.width() < 64 && x.value >> f.width() != 0 {
                        return Err(TermError::TooBig(x.name));
                    }
                    terms::apply(f, x.value, attr);
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Terms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Terms::Text(s) => f.write_str(s),
            Terms::Packed(tokens) => {
                for (i, x) in tokens.enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}", x)?;
                }
                Ok(())
            }
        }
    }
}

/// One `events/` alias, as an alias table gives it, with its optional
/// `.scale` and `.unit` files.
#[derive(Clone, Copy, Debug)]
pub struct AliasRef {
    /// The alias name (file name under `events/`).
    pub name: &'static str,
    /// Its term list.
    pub terms: Terms,
    /// Content of `<name>.scale`, if any.
    pub scale: Option<&'static str>,
    /// Content of `<name>.unit`, if any.
    pub unit: Option<&'static str>,
    /// The name with its NUL where it is stored (a packed catalog's).
    c_name: Option<&'static CStr>,
}

impl AliasRef {
    /// An alias named `name` with `terms`, counting 64-byte lines (MiB) if
    /// `mib`.
    pub(crate) const fn new(name: &'static str, terms: Terms, mib: bool) -> Self {
        AliasRef {
            name,
            terms,
            scale: if mib { Some(SCALE_64B_MIB) } else { None },
            unit: if mib { Some("MiB") } else { None },
            c_name: None,
        }
    }

    /// The name as a C string where it is stored, if it is stored
    /// NUL-terminated (the aliases of packed catalogs).
    pub fn c_name(&self) -> Option<&'static CStr> {
        self.c_name
    }
}

/// The aliases of a packed catalog, in order.
#[derive(Clone, Debug)]
pub struct Records {
    /// The records not yet read.
    rest: &'static [u8],
}

impl Records {
    /// The aliases of the packed catalog `records`.
    pub(crate) const fn new(records: &'static [u8]) -> Self {
        Records { rest: records }
    }

    /// The next record, or `None` at the end or at a malformed one.
    fn read(&mut self) -> Option<AliasRef> {
        let nul = self.rest.iter().position(|&b| b == 0)?;
        let name = core::str::from_utf8(self.rest.get(..nul)?).ok()?;
        let c_name = CStr::from_bytes_with_nul(self.rest.get(..=nul)?).ok();
        let head = *self.rest.get(nul + 1)?;
        let bytes = self.rest.get(nul + 2..)?;
        let count = head & !MIB;
        let len = tokens_len(bytes, count)?;
        self.rest = bytes.get(len..)?;
        let tokens = Tokens { bytes, count };
        Some(AliasRef {
            c_name,
            ..AliasRef::new(name, Terms::Packed(tokens), head & MIB != 0)
        })
    }
}

impl Iterator for Records {
    type Item = AliasRef;

    fn next(&mut self) -> Option<AliasRef> {
        let a = self.read();
        if a.is_none() {
            self.rest = &[];
        }
        a
    }
}

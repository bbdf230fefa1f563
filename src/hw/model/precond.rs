// SPDX-License-Identifier: GPL-2.0

//! Event preconditions: the events whose Intel description says they count
//! only with a filter field set (a C-box `LLC_LOOKUP` counts nothing unless
//! its state filter selects a state), as each platform's
//! `preconditions.tsv` lists them, parsed at compile time
//! ([`preconditions!`]). The platform's model applies them
//! ([`needs_of`]); [`lacking`] names what an injected occurrence of such an
//! event must carry.

use crate::hw::catalog::{data_line, find};
use crate::hw::desc::BoxKind;
use crate::hw::model::count::{event_select, Occurrence};

/// `text[from..to]`, in a const context.
const fn sub(text: &'static str, from: usize, to: usize) -> &'static str {
    let (_, rest) = text.as_bytes().split_at(from);
    let (mid, _) = rest.split_at(to - from);
    match core::str::from_utf8(mid) {
        Ok(s) => s,
        Err(_) => panic!("catalog: a field is not UTF-8"),
    }
}

/// The filter's STATE field must select the occurrence's state.
pub const STATE: u8 = 1 << 0;
/// The filter's NID field must select the occurrence's node.
pub const NID: u8 = 1 << 1;
/// The filter's OPC field must hold the occurrence's opcode.
pub const OPC: u8 = 1 << 2;

/// One row of a platform's precondition table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Precondition {
    /// The event's name, as its source spells it.
    pub name: &'static str,
    /// Its box, as written in the table (`cbox`, `mbox`).
    pub box_name: &'static str,
    /// Its box kind.
    pub kind: BoxKind,
    /// Its encoding, in perf terms.
    pub encoding: &'static str,
    /// What the model enforces, as written (`state`, `nid+opc`, `-`).
    pub needs_text: &'static str,
    /// The filter fields the model requires ([`STATE`], [`NID`], [`OPC`]);
    /// 0 for a row the model cannot express.
    pub needs: u8,
    /// The event select the row applies to.
    pub event: u16,
    /// The unit mask bits a counter's unit mask must have for the row to
    /// apply.
    pub umask: u8,
    /// The precondition, and why the model cannot express it if it cannot.
    pub text: &'static str,
    /// Where the precondition is stated.
    pub source: &'static str,
}

const EMPTY: Precondition = Precondition {
    name: "",
    box_name: "",
    kind: BoxKind::Cbox,
    encoding: "",
    needs_text: "",
    needs: 0,
    event: 0,
    umask: 0,
    text: "",
    source: "",
};

/// Whether `a` and `b` are the same bytes, in a const context.
const fn same(a: &str, b: &str) -> bool {
    crate::hw::catalog::packed::bytes_eq(a.as_bytes(), b.as_bytes())
}

/// The box kind a table names.
const fn kind_of(name: &str) -> BoxKind {
    if same(name, "cbox") {
        BoxKind::Cbox
    } else if same(name, "mbox") {
        BoxKind::Mbox
    } else {
        panic!("preconditions: an unknown box")
    }
}

/// The fields a `needs` column names.
const fn needs_of_text(t: &str) -> u8 {
    if same(t, "state") {
        STATE
    } else if same(t, "nid") {
        NID
    } else if same(t, "opc") {
        OPC
    } else if same(t, "nid+opc") {
        NID | OPC
    } else if same(t, "-") {
        0
    } else {
        panic!("preconditions: needs is not state, nid, opc, nid+opc or -")
    }
}

/// The hexadecimal number after `key` (`event=0x`) at the start of `b`
/// from `i`, and where it ends.
const fn hex_after(b: &[u8], i: usize, key: &[u8]) -> (u64, usize) {
    let mut k = 0;
    while k < key.len() {
        assert!(
            i + k < b.len() && b[i + k] == key[k],
            "preconditions: an enforced row's encoding is not event=0x..,umask=0x.."
        );
        k += 1;
    }
    let mut j = i + key.len();
    let mut v = 0u64;
    while j < b.len() && b[j] != b',' {
        let d = b[j];
        let x = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            _ => panic!("preconditions: not a hexadecimal digit"),
        };
        assert!(v >> 16 == 0, "preconditions: a number too large");
        v = v << 4 | x as u64;
        j += 1;
    }
    (v, j)
}

/// The `N` rows of a precondition table file `text`, at compile time. One
/// row per line, six tab-separated fields: name, box (`cbox` or `mbox`),
/// encoding, needs (`state`, `nid`, `opc`, `nid+opc`, or `-` where the
/// model cannot express the row), precondition, source; lines starting
/// with `#` are comments. An enforced row's encoding is
/// `event=0x<e>,umask=0x<u>`. A malformed line, or `N` other than the
/// number of rows, fails the build.
pub const fn parse<const N: usize>(text: &'static str) -> [Precondition; N] {
    let b = text.as_bytes();
    let mut out = [EMPTY; N];
    let mut n = 0;
    let mut next = 0;
    while let Some((start, end)) = data_line(b, next) {
        let mut f = [""; 6];
        let mut k = 0;
        let mut i = start;
        while k < 6 {
            let t = find(b, i, end, b'\t');
            assert!(t < end || k == 5, "preconditions: fewer than six fields");
            f[k] = sub(text, i, t);
            k += 1;
            i = t + 1;
        }
        assert!(i >= end, "preconditions: more than six fields");
        let needs = needs_of_text(f[3]);
        let (mut event, mut umask) = (0, 0);
        if needs != 0 {
            let e = f[2].as_bytes();
            let (ev, j) = hex_after(e, 0, b"event=0x");
            let (um, j) = hex_after(e, j + 1, b"umask=0x");
            assert!(
                j == e.len() && ev <= 0x1ff && um <= 0xff,
                "preconditions: a bad encoding"
            );
            event = ev as u16;
            umask = um as u8;
        }
        out[n] = Precondition {
            name: f[0],
            box_name: f[1],
            kind: kind_of(f[1]),
            encoding: f[2],
            needs_text: f[3],
            needs,
            event,
            umask,
            text: f[4],
            source: f[5],
        };
        n += 1;
        next = end + 1;
    }
    assert!(n == N, "preconditions: N is not the number of rows");
    out
}

/// The precondition table of data file `$file` (next to the using source
/// file), parsed at compile time ([`parse`]).
macro_rules! preconditions {
    ($file:literal) => {{
        const TEXT: &str = include_str!($file);
        &crate::hw::model::precond::parse::<{ crate::hw::catalog::count(TEXT) }>(TEXT)
    }};
}
pub(crate) use preconditions;

/// Whether row `r` applies to a counter of a box of kind `kind` with
/// control `ctl`: the row's event select, and at least its unit mask bits.
pub fn applies(r: &Precondition, kind: BoxKind, ctl: u64) -> bool {
    let umask = ((ctl >> 8) & 0xff) as u8;
    r.needs != 0 && r.kind == kind && event_select(ctl) == r.event && umask & r.umask == r.umask
}

/// The filter fields a counter with control `ctl` of a box of kind `kind`
/// requires by `table` ([`STATE`], [`NID`], [`OPC`]), or `None` when no
/// row has its event select (its filter fields apply as they always do).
/// For a row's event, the fields its rows name are the ones its filter
/// matches: a sub-event whose description asks for no opcode or node
/// match does not match on them.
pub fn needs_of(table: &[Precondition], kind: BoxKind, ctl: u64) -> Option<u8> {
    let ev = event_select(ctl);
    table
        .iter()
        .any(|r| r.needs != 0 && r.kind == kind && r.event == ev)
        .then(|| {
            table
                .iter()
                .filter(|r| applies(r, kind, ctl))
                .fold(0, |a, r| a | r.needs)
        })
}

/// The filter properties an occurrence of `event` in a box of kind `kind`
/// carries by `table`: those any row of the event names.
pub fn carried(table: &[Precondition], kind: BoxKind, event: u16) -> u8 {
    table
        .iter()
        .filter(|r| r.kind == kind && r.event == event)
        .fold(0, |a, r| a | r.needs)
}

/// The first row of `table` whose event `o` is (in a box of kind `kind`)
/// and whose filter property `o` does not carry, with the `inject` key it
/// lacks: an occurrence carries every property any row of its event names
/// (every lookup of the cache finds its line in some state; every TOR
/// entry has an opcode and a node), so that each counter of the event can
/// match it.
pub fn lacking(
    table: &'static [Precondition],
    kind: BoxKind,
    o: &Occurrence,
) -> Option<(&'static Precondition, &'static str)> {
    let p = &o.props;
    table
        .iter()
        .filter(|r| r.needs != 0 && r.kind == kind && r.event == o.event)
        .find_map(|r| {
            let key = if r.needs & STATE != 0 && p.state.is_none() {
                "state"
            } else if r.needs & NID != 0 && p.nid.is_none() {
                "nid"
            } else if r.needs & OPC != 0 && p.opc.is_none() {
                "opc"
            } else {
                return None;
            };
            Some((r, key))
        })
}

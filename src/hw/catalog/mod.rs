// SPDX-License-Identifier: GPL-2.0

//! Event catalogs: every event and documented unit mask of every box type,
//! as `events/` aliases.
//!
//! One module per platform family holds a `const` table per box type, built
//! from the manuals (Nehalem-EX/Westmere-EX, Skylake client, Xeon 7100/7400)
//! or from the perfmon event catalog (Sandy Bridge-EP, Ivy Bridge-EP). A
//! table starts with the aliases its box type carries in the platform
//! description (the Linux driver's, with the same names and terms), so it
//! can stand in for them. Each module's documentation lists the manual events
//! it leaves out and why.
//!
//! Conventions, checked by the tests:
//! - a name is the manual's (or perfmon's) event name in lower case, without
//!   the `UNC_<box>_` prefix, unit masks after a dot (`llc_lookup.data_read`);
//!   it matches `[a-z][a-z0-9_.]*` and is unique within its box type;
//! - every alias applies to its box type's `format/` fields and passes the
//!   encoder;
//! - an event that needs a filter, match or subcontrol value carries one in
//!   its terms (a C-box line state or opcode, a PCU frequency band, a packet
//!   match/mask, an R-box or M-box subcontrol value). perf lets terms given
//!   with an alias override the alias' own, so `tor_inserts.opcode,
//!   filter_opc=0x180` counts another opcode;
//! - counts of 64-byte lines (memory CAS commands, IMC data transfers) carry
//!   the MiB `.scale` and `.unit` ([`Alias::mib`]).

use super::desc::{Alias, BoxKind, BoxType, PlatformId};
use super::encode::{encode, Attr};
use super::{pci, terms};

/// The aliases of a catalog file, `tsv!(include_str!("file.tsv"))`, parsed
/// at compile time (see [`parse`]).
macro_rules! tsv {
    ($text:expr) => {
        &crate::hw::catalog::parse::<{ crate::hw::catalog::count($text) }>($text)
    };
}

/// `$own` then `$shared` as one alias table, at compile time (see [`join`]).
macro_rules! joined {
    ($own:expr, $shared:expr) => {
        &crate::hw::catalog::join::<{ $own.len() + $shared.len() }>(&[$own, $shared])
    };
}

pub mod hsx;
pub mod ivbep;
pub mod l3;
pub mod nhmex;
pub mod skl;
pub mod snbep;

/// The catalog of box kind `kind` of `platform`: the aliases the box type
/// carries first, then the catalog's own. Empty for a kind the platform
/// does not have.
pub fn aliases(platform: PlatformId, kind: BoxKind) -> &'static [Alias] {
    super::platforms::by_id(platform)
        .type_of(kind)
        .map_or(&[], |(_, t)| t.catalog)
}

/// Every alias of box `index` of box type `kind` of `platform`, in
/// up to four tables, as the box type lists them: its catalog, the events
/// of its part only, the events that need 64-bit match/mask terms, and the
/// aliases of this instance only.
pub fn parts(platform: PlatformId, kind: BoxKind, index: usize) -> [&'static [Alias]; 4] {
    match super::platforms::by_id(platform).type_of(kind) {
        Some((_, t)) => [
            t.catalog,
            t.part_catalog,
            t.wide_catalog,
            t.instance_catalogs.get(index).copied().unwrap_or(&[]),
        ],
        None => [&[]; 4],
    }
}

/// The `events/` aliases of box `index` of type `t` of `platform`: its
/// [`parts`], less what the instance cannot count:
/// - the fixed-counter aliases (`event=0xff`) where the box has no fixed
///   counter (the Skylake UCLK counter is C-box 0's only);
/// - the packet match/mask events of a QPI port without a match/mask device
///   (Ivy Bridge-EP's third port), which `event_init` refuses.
pub fn instance_aliases(
    platform: PlatformId,
    t: &'static BoxType,
    index: usize,
) -> impl Iterator<Item = &'static Alias> {
    let has_fixed = t.fixed.is_some_and(|f| !f.only_box0 || index == 0);
    let no_match_mask = t.special.helper_device()
        && u8::try_from(index).map_or(true, |port| {
            pci::qpi_filter_device(platform, port).is_none()
        });
    parts(platform, t.kind, index)
        .into_iter()
        .flat_map(|x| x.iter())
        .filter(move |a| has_fixed || !a.terms.starts_with("event=0xff"))
        .filter(move |a| !no_match_mask || !uses_shared(t, index, a))
}

/// Whether alias `a` of box `index` of type `t` programs a shared register
/// (a filter or a match/mask). An alias that does not parse or encode
/// counts as not using one: the catalog tests reject it.
fn uses_shared(t: &BoxType, index: usize, a: &Alias) -> bool {
    let mut attr = Attr::default();
    terms::parse(t, a.terms, &mut attr).is_ok()
        && encode(t, index, attr).is_ok_and(|e| !e.shared.is_none())
}

/// How many aliases the catalog file `text` holds: its lines that are
/// neither empty nor comments (`#`).
pub(crate) const fn count(text: &str) -> usize {
    let b = text.as_bytes();
    let mut n = 0;
    let mut next = 0;
    while let Some((_, end)) = data_line(b, next) {
        n += 1;
        next = end + 1;
    }
    n
}

/// The next line of `b` at or after `i` that is neither empty nor a
/// comment (`#`): its start and its end (the newline, or the end of `b`).
pub(crate) const fn data_line(b: &[u8], mut i: usize) -> Option<(usize, usize)> {
    while i < b.len() {
        let end = find(b, i, b.len(), b'\n');
        if end > i && b[i] != b'#' {
            return Some((i, end));
        }
        i = end + 1;
    }
    None
}

/// `text[from..to]`, in a const context.
pub(crate) const fn sub(text: &'static str, from: usize, to: usize) -> &'static str {
    let (_, rest) = text.as_bytes().split_at(from);
    let (mid, _) = rest.split_at(to - from);
    match core::str::from_utf8(mid) {
        Ok(s) => s,
        Err(_) => panic!("catalog: a field is not UTF-8"),
    }
}

/// The first `c` in `b[from..to]`, or `to`.
pub(crate) const fn find(b: &[u8], from: usize, to: usize, c: u8) -> usize {
    let mut i = from;
    while i < to && b[i] != c {
        i += 1;
    }
    i
}

/// The `N` aliases of the catalog file `text`, at compile time. One alias
/// per line: its name, a tab, its terms, and for a count of 64-byte lines
/// reported in MiB a tab and `mib` ([`Alias::mib`]); lines starting with
/// `#` are comments. A malformed line, or `N` other than [`count`], fails
/// the build.
pub(crate) const fn parse<const N: usize>(text: &'static str) -> [Alias; N] {
    let b = text.as_bytes();
    let mut out = [Alias::plain("", ""); N];
    let mut n = 0;
    let mut next = 0;
    while let Some((start, i)) = data_line(b, next) {
        let tab = find(b, start, i, b'\t');
        assert!(tab < i, "catalog: a line without a tab");
        let name = sub(text, start, tab);
        let end = find(b, tab + 1, i, b'\t');
        let terms = sub(text, tab + 1, end);
        out[n] = if end == i {
            Alias::plain(name, terms)
        } else {
            let kind = sub(text, end + 1, i).as_bytes();
            assert!(
                kind.len() == 3 && kind[0] == b'm' && kind[1] == b'i' && kind[2] == b'b',
                "catalog: the third field can only be `mib`"
            );
            Alias::mib(name, terms)
        };
        n += 1;
        next = i + 1;
    }
    assert!(n == N, "catalog: N is not the number of aliases");
    out
}

/// `parts` one after the other in an array of `N` aliases, for tables that
/// share entries. `N` must be the total length of `parts`.
const fn join<const N: usize>(parts: &[&[Alias]]) -> [Alias; N] {
    super::desc::concat(parts, Alias::plain("", ""))
}

#[cfg(test)]
mod tests;

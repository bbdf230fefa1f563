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

use super::desc::Terms;
use super::desc::{each, Alias, AliasRef, BoxKind, BoxType, PlatformId};
use super::encode::{encode, Attr};
use super::{pci, terms};

/// The aliases of a catalog file, `tsv!(include_str!("file.tsv"))`, packed
/// at compile time into one table entry (see [`packed`]).
macro_rules! tsv {
    ($text:expr) => {{
        const RECORDS: &[u8] = &crate::hw::catalog::packed::pack::<
            { crate::hw::catalog::packed::packed_len($text) },
        >($text);
        &[crate::hw::desc::Alias::packed(RECORDS)]
    }};
}

/// The tables given, one after the other, as one alias table, at compile
/// time (see [`join`]).
macro_rules! joined {
    ($($part:expr),+ $(,)?) => {
        &crate::hw::catalog::join::<{ 0 $(+ $part.len())+ }>(&[$($part),+])
    };
}

pub mod bdx;
pub mod bdxde;
pub mod hswbdw;
pub mod hsx;
pub mod ivbep;
pub mod l3;
pub mod nhmex;
pub mod packed;
pub mod skl;
pub mod snbep;

/// The catalog of box kind `kind` of `platform`: the aliases the box type
/// carries first, then the catalog's own. Empty for a kind the platform
/// does not have.
pub fn aliases(platform: PlatformId, kind: BoxKind) -> impl Iterator<Item = AliasRef> + Clone {
    each(
        super::platforms::by_id(platform)
            .type_of(kind)
            .map_or(&[], |(_, t)| t.catalog),
    )
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
) -> impl Iterator<Item = AliasRef> {
    let has_fixed = t.fixed.is_some_and(|f| !f.only_box0 || index == 0);
    let no_match_mask = t.special.helper_device()
        && u8::try_from(index).map_or(true, |port| {
            pci::qpi_filter_device(platform, port).is_none()
        });
    parts(platform, t.kind, index)
        .into_iter()
        .flat_map(each)
        .filter(move |a| has_fixed || !is_fixed(a))
        .filter(move |a| !no_match_mask || !uses_shared(t, index, a))
}

/// Whether alias `a` of box `index` of type `t` programs a shared register
/// (a filter or a match/mask). An alias that does not parse or encode
/// counts as not using one: the catalog tests reject it.
fn uses_shared(t: &BoxType, index: usize, a: &AliasRef) -> bool {
    let mut attr = Attr::default();
    a.terms.apply(t, &mut attr).is_ok() && encode(t, index, attr).is_ok_and(|e| !e.shared.is_none())
}

/// Whether alias `a` selects the fixed counter: its first term is
/// `event=0xff`.
fn is_fixed(a: &AliasRef) -> bool {
    let first = match a.terms {
        Terms::Text(s) => s
            .split(',')
            .next()
            .and_then(|t| t.strip_prefix("event="))
            .and_then(terms::parse_number),
        Terms::Packed(mut t) => t.next().filter(|x| x.name == "event").map(|x| x.value),
    };
    first == Some(0xff)
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

/// The first `c` in `b[from..to]`, or `to`.
pub(crate) const fn find(b: &[u8], from: usize, to: usize, c: u8) -> usize {
    let mut i = from;
    while i < to && b[i] != c {
        i += 1;
    }
    i
}

/// `parts` one after the other in an array of `N` aliases, for tables that
/// share entries. `N` must be the total length of `parts`.
const fn join<const N: usize>(parts: &[&[Alias]]) -> [Alias; N] {
    super::desc::concat(parts, Alias::plain("", ""))
}

#[cfg(test)]
mod tests;

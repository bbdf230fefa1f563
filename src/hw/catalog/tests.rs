// SPDX-License-Identifier: GPL-2.0

//! Host tests of the event catalogs: every alias applies and encodes, names
//! are well formed and unique, the platform's aliases lead unchanged, events
//! that need filter values carry them, and every event code of the manuals
//! (or of the perfmon rows) is in the catalog.

use std::collections::BTreeSet;
use std::string::{String, ToString};
use std::vec::Vec;

use super::{aliases, instance_aliases, nhmex, parts};
use crate::hw::desc::*;
use crate::hw::encode::{encode, Attr};
use crate::hw::platforms::{self, ALL};
use crate::hw::terms;

/// `a` applied to `t`'s formats.
fn attr_of(t: &BoxType, a: &AliasRef) -> Attr {
    let mut attr = Attr::default();
    a.terms
        .apply(t, &mut attr)
        .unwrap_or_else(|e| panic!("{}/{}: {:?}", t.name(), a.name, e));
    attr
}

/// The value of format field `name` in `attr` (the inverse of `terms::apply`).
fn field(t: &BoxType, attr: &Attr, name: &str) -> u64 {
    let f = t.format(name).unwrap();
    let w = attr.word(f.word);
    let mut v = 0;
    let mut shift = 0;
    for r in f.bits {
        v |= r.get(w) << shift;
        shift += r.width();
    }
    v
}

/// The box type `name` of platform `id` and its catalog.
fn catalog(id: PlatformId, name: &str) -> (&'static BoxType, Vec<AliasRef>) {
    let t = platforms::by_id(id).box_type(name).unwrap();
    (t, aliases(id, t.kind).collect())
}

/// Every alias of the alias table `table`.
fn all(table: &'static [Alias]) -> Vec<AliasRef> {
    each(table).collect()
}

/// An alias as its name, terms text, scale and unit.
type Text = (
    &'static str,
    String,
    Option<&'static str>,
    Option<&'static str>,
);

/// An alias as a catalog file's line gives it: name, terms, scale, unit.
type Line = (String, String, Option<&'static str>, Option<&'static str>);

/// Alias `a` as [`Text`].
fn text(a: &AliasRef) -> Text {
    (a.name, a.terms.to_string(), a.scale, a.unit)
}

/// The `event` values of a box's catalog.
fn event_codes(id: PlatformId, name: &str) -> BTreeSet<u64> {
    // The box type's catalog and its part's own events (not the 64-bit
    // match/mask events, which the term parser cannot apply).
    let (t, _) = catalog(id, name);
    let [cat, part, _, _] = parts(id, t.kind, 0);
    each(cat)
        .chain(each(part))
        .map(|a| field(t, &attr_of(t, &a), "event"))
        .collect()
}

/// Asserts that every code of `want` is an `event` value of the catalog.
/// The values of fields `a` and `b` of every alias of box `name`'s
/// catalog on platform `id`.
fn field_pairs(id: PlatformId, name: &str, a: &str, b: &str) -> BTreeSet<(u64, u64)> {
    let (t, cat) = catalog(id, name);
    cat.iter()
        .map(|al| {
            let attr = attr_of(t, al);
            (field(t, &attr, a), field(t, &attr, b))
        })
        .collect()
}

fn assert_codes(id: PlatformId, name: &str, want: &[u64]) {
    let have = event_codes(id, name);
    let missing: Vec<_> = want.iter().filter(|c| !have.contains(c)).collect();
    assert!(
        missing.is_empty(),
        "{:?}/{}: missing codes {:x?}",
        id,
        name,
        missing
    );
}

#[test]
fn every_alias_applies_and_encodes() {
    let mut total = 0;
    for p in ALL {
        for t in p.types {
            for a in aliases(p.id, t.kind) {
                let attr = attr_of(t, &a);
                encode(t, 0, attr)
                    .unwrap_or_else(|e| panic!("{}/{}/{}: {}", p.name, t.name(), a.name, e));
                total += 1;
            }
        }
    }
    assert!(total > 3000, "{} aliases", total);
}

#[test]
fn names_are_well_formed_and_unique() {
    for p in ALL {
        for t in p.types {
            let mut seen = BTreeSet::new();
            for a in aliases(p.id, t.kind) {
                let b = a.name.as_bytes();
                assert!(
                    b.first().is_some_and(u8::is_ascii_lowercase)
                        && b.iter().all(|&c| c.is_ascii_lowercase()
                            || c.is_ascii_digit()
                            || c == b'_'
                            || c == b'.'),
                    "{}/{}: bad name {:?}",
                    p.name,
                    t.name(),
                    a.name
                );
                assert!(
                    seen.insert(a.name),
                    "{}/{}: duplicate {}",
                    p.name,
                    t.name(),
                    a.name
                );
            }
        }
    }
}

#[test]
fn platform_aliases_lead_unchanged() {
    for p in ALL {
        for t in p.types {
            let cat: Vec<_> = aliases(p.id, t.kind).collect();
            let carried = all(t.aliases);
            assert!(cat.len() >= carried.len(), "{}/{}", p.name, t.name());
            for (a, c) in carried.iter().zip(&cat) {
                assert_eq!(text(a), text(c), "{}/{}", p.name, t.name());
            }
        }
    }
}

#[test]
fn every_box_type_has_a_catalog() {
    for p in ALL {
        for t in p.types {
            // The L3 GBSQ and GSNPQ groups have no named events (see `l3`).
            let empty = matches!(t.name(), "gbsq" | "gsnpq");
            assert_eq!(
                aliases(p.id, t.kind).next().is_none(),
                empty,
                "{}/{}",
                p.name,
                t.name()
            );
        }
        for kind in [BoxKind::Cbox, BoxKind::Imc, BoxKind::Sbox, BoxKind::Fsb] {
            if p.type_of(kind).is_none() {
                assert!(
                    aliases(p.id, kind).next().is_none(),
                    "{}/{:?}",
                    p.name,
                    kind
                );
            }
        }
    }
    // The M-box tables differ only in their FVC encodings.
    assert_eq!(all(nhmex::NHMEX_MBOX).len(), all(nhmex::WSMEX_MBOX).len());
    let first = |id| aliases(id, BoxKind::Mbox).next().unwrap().terms.to_string();
    assert_eq!(first(PlatformId::NEHALEM_EX), "inc_sel=0xd,fvc=0x2800");
    assert_eq!(first(PlatformId::WESTMERE_EX), "inc_sel=0xd,fvc=0x5000");
}

#[test]
fn line_counts_are_reported_in_mib() {
    let mut seen = 0;
    for p in ALL {
        for t in p.types {
            for a in aliases(p.id, t.kind) {
                assert_eq!(a.scale.is_some(), a.unit.is_some(), "{}", a.name);
                if a.scale.is_some() {
                    assert_eq!((a.scale, a.unit), (Some(SCALE_64B_MIB), Some("MiB")));
                    seen += 1;
                }
                let line_count = match (p.id, t.name()) {
                    (PlatformId::SANDY_BRIDGE_EP | PlatformId::IVY_BRIDGE_EP, "imc") => {
                        a.name.starts_with("cas_count")
                    }
                    (PlatformId::SKYLAKE, "imc") => a.name.contains("data_"),
                    (PlatformId::NEHALEM_EX | PlatformId::WESTMERE_EX, "mbox") => {
                        a.name.ends_with("bbox_cmds.reads") || a.name.ends_with("bbox_cmds.writes")
                    }
                    _ => false,
                };
                if line_count {
                    assert!(
                        a.scale.is_some(),
                        "{}/{}/{} not in MiB",
                        p.name,
                        t.name(),
                        a.name
                    );
                }
            }
        }
    }
    assert!(seen > 100);
}

#[test]
fn cbox_filter_events_carry_their_filters() {
    // Filter slots (encode.rs): SNB-EP 1 NID, 2 STATE, 3 OPC; IVB-EP 2 STATE,
    // 3 NID, 4 OPC (IVB-EP slot 1, LINK, has no default).
    type Slots = [(u8, &'static str); 3];
    let snbep: Slots = [(1, "filter_nid"), (2, "filter_state"), (3, "filter_opc")];
    let ivbep: Slots = [(3, "filter_nid"), (2, "filter_state"), (4, "filter_opc")];
    let cases = [
        (PlatformId::SANDY_BRIDGE_EP, false, snbep),
        (PlatformId::IVY_BRIDGE_EP, true, ivbep),
    ];
    for (id, ivbep, slots) in cases {
        let (t, cat) = catalog(id, "cbox");
        let mut filtered = 0;
        for a in &cat {
            let attr = attr_of(t, a);
            let filter = if ivbep {
                &platforms::ivbep::special::CBOX_FILTER
            } else {
                &platforms::snbep::special::CBOX_FILTER
            };
            let used = filter.fields_used(attr.config & 0xffff);
            for (slot, name) in slots {
                let needs = used & (1 << slot) != 0;
                assert_eq!(
                    field(t, &attr, name) != 0,
                    needs,
                    "{:?}/{}: {}",
                    id,
                    a.name,
                    name
                );
                filtered += u32::from(needs);
            }
        }
        assert!(filtered > 20, "{:?}", id);
    }
}

#[test]
fn pcu_band_and_qpi_match_events_carry_their_values() {
    for id in [PlatformId::SANDY_BRIDGE_EP, PlatformId::IVY_BRIDGE_EP] {
        let (t, cat) = catalog(id, "pcu");
        for a in &cat {
            let attr = attr_of(t, a);
            let ev = field(t, &attr, "event");
            if (0xb..=0xe).contains(&ev) {
                let band = std::format!("filter_band{}", ev - 0xb);
                assert_ne!(field(t, &attr, &band), 0, "{:?}/{}", id, a.name);
            }
        }
        let (t, cat) = catalog(id, "qpi");
        let msgs = cat
            .iter()
            .filter(|a| a.name.starts_with("message."))
            .count();
        assert!(msgs >= 30, "{:?}", id);
        for a in cat.iter().filter(|a| a.name.starts_with("message.")) {
            let attr = attr_of(t, a);
            assert_eq!(field(t, &attr, "event"), 0x138, "{}", a.name);
            assert_ne!(field(t, &attr, "mask0"), 0, "{}", a.name);
        }
    }
}

/// 325294-001 Table 2-8, without the four codes above 0xff (see `nhmex`).
const NHMEX_UBOX: &[u64] = &[
    0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x50, 0x51, 0xf8, 0xf9,
];

/// 325294-001 Table 2-15.
const NHMEX_CBOX: &[u64] = &[
    0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0e, 0x10, 0x11, 0x12,
    0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x21, 0x22, 0x23,
    0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d, 0x2e, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36,
    0x37, 0x38, 0x39, 0x3a, 0x3b, 0x3c,
];

/// 325294-001 Table 2-24, as (counter, code); counter 3's `COHQ_BYPASS`
/// (0x0e) is from the event list of section 2.4.6.
const NHMEX_BBOX: &[(u64, u64)] = &[
    (0, 0x01),
    (0, 0x02),
    (0, 0x03),
    (0, 0x04),
    (0, 0x05),
    (0, 0x06),
    (0, 0x07),
    (0, 0x09),
    (0, 0x0b),
    (0, 0x0d),
    (0, 0x0f),
    (0, 0x12),
    (0, 0x17),
    (0, 0x1c),
    (1, 0x01),
    (1, 0x02),
    (1, 0x03),
    (1, 0x04),
    (1, 0x05),
    (1, 0x06),
    (1, 0x07),
    (1, 0x09),
    (1, 0x0a),
    (1, 0x0b),
    (1, 0x0c),
    (1, 0x0d),
    (1, 0x0e),
    (1, 0x0f),
    (1, 0x10),
    (1, 0x12),
    (1, 0x17),
    (1, 0x1c),
    (1, 0x1d),
    (1, 0x1f),
    (2, 0x01),
    (2, 0x02),
    (2, 0x03),
    (2, 0x04),
    (2, 0x07),
    (3, 0x02),
    (3, 0x06),
    (3, 0x0e),
    (3, 0x0f),
    (3, 0x12),
    (3, 0x13),
    (3, 0x14),
    (3, 0x15),
    (3, 0x16),
    (3, 0x17),
    (3, 0x19),
];

/// 325294-001 Table 2-37, without `TO_R_PROG_EV` (0x00), which is in
/// `nhmex::SBOX_PROG_EV` (its match/mask aliases).
const NHMEX_SBOX: &[u64] = &[
    0x03, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x12, 0x13, 0x14,
    0x15, 0x16, 0x20, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d,
    0x2e, 0x2f, 0x30, 0x31, 0x40, 0x41, 0x42, 0x43, 0x50, 0x51, 0x52, 0x53, 0x54, 0x60, 0x62, 0x63,
    0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76,
    0x77, 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e,
    0x8f, 0x90,
];

/// 325294-001 Table 2-84: `inc_sel` codes (flag_mode 0), then `set_flag_sel`
/// codes (flag_mode 1), as (flag_mode, code).
const NHMEX_MBOX: &[(u64, u64)] = &[
    (0, 0x00),
    (0, 0x01),
    (0, 0x02),
    (0, 0x03),
    (0, 0x04),
    (0, 0x05),
    (0, 0x06),
    (0, 0x07),
    (0, 0x08),
    (0, 0x09),
    (0, 0x0a),
    (0, 0x0b),
    (0, 0x0c),
    (0, 0x0d),
    (0, 0x0e),
    (0, 0x0f),
    (0, 0x10),
    (0, 0x11),
    (0, 0x12),
    (0, 0x13),
    (0, 0x14),
    (0, 0x15),
    (0, 0x16),
    (0, 0x17),
    (0, 0x18),
    (0, 0x19),
    (0, 0x1a),
    (0, 0x1b),
    (0, 0x1c),
    (0, 0x1d),
    (1, 0x0),
    (1, 0x1),
    (1, 0x3),
    (1, 0x4),
    (1, 0x5),
    (1, 0x6),
];

/// 325294-001 Table 2-54, RIX events: the `IPERF_CFG` bits each needs
/// (`mask`) and must have there (`value`; `None` for "any non-zero value").
const NHMEX_RBOX_RIX: &[(&str, u64, Option<u64>)] = &[
    ("NEW_PACKETS_RECV", 0x3f, None),
    ("INQUE_READ_WIN", 1 << 8, Some(1 << 8)),
    ("ALLOC_TO_ARB", 0x7f << 9, None),
    ("EOT_NE_CYCLES", 1 << 16, Some(1 << 16)),
    ("EOT_OCCUPANCY", 1 << 21, Some(0)),
    ("EOT_INSERTS", 1 << 21, Some(1 << 21)),
    ("FLITS_RECV_ERR", 1 << 24, Some(1 << 24)),
    ("FLITS_RECV_SPEC", 1 << 25, Some(1 << 25)),
    ("OUTPUTQ_NE", 1 << 26, Some(1 << 26)),
    ("OUTPUTQ_OVFL", 1 << 27, Some(1 << 27)),
    ("RETRYQ_NE", 1 << 28, Some(1 << 28)),
    ("RETRYQ_OV", 1 << 29, Some(1 << 29)),
    ("NULL_IDLE", 1 << 30, Some(1 << 30)),
    ("FLITS_SENT", 1 << 31, Some(1 << 31)),
];

/// 325294-001 Table 2-54, QLX events: `QLX_CFG` event type (bits 3:0).
const NHMEX_RBOX_QLX: &[u64] = &[0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x9, 0xa];

/// 325294-001 Table 2-101, and the fixed counter (0xff).
const NHMEX_WBOX: &[u64] = &[0x00, 0x01, 0x02, 0x03, 0x04, 0x07, 0x08, 0xff];

#[test]
fn nhmex_coverage() {
    for id in [PlatformId::NEHALEM_EX, PlatformId::WESTMERE_EX] {
        assert_codes(id, "ubox", NHMEX_UBOX);
        assert_codes(id, "cbox", NHMEX_CBOX);
        assert_codes(id, "sbox", NHMEX_SBOX);
        assert_codes(id, "wbox", NHMEX_WBOX);

        let have = field_pairs(id, "bbox", "counter", "event");
        for c in NHMEX_BBOX {
            assert!(have.contains(c), "{:?} bbox: missing {:x?}", id, c);
        }

        let (t, cat) = catalog(id, "mbox");
        let have: BTreeSet<_> = cat
            .iter()
            .map(|a| {
                let attr = attr_of(t, a);
                match field(t, &attr, "flag_mode") {
                    0 => (0, field(t, &attr, "inc_sel")),
                    _ => (1, field(t, &attr, "set_flag_sel")),
                }
            })
            .collect();
        for c in NHMEX_MBOX {
            assert!(have.contains(c), "{:?} mbox: missing {:x?}", id, c);
        }

        // Every R-box event on each of the four ports of a PMU.
        let (t, cat) = catalog(id, "rbox");
        let subs: Vec<(u64, u64, u64)> = cat
            .iter()
            .map(|a| {
                let attr = attr_of(t, a);
                let ev = field(t, &attr, "event");
                (ev / 6, ev % 6, attr.config1)
            })
            .collect();
        for port in 0..4 {
            let iperf = || {
                subs.iter()
                    .filter(move |s| s.0 == port && s.1 < 2)
                    .map(|s| s.2)
            };
            for &(name, mask, value) in NHMEX_RBOX_RIX {
                let hit = iperf().any(|v| match value {
                    Some(x) => v & mask == x && (x != 0 || v & (0xf << 17) != 0),
                    None => v & mask != 0,
                });
                assert!(hit, "{:?} rbox port {}: missing {}", id, port, name);
            }
            for &ty in NHMEX_RBOX_QLX {
                let hit = subs
                    .iter()
                    .any(|s| s.0 == port && s.1 == 2 && s.2 & 0xf == ty);
                assert!(
                    hit,
                    "{:?} rbox port {}: missing QLX type {:#x}",
                    id, port, ty
                );
            }
        }
    }
}

/// Every alias of every instance's tables (`parts`) applies with the
/// format parser (64-bit match/mask fields included) and encodes at that
/// instance; names are unique across an instance's tables.
#[test]
fn every_instance_alias_applies_and_encodes() {
    for p in ALL {
        for t in p.types {
            for i in 0..t.num_boxes as usize {
                let mut names = BTreeSet::new();
                for a in instance_aliases(p.id, t, i) {
                    assert!(
                        names.insert(a.name),
                        "{}/{}{}: {} twice",
                        p.name,
                        t.name(),
                        i,
                        a.name
                    );
                    let attr = attr_of(t, &a);
                    encode(t, i, attr).unwrap_or_else(|e| {
                        panic!("{}/{}{}: {}: {}", p.name, t.name(), i, a.name, e)
                    });
                }
            }
        }
    }
}

/// S-box TO_R_PROG_EV (Tables 2-33..2-35) and the R-box message events of
/// Table 2-53 use their 64-bit match/mask registers.
#[test]
fn wide_match_mask_aliases_encode() {
    for id in [PlatformId::NEHALEM_EX, PlatformId::WESTMERE_EX] {
        for (name, wide, count) in [
            ("sbox", nhmex::SBOX_PROG_EV, 43),
            ("rbox", nhmex::RBOX_XBAR, 44),
        ] {
            let (t, cat) = catalog(id, name);
            let wide = all(wide);
            assert_eq!(wide.len(), count);
            for a in &wide {
                assert!(cat.iter().all(|c| c.name != a.name), "{}", a.name);
                let attr = attr_of(t, a);
                let e = encode(t, 0, attr).unwrap_or_else(|e| panic!("{}: {}", a.name, e));
                assert!(
                    !e.shared.is_none(),
                    "{}: uses its match/mask registers",
                    a.name
                );
                assert_ne!(attr.config2, 0, "{}: has a mask", a.name);
            }
        }
        // Table 2-53: eleven message events on each of the four ports.
        let (t, _) = catalog(id, "rbox");
        for port in 0..4 {
            let n = each(nhmex::RBOX_XBAR)
                .filter(|a| field(t, &attr_of(t, a), "event") == 6 * port + 4)
                .count();
            assert_eq!(n, 11, "port {}", port);
        }
    }
}

/// 325294 Table 2-40: R-box port 0 is QPI1 and port 1 QPI0 (`rbox_0`,
/// events 0x0 and 0x6), ports 4 and 5 are QPI2 and QPI3 (`rbox_1`). The
/// link-named aliases follow the table; the Linux driver's `qpi0_*` and
/// `qpi1_*` stay as compatibility spellings of ports 0 and 1.
#[test]
fn rbox_link_aliases_follow_the_port_map() {
    for id in [PlatformId::NEHALEM_EX, PlatformId::WESTMERE_EX] {
        let (t, _) = catalog(id, "rbox");
        let ev = |index: usize, name: &str| {
            let a = parts(id, BoxKind::Rbox, index)
                .into_iter()
                .flat_map(each)
                .find(|a| a.name == name)
                .unwrap_or_else(|| panic!("rbox_{} has no {}", index, name));
            field(t, &attr_of(t, &a), "event")
        };
        assert_eq!(ev(0, "qpi1.flit_send"), 0x0);
        assert_eq!(ev(0, "qpi0.flit_send"), 0x6);
        assert_eq!(ev(1, "qpi2.flit_send"), 0x0);
        assert_eq!(ev(1, "qpi3.flit_send"), 0x6);
        // The compatibility spellings: the driver's qpi0 is port 0 (QPI1).
        assert_eq!(ev(0, "qpi0_flit_send"), ev(0, "qpi1.flit_send"));
        assert_eq!(ev(0, "qpi1_filt_send"), ev(0, "qpi0.flit_send"));
        // rbox_0 has no QPI2/QPI3 and rbox_1 no QPI0/QPI1 link names.
        for (index, absent) in [(0, "qpi2.flit_send"), (1, "qpi1.flit_send")] {
            assert!(parts(id, BoxKind::Rbox, index)
                .into_iter()
                .flat_map(each)
                .all(|a| a.name != absent));
        }
    }
}

/// 334060-001 Table 3-1 (CBo) as (code, umask), and the fixed UCLK counter
/// of Table 3-2 (`UNC_CLOCK.SOCKET`).
const SKL_CBOX: &[(u64, u64)] = &[
    (0x22, 0x41),
    (0x22, 0x81),
    (0x22, 0x44),
    (0x22, 0x48),
    (0x34, 0x21),
    (0x34, 0x81),
    (0x34, 0x18),
    (0x34, 0x88),
    (0x34, 0x1f),
    (0x34, 0x2f),
    (0x34, 0x8f),
    (0x34, 0x86),
    (0x34, 0x16),
    (0x34, 0x26),
    (0xff, 0x00),
];

/// 334060-001 Table 3-2 (ARB) as (code, umask).
const SKL_ARB: &[(u64, u64)] = &[(0x80, 0x01), (0x81, 0x01), (0x81, 0x20), (0x84, 0x01)];

/// 334060-001 Table 3-3: the five IMC counters, selected as 1..5.
const SKL_IMC: &[u64] = &[1, 2, 3, 4, 5];

#[test]
fn skl_coverage() {
    for (name, want) in [("cbox", SKL_CBOX), ("arb", SKL_ARB)] {
        let have = field_pairs(PlatformId::SKYLAKE, name, "event", "umask");
        for c in want {
            assert!(have.contains(c), "skl {}: missing {:x?}", name, c);
        }
    }
    assert_codes(PlatformId::SKYLAKE, "imc", SKL_IMC);
}

#[test]
fn l3_coverage() {
    // SDM Vol. 3B 18.21.4.1: FSB sub-event bits 38-57, one alias each.
    for id in [PlatformId::XEON_7100, PlatformId::XEON_7400] {
        let (t, cat) = catalog(id, "fsb");
        let have: BTreeSet<_> = cat.iter().map(|a| attr_of(t, a).config).collect();
        for bit in 38..=57 {
            assert!(have.contains(&(1u64 << bit)), "{:?} fsb: bit {}", id, bit);
        }
    }
}

/// A box type's name and the event codes its catalog must have.
type BoxCodes = (&'static str, &'static [u64]);

/// The SNB-EP and IVB-EP tables, box by box.
#[test]
fn snbep_ivbep_coverage() {
    let tables: [(PlatformId, &[BoxCodes]); 2] = [
        (
            PlatformId::SANDY_BRIDGE_EP,
            &[
                ("ubox", SNBEP_UBOX),
                ("cbox", SNBEP_CBOX),
                ("pcu", SNBEP_PCU),
                ("ha", SNBEP_HA),
                ("imc", SNBEP_IMC),
                ("qpi", SNBEP_QPI),
                ("r2pcie", SNBEP_R2PCIE),
                ("r3qpi", SNBEP_R3QPI),
            ],
        ),
        (
            PlatformId::IVY_BRIDGE_EP,
            &[
                ("ubox", IVBEP_UBOX),
                ("cbox", IVBEP_CBOX),
                ("pcu", IVBEP_PCU),
                ("ha", IVBEP_HA),
                ("imc", IVBEP_IMC),
                ("irp", IVBEP_IRP),
                ("qpi", IVBEP_QPI),
                ("r2pcie", IVBEP_R2PCIE),
                ("r3qpi", IVBEP_R3QPI),
            ],
        ),
    ];
    for (id, boxes) in tables {
        for &(name, codes) in boxes {
            assert_codes(id, name, codes);
        }
    }
}

/// `ubox` event codes of the jaketown rows of pmu-events.tsv.
/// Without the extended-select codes 0x145-0x147 (left out, see `snbep`).
const SNBEP_UBOX: &[u64] = &[0x0, 0x41, 0x42, 0x43, 0x44];
/// `cbox` event codes of the jaketown rows of pmu-events.tsv.
const SNBEP_CBOX: &[u64] = &[
    0x0, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x11, 0x12, 0x13, 0x14, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x21,
    0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x39,
];
/// `pcu` event codes of the jaketown rows of pmu-events.tsv.
const SNBEP_PCU: &[u64] = &[
    0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe, 0x1e, 0x1f, 0x20, 0x21,
    0x22, 0x23, 0x24, 0x25, 0x2f, 0x32, 0x80, 0x100, 0x101, 0x102, 0x103, 0x104, 0x105, 0x106,
    0x107, 0x108, 0x109, 0x10a, 0x10b,
];
/// `ha` event codes of the jaketown rows of pmu-events.tsv.
const SNBEP_HA: &[u64] = &[
    0x0, 0x1, 0x6, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x18, 0x19,
    0x1a, 0x1b, 0x1c, 0x1e, 0x22, 0x27, 0x28, 0x29, 0x2a, 0x2f, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35,
    0x36, 0x3e, 0x3f, 0x40,
];
/// `imc` event codes of the jaketown rows of pmu-events.tsv.
const SNBEP_IMC: &[u64] = &[
    0x0, 0x1, 0x2, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0x10, 0x11, 0x12, 0x20, 0x21, 0x22, 0x23, 0x24,
    0x41, 0x43, 0x80, 0x81, 0x83, 0x84, 0x85, 0x86,
];
/// `qpi` event codes of the jaketown rows of pmu-events.tsv.
const SNBEP_QPI: &[u64] = &[
    0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xf, 0x10, 0x12, 0x13,
    0x14, 0x35, 0x100, 0x101, 0x102, 0x103, 0x109, 0x10a, 0x10b, 0x10c, 0x10d, 0x10e, 0x115, 0x116,
    0x117, 0x118, 0x119, 0x11a, 0x11b, 0x11c, 0x11d, 0x11e, 0x138,
];
/// `r2pcie` event codes of the jaketown rows of pmu-events.tsv.
const SNBEP_R2PCIE: &[u64] = &[
    0x1, 0x7, 0x8, 0x9, 0xa, 0x10, 0x12, 0x23, 0x25, 0x26, 0x32, 0x33, 0x34,
];
/// `r3qpi` event codes of the jaketown rows of pmu-events.tsv.
const SNBEP_R3QPI: &[u64] = &[
    0x1, 0x7, 0x8, 0x9, 0xa, 0x10, 0x11, 0x12, 0x13, 0x20, 0x21, 0x22, 0x31, 0x32, 0x33, 0x34,
    0x36, 0x37,
];
/// `ubox` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_UBOX: &[u64] = &[0x0, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46];
/// `cbox` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_CBOX: &[u64] = &[
    0x0, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x11, 0x12, 0x13, 0x14, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x31,
    0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x39, 0x3c,
];
/// `pcu` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_PCU: &[u64] = &[
    0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe, 0x1e, 0x1f, 0x20, 0x21,
    0x22, 0x23, 0x24, 0x25, 0x2f, 0x32, 0x40, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x60, 0x61, 0x62,
    0x63, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x7b, 0x7c, 0x7d, 0x7e,
    0x80, 0x117, 0x118, 0x119, 0x11a, 0x11b, 0x11c, 0x11d, 0x11e, 0x11f, 0x120, 0x121, 0x122,
    0x123, 0x124, 0x125, 0x126, 0x12a, 0x12b, 0x12c, 0x12d,
];
/// `ha` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_HA: &[u64] = &[
    0x0, 0x1, 0x3, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18,
    0x19, 0x1a, 0x1b, 0x1c, 0x1e, 0x21, 0x22, 0x27, 0x28, 0x29, 0x2a, 0x2f, 0x30, 0x31, 0x32, 0x33,
    0x34, 0x35, 0x36, 0x3e, 0x3f, 0x40, 0x41, 0x42, 0x43, 0x51, 0x52, 0x53, 0x54, 0x56, 0x57, 0x58,
    0x59, 0x5a, 0x60,
];
/// `imc` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_IMC: &[u64] = &[
    0x0, 0x1, 0x2, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0x10, 0x11, 0x20, 0x21, 0x22, 0x23, 0x24, 0x41,
    0x42, 0x43, 0x83, 0x84, 0x85, 0x86, 0x90, 0x91, 0xa0, 0xa1, 0xb0, 0xb1, 0xb2, 0xb3, 0xb4, 0xb5,
    0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xbb, 0xbc, 0xbd, 0xbe, 0xbf, 0xc0, 0xc1,
];
/// `irp` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_IRP: &[u64] = &[
    0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xe, 0xf, 0x10, 0x11,
    0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1a,
];
/// `qpi` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_QPI: &[u64] = &[
    0x0, 0x1, 0x2, 0x3, 0x4, 0x5, 0x6, 0x7, 0x8, 0x9, 0xa, 0xb, 0xc, 0xd, 0xf, 0x10, 0x12, 0x13,
    0x14, 0x100, 0x101, 0x102, 0x103, 0x109, 0x10a, 0x10b, 0x10c, 0x10d, 0x10e, 0x10f, 0x110,
    0x111, 0x112, 0x113, 0x114, 0x115, 0x116, 0x117, 0x118, 0x119, 0x11a, 0x11b, 0x11c, 0x11d,
    0x11e, 0x11f, 0x120, 0x121, 0x122, 0x123, 0x124, 0x125, 0x126, 0x127, 0x128, 0x129, 0x12a,
    0x12b, 0x12c, 0x135, 0x138, 0x139, 0x13a,
];
/// `r2pcie` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_R2PCIE: &[u64] = &[
    0x1, 0x7, 0x8, 0x9, 0xa, 0x10, 0x11, 0x12, 0x13, 0x23, 0x25, 0x26, 0x28, 0x32, 0x33, 0x34,
];
/// `r3qpi` event codes of the ivytown rows of pmu-events.tsv.
const IVBEP_R3QPI: &[u64] = &[
    0x1, 0x7, 0x8, 0x9, 0xa, 0x10, 0x11, 0x12, 0x13, 0x26, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2d,
    0x2e, 0x2f, 0x31, 0x32, 0x33, 0x34, 0x36, 0x37, 0x38, 0x39,
];

/// Every instance alias opens where `event_init` would take it: a QPI
/// match/mask event only on a port with a match/mask device. Ivy Bridge-EP's
/// third port has none (the Linux driver lists filter devices for ports 0
/// and 1 only), so its `events/` lacks them while ports 0 and 1 keep them.
#[test]
fn qpi_match_mask_aliases_only_where_the_port_has_the_device() {
    for p in ALL {
        for t in p.types.iter().filter(|t| t.special.helper_device()) {
            for i in 0..t.num_boxes as usize {
                let has_device = crate::hw::pci::qpi_filter_device(p.id, i as u8).is_some();
                let with_match = instance_aliases(p.id, t, i)
                    .filter(|a| {
                        let e = encode(t, i, attr_of(t, a)).unwrap();
                        !e.shared.is_none()
                    })
                    .count();
                if has_device {
                    assert!(
                        with_match > 0,
                        "{}/{}{}: no match/mask aliases",
                        p.name,
                        t.name(),
                        i
                    );
                } else {
                    assert_eq!(
                        with_match,
                        0,
                        "{}/{}{}: match/mask aliases",
                        p.name,
                        t.name(),
                        i
                    );
                }
                // The port's other events stay (Haswell-EP's QPI PMUs have
                // no `drs_data` of the C driver's; every port has
                // `clockticks`).
                assert!(instance_aliases(p.id, t, i).any(|a| a.name == "clockticks"));
            }
        }
    }
    let ivb = crate::hw::platforms::by_id(PlatformId::IVY_BRIDGE_EP);
    let qpi = ivb.types.iter().find(|t| t.name() == "qpi").unwrap();
    assert_eq!(qpi.num_boxes, 3);
    assert!(crate::hw::pci::qpi_filter_device(PlatformId::IVY_BRIDGE_EP, 2).is_none());
}

/// The catalog's rule for events that need a match/mask value: the B-box
/// `*_match` events carry one (the registers' reset values).
#[test]
fn bbox_match_events_carry_match_and_mask() {
    let mut seen = 0;
    for a in each(nhmex::BBOX).filter(|a| a.name.ends_with("_match")) {
        seen += 1;
        let text = a.terms.to_string();
        let terms: std::vec::Vec<&str> = text.split(',').collect();
        assert!(
            terms.iter().any(|t| t.starts_with("match="))
                && terms.iter().any(|t| t.starts_with("mask=")),
            "{}: {}",
            a.name,
            a.terms
        );
    }
    assert!(seen > 0, "no B-box match events");
}

/// Every data line of every catalog file (`src/hw/catalog/*/*.tsv`), as
/// (name, terms, scale, unit), read from the files themselves.
fn tsv_lines() -> BTreeSet<Line> {
    use std::path::Path;
    let top = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/hw/catalog");
    let mut lines = BTreeSet::new();
    let mut files = 0;
    for dir in std::fs::read_dir(&top).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_none_or(|e| e != "tsv") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&file).unwrap();
            for line in text
                .lines()
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
            {
                let f: Vec<&str> = line.split('\t').collect();
                let mib = f.get(2) == Some(&"mib");
                lines.insert((
                    f[0].to_string(),
                    f[1].to_string(),
                    mib.then_some(SCALE_64B_MIB),
                    mib.then_some("MiB"),
                ));
            }
        }
    }
    assert!(files >= 40, "{} catalog files", files);
    lines
}

/// The packed catalogs give back their files byte for byte: every alias of
/// every table of every box type (catalog, part, wide and instance tables)
/// is a line of a catalog file or an alias a platform table carries as
/// text, and every line of every catalog file is served by some table. So
/// the aliases carried from the C driver (`umask=0x00`, leading zeros)
/// keep their text, and terms with value 0 stay in the list.
#[test]
fn packed_catalogs_give_back_their_files() {
    let lines = tsv_lines();
    let mut served = BTreeSet::new();
    let mut count = 0;
    for p in ALL {
        for t in p.types {
            let carried: BTreeSet<_> = all(t.aliases).iter().map(text).collect();
            let mut tables = std::vec![t.catalog, t.part_catalog, t.wide_catalog];
            tables.extend(t.instance_catalogs);
            for a in tables.into_iter().flat_map(each) {
                let (name, terms, scale, unit) = text(&a);
                let line = (name.to_string(), terms, scale, unit);
                assert!(
                    lines.contains(&line) || carried.contains(&text(&a)),
                    "{}/{}: {:?} is in no catalog file",
                    p.name,
                    t.name(),
                    line
                );
                served.insert(line);
                count += 1;
            }
        }
    }
    let unserved: Vec<_> = lines.difference(&served).collect();
    assert!(
        unserved.is_empty(),
        "catalog lines no table serves: {:?}",
        unserved
    );
    assert!(count > 4000, "{} aliases", count);
}

/// The terms of every alias of every instance give the same configuration
/// words two ways: the packed tokens applied, and the text they are shown
/// as (which is a catalog file's line, byte for byte) parsed as perf
/// parses it.
#[test]
fn packed_terms_round_trip_to_the_same_words() {
    let lines: BTreeSet<(String, String)> = tsv_lines()
        .into_iter()
        .map(|(name, terms, _, _)| (name, terms))
        .collect();
    let mut checked = 0;
    for p in ALL {
        for t in p.types {
            for i in 0..t.num_boxes as usize {
                for a in instance_aliases(p.id, t, i) {
                    let shown = a.terms.to_string();
                    let mut from_tokens = Attr::default();
                    a.terms.apply(t, &mut from_tokens).unwrap();
                    let mut from_text = Attr::default();
                    terms::parse(t, &shown, &mut from_text).unwrap();
                    assert_eq!(
                        from_tokens,
                        from_text,
                        "{}/{}: {}",
                        p.name,
                        t.name(),
                        a.name
                    );
                    if let Terms::Packed(_) = a.terms {
                        assert!(
                            lines.contains(&(a.name.to_string(), shown.clone())),
                            "{}/{}: {} {} is no catalog line",
                            p.name,
                            t.name(),
                            a.name,
                            shown
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 4000, "{} packed aliases", checked);
}

/// What the packing keeps: term order, leading zeros, explicit zero
/// values (which override a default), decimal values, a term without a
/// value, a term name outside the short list, 64-bit values, and the MiB
/// scale and unit.
#[test]
fn packing_keeps_the_text() {
    const TABLE: &[Alias] = tsv!(
        "# a comment\n\
         a.b\tumask=0x00,event=0x04\n\
         \n\
         c\tcounter=0,thr=12,edge\tmib\n\
         d\tsome_field=0x0,mask0=0xffffffffffffffff,match1=18446744073709551615\n\
         e\t\n"
    );
    let got: Vec<_> = each(TABLE).map(|a| text(&a)).collect();
    let want = [
        ("a.b", "umask=0x00,event=0x04", None, None),
        (
            "c",
            "counter=0,thr=12,edge",
            Some(SCALE_64B_MIB),
            Some("MiB"),
        ),
        (
            "d",
            "some_field=0x0,mask0=0xffffffffffffffff,match1=18446744073709551615",
            None,
            None,
        ),
        ("e", "", None, None),
    ];
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert_eq!((g.0, g.1.as_str(), g.2, g.3), w);
    }
    let a = each(TABLE).next().unwrap();
    assert_eq!(a.terms.value("umask"), Some(0));
    assert_eq!(a.terms.value("event"), Some(4));
    assert_eq!(a.terms.value("edge"), None);
    let c = each(TABLE).nth(1).unwrap();
    assert_eq!(c.terms.value("edge"), Some(1));
    assert_eq!(c.terms.value("thr"), Some(12));
    let d = each(TABLE).nth(2).unwrap();
    assert_eq!(d.terms.value("match1"), Some(u64::MAX));
    // The names are NUL-terminated where they are stored, and the same
    // bytes as the name.
    for a in each(TABLE) {
        let c = a.c_name().unwrap();
        assert_eq!(c.to_bytes(), a.name.as_bytes());
        assert_eq!(c.to_bytes().as_ptr(), a.name.as_ptr());
    }
    const TEXT: &[Alias] = &[Alias::plain("x", "event=1")];
    assert!(each(TEXT).all(|a| a.c_name().is_none()));
}

/// Haswell-EP's catalog is perf's haswellx uncore tables: 1290 events
/// (1292 aliases with the Linux driver's two iMC CAS aliases, its
/// `clockticks` being perf's `UNC_M_CLOCKTICKS`), per box type as perf
/// counts them, encoded as perf encodes them.
#[test]
fn hsx_catalog_is_perfs_haswellx_tables() {
    let id = PlatformId::HASWELL_EP;
    let want = [
        ("ubox", 16),
        ("cbox", 180),
        ("sbox", 79),
        ("pcu", 62),
        ("ha", 218),
        ("imc", 327),
        ("irp", 55),
        ("qpi", 149),
        ("r2pcie", 59),
        ("r3qpi", 147),
    ];
    let mut total = 0;
    for (name, n) in want {
        let (_, cat) = catalog(id, name);
        assert_eq!(cat.len(), n, "hsx/{name}");
        total += n;
    }
    assert_eq!(total, 1292);
    let find = |name: &str, alias: &str| {
        let (t, cat) = catalog(id, name);
        let a = cat.iter().find(|a| a.name == alias).unwrap();
        (t, *a)
    };
    // perf's Filter terms are kept, a thread filter without tid_en is not.
    let (t, a) = find("cbox", "llc_lookup.any");
    assert_eq!(
        a.terms.to_string(),
        "event=0x34,umask=0x11,filter_state=0x1"
    );
    assert_eq!(field(t, &attr_of(t, &a), "filter_state"), 1);
    let (t, a) = find("cbox", "llc_misses.pcie_non_snoop_write");
    assert_eq!(a.terms.to_string(), "event=0x35,umask=0x3,filter_opc=0x1c8");
    assert_eq!(a.unit, Some("MiB"));
    assert_eq!(field(t, &attr_of(t, &a), "filter_opc"), 0x1c8);
    let (t, a) = find("cbox", "llc_misses.mmio_read");
    assert_eq!(field(t, &attr_of(t, &a), "filter_nc"), 1);
    // perf's 64Bytes scale: MiB here.
    let (_, a) = find("imc", "llc_misses.mem_read");
    assert_eq!(
        (a.terms.to_string().as_str(), a.unit),
        ("event=0x4,umask=0x3", Some("MiB"))
    );
    let (_, a) = find("imc", "cas_count.rd");
    assert_eq!(
        (a.terms.to_string().as_str(), a.unit),
        ("event=0x4,umask=0x3", None)
    );
    // An event perf gives no code counts event 0 (jevents.py's default).
    let (_, a) = find("ubox", "clockticks");
    assert_eq!(a.terms.to_string(), "event=0x0");
    let (t, a) = find("pcu", "power_state_occupancy.cores_c0");
    assert_eq!(field(t, &attr_of(t, &a), "occ_sel"), 1);
}

/// Broadwell-EP's and Broadwell-DE's catalogs are perf's broadwellx and
/// broadwellde uncore tables (1298 and 893 events; broadwellx's two QPI
/// bandwidth events in 8-byte units left out, the Linux driver's iMC
/// aliases added), per box type as perf counts them.
#[test]
fn bdx_catalogs_are_perfs_broadwell_tables() {
    /// A platform, its name, its box types' alias counts and their sum.
    type Want = (
        PlatformId,
        &'static str,
        &'static [(&'static str, usize)],
        usize,
    );
    let want: [Want; 2] = [
        (
            PlatformId::BROADWELL_X,
            "bdx",
            &[
                ("ubox", 16),
                ("cbox", 179),
                ("pcu", 57),
                ("sbox", 82),
                ("ha", 220),
                ("imc", 328),
                ("irp", 55),
                ("qpi", 149),
                ("r2pcie", 62),
                ("r3qpi", 150),
            ],
            1298,
        ),
        (
            PlatformId::BROADWELL_DE,
            "bdxde",
            &[
                ("ubox", 15),
                ("cbox", 162),
                ("pcu", 57),
                ("ha", 220),
                ("imc", 325),
                ("irp", 55),
                ("r2pcie", 62),
            ],
            896,
        ),
    ];
    for (id, p, boxes, n) in want {
        let mut total = 0;
        for &(name, k) in boxes {
            let (_, cat) = catalog(id, name);
            assert_eq!(cat.len(), k, "{p}/{name}");
            total += k;
        }
        assert_eq!(total, n, "{p}");
        let has_sbox = platforms::by_id(id).box_type("sbox").is_some();
        assert_eq!(has_sbox, p == "bdx");
    }
    let find = |id, name: &str, alias: &str| {
        let (t, cat) = catalog(id, name);
        let a = cat.iter().find(|a| a.name == alias).unwrap();
        (t, *a)
    };
    // perf's broadwellde gives LLC_LOOKUP.ANY no state filter (the catalog
    // adds every state); broadwellx gives it one.
    let (_, a) = find(PlatformId::BROADWELL_DE, "cbox", "llc_lookup.any");
    assert_eq!(
        a.terms.to_string(),
        "event=0x34,umask=0x11,filter_state=0x7f"
    );
    let (t, a) = find(PlatformId::BROADWELL_X, "cbox", "llc_lookup.any");
    assert_eq!(field(t, &attr_of(t, &a), "filter_state"), 1);
    let (_, a) = find(PlatformId::BROADWELL_X, "imc", "cas_count_read");
    assert_eq!(a.unit, Some("MiB"));
    assert!(catalog(PlatformId::BROADWELL_X, "qpi")
        .1
        .iter()
        .all(|a| !a.name.ends_with("bandwidth_tx")));
}

/// Every catalog alias that a precondition row of its platform applies to
/// carries the filter fields the row needs, so that it counts as named:
/// perf's haswellx, broadwellx and broadwellde tables give most such
/// events no filter term (`UNC_C_LLC_LOOKUP.DATA_READ` with no line state
/// counts nothing), and their catalogs add IVB-EP's defaults.
#[cfg(feature = "sim")]
#[test]
fn precondition_events_carry_their_filters() {
    use crate::hw::model::precond::{applies, NID, OPC, STATE};
    let mut checked = 0;
    for p in ALL.iter() {
        let table = p.sim.preconditions;
        for t in p.types {
            for a in aliases(p.id, t.kind) {
                let attr = attr_of(t, &a);
                let needs = table
                    .iter()
                    .filter(|r| applies(r, t.kind, attr.config))
                    .fold(0, |x, r| x | r.needs);
                for (bit, f) in [
                    (STATE, "filter_state"),
                    (NID, "filter_nid"),
                    (OPC, "filter_opc"),
                ] {
                    if needs & bit != 0 {
                        assert_ne!(field(t, &attr, f), 0, "{}: {}/{}", p.name, t.name(), a.name);
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "{checked} filter fields checked");
}

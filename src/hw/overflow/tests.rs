// SPDX-License-Identifier: GPL-2.0

//! Tests of the overflow walk against the register model: for overflow
//! patterns over every box, both S-box sides, the R-box halves and the
//! W-box fixed counter, the walk finds exactly the overflowed counters and
//! its writes clear every status bit.

use super::*;
use crate::hw::desc::{BoxKind, PlatformId, Space};
use crate::hw::model::{Model, Occurrence};
use crate::hw::platforms::by_id;
use crate::hw::program::box_ctl_addr;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::vec::Vec;

/// Enables counter `j` of (`ty`, `i`) on a WSM-EX model with event 0x14
/// and preloads it one below overflow; returns the event select used.
fn arm(m: &mut Model, ty: &str, i: u8, j: usize) -> u16 {
    let p = by_id(m.platform);
    let t = p.box_type(ty).unwrap();
    let Some(crate::hw::program::Addr::Msr(bc)) = box_ctl_addr(t, i as usize) else {
        panic!()
    };
    let Space::Msr {
        ctl, ctr, offsets, ..
    } = t.space
    else {
        panic!()
    };
    let off = offsets.of(i as usize);
    let (v, ev) = match ty {
        "bbox" | "rbox" => ((7 << 1) | 1, 7u16),
        "mbox" => ((6 << 9) | (1 << 6) | 1, 6),
        "ubox" => ((1 << 22) | 0x14, 0x14),
        _ => ((1 << 22) | 0x14, 0x14),
    };
    if ty == "ubox" {
        let g = m.rdmsr(0, 0xc00).unwrap();
        m.wrmsr(0, 0xc00, g | 1).unwrap();
    } else {
        let old = m.rdmsr(0, bc.addr()).unwrap();
        m.wrmsr(0, bc.addr(), old | (1 << j)).unwrap();
    }
    m.wrmsr(0, ctl.of(j) + off, v).unwrap();
    m.wrmsr(0, ctr.of(j) + off, (1 << 48) - 1).unwrap();
    ev
}

fn occ(ty: &str, ev: u16, j: usize) -> Occurrence {
    let mut o = Occurrence::simple(ev, 0, 1);
    if ty == "bbox" {
        o.props.counter = Some(j as u8);
    }
    o
}

/// Every counter of every WSM-EX box, as (type, instance, counter).
fn all_counters(p: &Platform) -> Vec<(&'static str, u8, usize)> {
    let mut v = Vec::new();
    for t in p.types {
        for i in 0..t.num_boxes {
            for j in 0..t.num_counters as usize {
                v.push((t.name(), i, j));
            }
        }
    }
    v
}

fn check(p: PlatformId, chosen: &[(&'static str, u8, usize)], fixed: bool) {
    let mut m = Model::new(p, 1);
    m.wrmsr(0, 0xc00, 1 << 28).unwrap();
    // Arm all first (so that no overflow happens before all are set), then fire.
    let evs: Vec<u16> = chosen
        .iter()
        .map(|&(ty, i, j)| arm(&mut m, ty, i, j))
        .collect();
    if fixed {
        let g = m.rdmsr(0, 0xc80).unwrap();
        m.wrmsr(0, 0xc80, g | (1 << 31)).unwrap();
        m.wrmsr(0, 0x395, 1).unwrap();
        m.wrmsr(0, 0x394, (1 << 48) - 1).unwrap();
    }
    // R-box counters of one half share the port registers; event 7 (port 1
    // IPERF1 / port 5) with sub=None counts on all of them.
    for (&(ty, i, j), &ev) in chosen.iter().zip(&evs) {
        let before = m.rdmsr(0, 0xc01).unwrap();
        let _ = before;
        let kind = by_id(p).box_type(ty).unwrap().kind;
        m.inject(0, kind, i, &occ(ty, ev, j)).unwrap();
    }
    if fixed {
        m.inject(0, BoxKind::Wbox, 0, &Occurrence::simple(0xff, 0, 1))
            .unwrap();
    }
    let desc = by_id(p);
    let w = walk(desc, |a| m.rdmsr(0, a.addr()).unwrap());
    let mut got = BTreeSet::new();
    let mut got_fixed = false;
    for h in w.hits() {
        assert!(h.exact);
        let t = &desc.types[h.ty as usize];
        for j in 0..32 {
            if h.counters & (1 << j) != 0 {
                got.insert((t.name(), h.index, j as usize));
            }
        }
        got_fixed |= h.fixed;
    }
    let want: BTreeSet<_> = chosen.iter().copied().collect();
    assert_eq!(got, want);
    assert_eq!(got_fixed, fixed);
    for &(a, v) in w.clears() {
        m.wrmsr(0, a.addr(), v).unwrap();
    }
    assert_eq!(m.rdmsr(0, 0xc01).unwrap(), 0, "everything cleared");
    assert!(walk(desc, |a| m.rdmsr(0, a.addr()).unwrap()).is_empty());
}

#[test]
fn each_counter_alone() {
    for p in [PlatformId::NEHALEM_EX, PlatformId::WESTMERE_EX] {
        for c in all_counters(by_id(p)) {
            check(p, &[c], false);
        }
        check(p, &[], true);
    }
}

#[test]
fn both_sides_and_rbox_halves_at_once() {
    let p = PlatformId::WESTMERE_EX;
    check(
        p,
        &[
            ("cbox", 0, 1),
            ("cbox", 9, 5),
            ("rbox", 0, 7),
            ("rbox", 1, 0),
            ("sbox", 0, 3),
            ("mbox", 1, 2),
            ("bbox", 0, 1),
            ("ubox", 0, 0),
        ],
        true,
    );
}

proptest! {
    #[test]
    fn any_set_of_counters(picks in proptest::collection::btree_set(0usize..200, 0..12), fixed in any::<bool>(), nhm in any::<bool>()) {
        let p = if nhm { PlatformId::NEHALEM_EX } else { PlatformId::WESTMERE_EX };
        let all = all_counters(by_id(p));
        let chosen: Vec<_> = picks.iter().filter_map(|&i| all.get(i).copied()).collect();
        check(p, &chosen, fixed);
    }
}

#[test]
fn an_empty_status_finds_nothing() {
    let m = Model::new(PlatformId::WESTMERE_EX, 1);
    let w = walk(by_id(PlatformId::WESTMERE_EX), |a| {
        m.rdmsr(0, a.addr()).unwrap()
    });
    assert!(w.is_empty());
    assert!(w.clears().is_empty());
}

#[test]
fn skylake_status_bits() {
    let mut m = Model::new(PlatformId::SKYLAKE, 1);
    m.wrmsr(0, 0xe01, 1 << 29).unwrap();
    m.wrmsr(0, 0x711, 0x50_0134).unwrap(); // CBo 1 counter 1, OVF_EN
    m.wrmsr(0, 0x717, (1 << 44) - 1).unwrap();
    m.wrmsr(0, 0x394, (1 << 22) | (1 << 20)).unwrap();
    m.wrmsr(0, 0x395, (1 << 48) - 1).unwrap();
    m.inject(0, BoxKind::Cbox, 1, &Occurrence::simple(0x34, 1, 2))
        .unwrap();
    m.inject(0, BoxKind::Cbox, 0, &Occurrence::simple(0xff, 0, 2))
        .unwrap();
    let p = by_id(PlatformId::SKYLAKE);
    let w = walk(p, |a| m.rdmsr(0, a.addr()).unwrap());
    assert_eq!(w.hits().len(), 2);
    assert!(w.hits().iter().any(|h| h.fixed && h.exact));
    assert!(w.hits().iter().any(|h| !h.exact && h.index == u8::MAX));
    for &(a, v) in w.clears() {
        m.wrmsr(0, a.addr(), v).unwrap();
    }
    assert_eq!(m.rdmsr(0, 0xe02).unwrap(), 0);
}

#[test]
fn l3_status_bits() {
    let mut m = Model::new(PlatformId::XEON_7400, 1);
    m.wrmsr(0, 0x107cf, (1 << 33) | 0xffff_ffff).unwrap(); // GSNPQ counter 1
    m.wrmsr(0, 0x107d3, (3 << 57) | 0xffff_ffff).unwrap(); // FSB counter 3
    let o = |sub| Occurrence {
        props: crate::hw::model::Props {
            sub: Some(sub),
            ..Default::default()
        },
        ..Occurrence::simple(0, 0, 1)
    };
    m.inject(0, BoxKind::Gsnpq, 0, &o(1 << 33)).unwrap();
    m.inject(0, BoxKind::Fsb, 0, &o(1 << 57)).unwrap();
    let p = by_id(PlatformId::XEON_7400);
    let w = walk(p, |a| m.rdmsr(0, a.addr()).unwrap());
    let hits: Vec<(u8, u32)> = w.hits().iter().map(|h| (h.ty, h.counters)).collect();
    assert_eq!(hits, [(1, 0b10), (2, 0b1000)]);
    for &(a, v) in w.clears() {
        m.wrmsr(0, a.addr(), v).unwrap();
    }
    assert_eq!(m.rdmsr(0, 0x107d8).unwrap(), 0);
}

// SPDX-License-Identifier: GPL-2.0

//! The event preconditions of every platform's table (`precond`): each
//! enforced row's event counts nothing while a filter field it needs
//! selects nothing (or not the occurrence's property), and exactly what
//! was injected once every needed field matches; an occurrence of it
//! without the property is refused.

use super::*;
use crate::hw::model::precond::{self, Precondition, NID, OPC, STATE};
use crate::hw::platforms::ALL;

/// The opcode the rows' occurrences carry (DRd, 327043 Table 2-13).
const OPCODE: u16 = 0x182;

/// The filter fields of `needs`, as `(bit, format name, value that selects
/// the occurrences' property)`.
fn fields(needs: u8) -> impl Iterator<Item = (u8, &'static str, u64)> {
    [
        (STATE, "filter_state", 0x1),
        (NID, "filter_nid", 0x1),
        (OPC, "filter_opc", u64::from(OPCODE)),
    ]
    .into_iter()
    .filter(move |(b, _, _)| needs & b != 0)
}

/// Ten occurrences of row `r`'s event and unit mask, carrying the
/// properties of `props` (state 0, node 0, [`OPCODE`]).
fn occurrence(r: &Precondition, props: u8) -> Occurrence {
    Occurrence {
        props: Props {
            state: (props & STATE != 0).then_some(0),
            nid: (props & NID != 0).then_some(0),
            opc: (props & OPC != 0).then_some(OPCODE),
            ..Props::default()
        },
        ..Occurrence::simple(r.event, r.umask, 10)
    }
}

/// What counter 0 of C-box 0 counts of `occ` when programmed with row
/// `r`'s encoding and the filter fields of `set` (of the row's needs)
/// selecting the occurrences' property, the others zero.
fn count_with(p: PlatformId, r: &Precondition, set: u8, occ: &Occurrence) -> u64 {
    let t = crate::hw::platforms::by_id(p).box_type("cbox").unwrap();
    let mut attr = Attr::config(u64::from(r.event) | u64::from(r.umask) << 8);
    for (_, name, v) in fields(r.needs & set) {
        crate::hw::terms::apply(t.format(name).unwrap(), v, &mut attr);
    }
    let mut d = Drv::new(p, 1);
    let mut sh = Shared::default();
    let pr = program(&mut d, t, 0, attr, &mut sh);
    let before = d.read(t, 0, pr.ctr);
    d.m.inject(0, r.kind, 0, occ)
        .unwrap_or_else(|e| panic!("{}: inject: {:?}", r.name, e));
    delta(before, d.read(t, 0, pr.ctr), pr.width)
}

/// Every platform's table once (Nehalem-EX and Westmere-EX share one).
fn tables() -> Vec<(PlatformId, &'static [Precondition])> {
    let mut out: Vec<(PlatformId, &'static [Precondition])> = Vec::new();
    for p in ALL {
        let t = p.sim.preconditions;
        if !out.iter().any(|(_, o)| core::ptr::eq(*o, t)) {
            out.push((p.id, t));
        }
    }
    out
}

#[test]
fn every_enforced_row_counts_only_with_its_precondition() {
    let mut rows = 0;
    let mut bad = Vec::new();
    for (p, table) in tables() {
        for r in table.iter().filter(|r| r.needs != 0) {
            rows += 1;
            // The occurrence carries what every row of its event needs.
            let occ = occurrence(r, precond::carried(table, r.kind, r.event));
            // A filter selecting another state, node or opcode.
            let other = Occurrence {
                props: Props {
                    state: occ.props.state.map(|_| 1),
                    nid: occ.props.nid.map(|_| 1),
                    opc: occ.props.opc.map(|_| OPCODE + 1),
                    ..occ.props
                },
                ..occ
            };
            let row = std::format!(
                "{:?} {} ({}, needs {})",
                p,
                r.name,
                r.encoding,
                r.needs_text
            );
            let mut check = |what: &str, got: u64, want: u64| {
                if got != want {
                    bad.push(std::format!("{row}: {what}: counted {got}, want {want}"));
                }
            };
            check("no filter field set", count_with(p, r, 0, &occ), 0);
            for (b, name, _) in fields(r.needs) {
                check(
                    &std::format!("{name} not set"),
                    count_with(p, r, !b, &occ),
                    0,
                );
            }
            check("with its precondition", count_with(p, r, !0, &occ), 10);
            check("another property", count_with(p, r, !0, &other), 0);
        }
    }
    assert!(rows >= 40, "the enforced rows were found ({rows})");
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn an_occurrence_of_a_row_event_without_its_property_is_refused() {
    let mut bad = Vec::new();
    for (p, table) in tables() {
        for r in table.iter().filter(|r| r.needs != 0) {
            let all = precond::carried(table, r.kind, r.event);
            for (b, name, _) in fields(r.needs) {
                let occ = occurrence(r, all & !b);
                let key = name.trim_start_matches("filter_");
                let mut m = Model::new(p, 1);
                let before = m;
                let got = m.inject(0, r.kind, 0, &occ);
                if !matches!(got, Err(ModelError::Lacks { key: k, .. }) if k == key) || m != before
                {
                    bad.push(std::format!(
                        "{:?} {}: an occurrence without {key}= gave {:?}",
                        p,
                        r.name,
                        got
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} failures:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The README's command, `uncore_cbox_0/event=0x34,umask=0x8f/`: no state
/// selected, so no lookup counts (jaketown and ivytown `LLC_LOOKUP`
/// PublicDescription: without a state selected the event counts nothing).
#[test]
fn llc_lookup_without_a_state_filter_counts_nothing() {
    for p in [PlatformId::SANDY_BRIDGE_EP, PlatformId::IVY_BRIDGE_EP] {
        let t = crate::hw::platforms::by_id(p).box_type("cbox").unwrap();
        for (config1, want) in [(0, 0), (0x1f_u64, 25)] {
            let mut attr = Attr::config(0x8f34);
            if config1 != 0 {
                attr = Attr::config(0x0334);
                crate::hw::terms::apply(t.format("filter_state").unwrap(), config1, &mut attr);
            }
            let mut d = Drv::new(p, 1);
            let mut sh = Shared::default();
            let pr = program(&mut d, t, 0, attr, &mut sh);
            let before = d.read(t, 0, pr.ctr);
            for state in 0..5 {
                let o = Occurrence {
                    props: Props {
                        state: Some(state),
                        ..Props::default()
                    },
                    ..Occurrence::simple(0x34, 0x1, 5)
                };
                d.m.inject(0, BoxKind::Cbox, 0, &o).unwrap();
            }
            let got = delta(before, d.read(t, 0, pr.ctr), pr.width);
            assert_eq!(
                got, want,
                "{:?} config {:#x} filter_state {:#x}",
                p, attr.config, config1
            );
        }
    }
}

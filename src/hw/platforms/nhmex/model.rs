// SPDX-License-Identifier: GPL-2.0

//! The register model's rules of Nehalem-EX and Westmere-EX (325294 and
//! the Xeon 7500 uncore guide 323535-001): the auxiliary registers of the
//! B-, S-, M- and R-boxes, what their events count, the S-box summaries
//! (Table 2-26) and the Westmere-EX W-box read erratum. The model is an
//! oracle of its own: it reads the manuals' tables, not the driver's
//! descriptions.

use super::mbox::zdp_layout;
use super::sbox;
use super::U_GLOBAL_CTL;
use crate::hw::catalog::{self, nhmex as cat};
use crate::hw::desc::{each, Alias, BoxKind, PlatformId, SimSpec};
use crate::hw::model::count::{alias_event, inc_of, select_counts};
use crate::hw::model::precond::{preconditions, Precondition};
use crate::hw::model::{Family, GlobalBlock, ModelBox, Occurrence, Socket};

/// The Nehalem-EX/Westmere-EX events that count only with a mode or
/// subcontrol set (325294); the model expresses none of them (the table
/// says why).
pub const PRECONDITIONS: &[Precondition] = preconditions!("preconditions.tsv");

/// The register model's behaviour class of each box kind (both parts).
fn family(kind: BoxKind) -> Family {
    match kind {
        BoxKind::Ubox => Family::NhmUbox,
        _ => Family::NhmBox,
    }
}

/// What differs between the two parts.
struct Part {
    id: PlatformId,
    /// Westmere-EX's `ZDP_CTL_FVC` layout (Nehalem-EX's otherwise).
    wsmex_zdp: bool,
    /// The S-box events whose unit mask selects C-boxes, and its bits.
    sbox_cbox: (&'static [Alias], u8),
}

/// Nehalem-EX: four unit mask bits select C-boxes k and k + 4.
const NHMEX: Part = Part {
    id: PlatformId::NEHALEM_EX,
    wsmex_zdp: false,
    sbox_cbox: (cat::NHMEX_SBOX_CBOX, 0x0f),
};

/// Westmere-EX: five unit mask bits select C-boxes k and k + 5.
const WSMEX: Part = Part {
    id: PlatformId::WESTMERE_EX,
    wsmex_zdp: true,
    sbox_cbox: (cat::WSMEX_SBOX_CBOX, 0x1f),
};

/// The auxiliary registers of instance `i`: B-box match/mask (0xe45),
/// S-box `MM_CFG`/match/mask (0xe48), M-box subcontrols (0xca4..0xcab) and
/// its `MM_CFG`/match/mask (0xe54), R-box port subcontrols and the
/// crossbar match/mask sets (Tables 2-22, 2-32, 2-66, 2-47).
fn aux_msr(kind: BoxKind, i: u32, msr: u32) -> Option<usize> {
    let within = |base: u32, n: u32| {
        (base..base + n)
            .contains(&msr)
            .then(|| (msr - base) as usize)
    };
    match kind {
        BoxKind::Bbox => within(0xe45 + 8 * i, 2),
        BoxKind::Sbox => within(0xe48 + 0x10 * i, 3),
        BoxKind::Mbox => {
            within(0xca4 + 0x40 * i, 8).or_else(|| within(0xe54 + 8 * i, 3).map(|k| 8 + k))
        }
        BoxKind::Rbox => (0..4).find_map(|q| {
            let port = 4 * i + q;
            let xbr = |set: u32| set + if port < 4 { 0 } else { 0x10 } + 4 * port;
            let qlx = if port < 4 {
                0xe0c + port
            } else {
                0xe2c + port - 4
            };
            let k = (q * 9) as usize;
            if msr == 0xe04 + port {
                Some(k)
            } else if msr == 0xe24 + port {
                Some(k + 1)
            } else if msr == qlx {
                Some(k + 2)
            } else {
                within(xbr(0xe60), 3)
                    .map(|x| k + 3 + x)
                    .or_else(|| within(xbr(0xe70), 3).map(|x| k + 6 + x))
            }
        }),
        _ => None,
    }
}

/// The B-box event sets are per counter: a counter past 3 does not exist.
fn fits(kind: BoxKind, o: &Occurrence) -> bool {
    kind != BoxKind::Bbox || !matches!(o.props.counter, Some(c) if c >= 4)
}

/// The unit mask bits an S-box event has where they select C-boxes; a bit
/// past them selects nothing. Other events: all eight.
fn sbox_umask_field(part: &Part, event: u16) -> u8 {
    let (events, bits) = part.sbox_cbox;
    if each(events).any(|a| alias_event(&a.terms) == Some(event)) {
        bits
    } else {
        0xff
    }
}

/// What counter `j` of `b` counts of `o`.
fn counts(
    part: &Part,
    b: &ModelBox,
    kind: BoxKind,
    j: usize,
    ctl: u64,
    o: &Occurrence,
) -> Option<u64> {
    match kind {
        BoxKind::Bbox => bbox(b, j, ctl, o),
        BoxKind::Mbox => mbox(part, b, ctl, o),
        BoxKind::Rbox => rbox(b, ctl, o),
        BoxKind::Sbox => {
            let field = sbox_umask_field(part, crate::hw::model::count::event_select(ctl));
            let n = select_counts(ctl, field, o)?;
            let ok = match o.props.packet {
                Some(pk) if ctl & 0xff == 0 => {
                    sbox::packet_matches(pk, b.aux[0], b.aux[1], b.aux[2])
                }
                _ => true,
            };
            ok.then_some(n)
        }
        _ => select_counts(ctl, 0xff, o),
    }
}

/// The B-box: ev_sel 5:1 of the counter's own event set (Table 2-20), and
/// the packet match/mask.
fn bbox(b: &ModelBox, j: usize, ctl: u64, o: &Occurrence) -> Option<u64> {
    let ev = (ctl >> 1) & 0x1f;
    let mine = o.props.counter.unwrap_or(j as u8) as usize == j;
    if ev != u64::from(o.event) || !mine {
        return None;
    }
    match o.props.packet {
        Some(pk) if (pk ^ b.aux[0]) & b.aux[1] != 0 => None,
        _ => Some(o.cycles.saturating_mul(inc_of(o))),
    }
}

/// The M-box: inc_sel 13:9 (Table 2-67), its subcontrol registers and the
/// `ZDP_CTL_FVC` fields.
fn mbox(part: &Part, b: &ModelBox, ctl: u64, o: &Occurrence) -> Option<u64> {
    let inc_sel = (ctl >> 9) & 0x1f;
    if inc_sel != u64::from(o.event) {
        return None;
    }
    let sub = o.props.sub;
    let ok = match inc_sel {
        0xd..=0x10 => {
            let (shared, fields) = zdp_layout(part.wsmex_zdp);
            let f = (inc_sel - 0xd) as usize;
            match sub {
                Some(v) => {
                    let want = (v & shared) | fields[f].set(0, fields[0].get(v));
                    b.aux[7] & (shared | fields[f].mask()) == want
                }
                None => true,
            }
        }
        _ => {
            let r = match inc_sel {
                0x0 => Some(1),
                0x4 | 0x5 => Some(4),
                0x9 | 0xa => Some(2),
                0xb => Some(6),
                0x16 => Some(5),
                _ => None,
            };
            match (r, sub) {
                (Some(r), Some(v)) => b.aux[r] & v == v,
                _ => true,
            }
        }
    };
    ok.then(|| o.cycles.saturating_mul(inc_of(o)))
}

/// The R-box: ev_sel 5:1 (Table 2-44), six events per port, its
/// subcontrols and crossbar match/mask sets.
fn rbox(b: &ModelBox, ctl: u64, o: &Occurrence) -> Option<u64> {
    let ev = (ctl >> 1) & 0x1f;
    if ev != u64::from(o.event) {
        return None;
    }
    let q = (ev / 6) as usize;
    let sub = ev % 6;
    let a = |x: usize| b.aux[q * 9 + x];
    let ok = match sub {
        0 | 1 => o
            .props
            .sub
            .map(|v| a(sub as usize) & v != 0)
            .unwrap_or(true),
        2 | 3 => o
            .props
            .sub
            .map(|v| (a(2) >> (8 * (sub - 2))) & 0xff == v)
            .unwrap_or(true),
        _ => {
            let base = if sub == 4 { 3 } else { 6 };
            let (mm, m, k) = (a(base), a(base + 1), a(base + 2));
            let on = mm & (1 << 63) == 0 && mm & (1 << 21) != 0;
            on && o.props.packet.map(|pk| (pk ^ m) & k == 0).unwrap_or(true)
        }
    };
    ok.then(|| o.cycles.saturating_mul(inc_of(o)))
}

/// Whether S-box event `event` is a queue occupancy event (325294 Table
/// 2-37, the `*_OCCUPANCY` rows), read from the part's S-box catalog,
/// independently of the driver's list of the events whose enable resets
/// the occupancy subcounter.
fn occupancy(part: &Part, kind: BoxKind, event: u16) -> bool {
    kind == BoxKind::Sbox
        && catalog::parts(part.id, BoxKind::Sbox, 0)
            .into_iter()
            .flat_map(each)
            .any(|a| {
                let base = a.name.split('.').next().unwrap_or("");
                base.ends_with("_occupancy") && alias_event(&a.terms) == Some(event)
            })
}

/// Table 2-26: the S-box summary bit box `kind` `i` reports to on S-box
/// `side`. Westmere-EX: `ov_c_r` (bit 0) C-boxes 0/1 and 5/6, `ov_c_l`
/// (bit 2) 2/3 and 7/8, bit 20 C-box 4 and 9.
fn wsmex_summary_bit(kind: BoxKind, i: u8, side: u32) -> Option<u32> {
    match (kind, i, side) {
        (BoxKind::Cbox, 0 | 1, 0) | (BoxKind::Cbox, 5 | 6, 1) => Some(0),
        (BoxKind::Cbox, 2 | 3, 0) | (BoxKind::Cbox, 7 | 8, 1) => Some(2),
        (BoxKind::Cbox, 4, 0) | (BoxKind::Cbox, 9, 1) => Some(20),
        (BoxKind::Cbox, ..) => None,
        _ => side_box_bit(kind, i, side),
    }
}

/// Table 2-26 of the Xeon 7500 guide (eight C-boxes): `ov_c_r` (bit 0)
/// C-boxes 2/3 and 6/7, `ov_c_l` (bit 2) 0/1 and 4/5; no bit 20.
fn nhmex_summary_bit(kind: BoxKind, i: u8, side: u32) -> Option<u32> {
    match (kind, i, side) {
        (BoxKind::Cbox, 2 | 3, 0) | (BoxKind::Cbox, 6 | 7, 1) => Some(0),
        (BoxKind::Cbox, 0 | 1, 0) | (BoxKind::Cbox, 4 | 5, 1) => Some(2),
        (BoxKind::Cbox, ..) => None,
        _ => side_box_bit(kind, i, side),
    }
}

/// The summary bits of the boxes both parts have one of per side: R-box
/// 19, S-box 18, M- and B-box 16.
fn side_box_bit(kind: BoxKind, i: u8, side: u32) -> Option<u32> {
    if u32::from(i) != side {
        return None;
    }
    match kind {
        BoxKind::Rbox => Some(19),
        BoxKind::Sbox => Some(18),
        BoxKind::Mbox | BoxKind::Bbox => Some(16),
        _ => None,
    }
}

/// The Westmere-EX W-box read erratum (325294 §2.8.3, the note after
/// Table 2-100): a counter whose value ends in 0x000000 or 0x000001 reads
/// 0x1000000 higher.
fn wsmex_read_counter(kind: BoxKind, v: u64) -> u64 {
    if kind == BoxKind::Wbox && v & 0xff_ffff <= 1 {
        (v + 0x100_0000) & crate::hw::bits::low_mask(48)
    } else {
        v
    }
}

/// The U-box global registers and the two S-boxes' `S_MSR_PMON_SUMMARY`.
const GLOBAL: GlobalBlock = GlobalBlock::NhmexU {
    ctl: U_GLOBAL_CTL,
    summary: [0xc43, 0xcc3],
};

/// Nehalem-EX's model. The simulated W-box fixed counter runs at the
/// uncore clock.
pub const NHMEX_SIM: SimSpec = SimSpec {
    aux_msr,
    fits,
    counts: |_: &Socket, b, kind, j, ctl, o| counts(&NHMEX, b, kind, j, ctl, o),
    occupancy: |kind, event| occupancy(&NHMEX, kind, event),
    summary_bit: nhmex_summary_bit,
    preconditions: PRECONDITIONS,
    ..SimSpec::new(family, GLOBAL, 0, 2400)
};

/// Westmere-EX's model: Nehalem-EX's with its own S-box unit masks,
/// `ZDP_CTL_FVC` layout, summaries and the W-box read erratum.
pub const WSMEX_SIM: SimSpec = SimSpec {
    counts: |_: &Socket, b, kind, j, ctl, o| counts(&WSMEX, b, kind, j, ctl, o),
    occupancy: |kind, event| occupancy(&WSMEX, kind, event),
    summary_bit: wsmex_summary_bit,
    read_counter: wsmex_read_counter,
    ..NHMEX_SIM
};

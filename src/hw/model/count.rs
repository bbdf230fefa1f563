// SPDX-License-Identifier: GPL-2.0

//! Counting: which counters count an injected event, by how much, and what
//! an overflow does.
//!
//! Simplifications of the hardware, chosen so that every outcome is exact
//! and predictable:
//! - An [`Occurrence`] is `cycles` consecutive cycles in each of which the
//!   event adds `inc`. With `thresh == 0` a counter adds `cycles * inc`;
//!   with a threshold it adds one per cycle where `inc >= thresh` (`<` with
//!   `invert`); with `edge` the run of cycles is one assertion, so it adds
//!   one if the (thresholded) condition held at all.
//! - Unit masks: an occurrence carries the sub-event bits that happened; a
//!   counter counts it when its umask shares a bit with them (or the
//!   occurrence has none).
//! - Filters only act on occurrences that carry the filtered property: a
//!   C-box counter with `tid_en` counts only occurrences of its TID; a
//!   STATE (NID) filter counts occurrences whose state (node) bit it has; an
//!   OPC filter counts occurrences of that opcode. PCU band events count
//!   occurrences at or above the band's frequency.
//! - Packet match/mask: a packet matches when it equals the match value on
//!   the bits the mask selects (QPI, B-box, R-box); the S-box has the
//!   manual's own rules (`platforms::nhmex::sbox`).
//! - M-box subcontrol events count when the subcontrol register has all
//!   bits of the occurrence's `sub`; `ZDP_CTL_FVC` event field `n` counts
//!   occurrences whose FVC value (given in field-0 layout) it equals.
//! - Xeon 7100/7400 events count when the control field has every bit of the
//!   occurrence's attribute set `sub` (in the control field's position).

use super::regs::{group_first, skl_bits, u};
use super::{Family, ModelBox, ModelError, Socket};
use crate::hw::bits::{bit, low_mask};
use crate::hw::desc::{BoxKind, PlatformId};
use crate::hw::platforms;
use crate::hw::platforms::nhmex::mbox::zdp_layout;
use crate::hw::platforms::nhmex::sbox;

/// Properties of an occurrence that filters look at; `None` = not carried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Props {
    /// Core/thread ID (C-box TID filter).
    pub tid: Option<u8>,
    /// Node ID (C-box NID filter; the bit number).
    pub nid: Option<u8>,
    /// Cache state bit number (C-box STATE filter).
    pub state: Option<u8>,
    /// Opcode (C-box OPC filter).
    pub opc: Option<u16>,
    /// Frequency in 100 MHz units (PCU band events).
    pub freq: Option<u8>,
    /// PCU occupancy select (`occ_sel`).
    pub occ_sel: Option<u8>,
    /// Packet (match/mask events).
    pub packet: Option<u64>,
    /// NHM-EX B-box counter whose event set the event is from.
    pub counter: Option<u8>,
    /// Subcontrol bits (M-box, R-box, Xeon 7100 attributes).
    pub sub: Option<u64>,
}

/// A burst of one event in one box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Occurrence {
    /// Event select; bit 8 is the extended select bit (QPI, PCU `0x1xx`);
    /// `0xff` is the box's clock (the fixed counter). NHM-EX B-, M- and
    /// R-boxes: the 5-bit event select (`ev_sel` / `inc_sel`).
    pub event: u16,
    /// Sub-event bits.
    pub umask: u8,
    /// Number of cycles the event is asserted.
    pub cycles: u64,
    /// Increment per cycle (0 is taken as 1).
    pub inc: u32,
    /// Filtered properties.
    pub props: Props,
}

impl Occurrence {
    /// `n` single occurrences of `event`/`umask`.
    pub const fn simple(event: u16, umask: u8, n: u64) -> Self {
        Occurrence {
            event,
            umask,
            cycles: n,
            inc: 1,
            props: Props {
                tid: None,
                nid: None,
                state: None,
                opc: None,
                freq: None,
                occ_sel: None,
                packet: None,
                counter: None,
                sub: None,
            },
        }
    }
}

/// Whether S-box event `event` of platform `p` is a queue occupancy event
/// (325294 Table 2-37, the `*_OCCUPANCY` rows): the model reads them from
/// the S-box catalog, independently of the driver's list of the events
/// whose enable resets the occupancy subcounter.
fn is_s_occupancy(p: PlatformId, event: u16) -> bool {
    crate::hw::catalog::parts(p, BoxKind::Sbox, 0)
        .iter()
        .flat_map(|t| t.iter())
        .any(|a| {
            let base = a.name.split('.').next().unwrap_or("");
            base.ends_with("_occupancy") && alias_event(a.terms) == Some(event)
        })
}

/// The `event=` value of an alias's terms.
pub(crate) fn alias_event(terms: &str) -> Option<u16> {
    terms
        .split(',')
        .find_map(|t| t.strip_prefix("event="))
        .and_then(crate::hw::terms::parse_number)
        .and_then(|v| u16::try_from(v).ok())
}

fn inc_of(o: &Occurrence) -> u64 {
    u64::from(o.inc.max(1))
}

/// Increments a counter with control `ctl` gets from `o`, with threshold,
/// invert and edge detect (the threshold field is bits 31:24 wherever the
/// box has one; the implemented-bits mask keeps it zero elsewhere).
fn amount(ctl: u64, o: &Occurrence) -> u64 {
    let inc = inc_of(o);
    let thresh = (ctl >> 24) & 0xff;
    let edge = ctl & bit(18) != 0;
    if thresh == 0 {
        // No threshold: the raw increments; edge detect sees one assertion.
        return if edge {
            u64::from(o.cycles > 0)
        } else {
            o.cycles.saturating_mul(inc)
        };
    }
    let cond = if ctl & bit(23) != 0 {
        inc < thresh
    } else {
        inc >= thresh
    };
    let cycles = if cond { o.cycles } else { 0 };
    if edge {
        u64::from(cycles > 0)
    } else {
        cycles
    }
}

fn umask_bits_ok(umask: u8, o: &Occurrence) -> bool {
    o.umask == 0 || umask & o.umask != 0
}

/// The unit mask bits an S-box event has where they select C-boxes: four
/// on Nehalem-EX (C-boxes k and k + 4 at bit k), five on Westmere-EX (k
/// and k + 5); a bit past them selects nothing. Other events: all eight.
fn sbox_umask_field(p: PlatformId, event: u16) -> u8 {
    let per_cbox =
        |t: &[crate::hw::desc::Alias]| t.iter().any(|a| alias_event(a.terms) == Some(event));
    match p {
        PlatformId::NEHALEM_EX if per_cbox(crate::hw::catalog::nhmex::NHMEX_SBOX_CBOX) => 0x0f,
        PlatformId::WESTMERE_EX if per_cbox(crate::hw::catalog::nhmex::WSMEX_SBOX_CBOX) => 0x1f,
        _ => 0xff,
    }
}

/// Whether `n` fits one step of a counter `width` bits wide: a step of a
/// whole wrap or more would be seen as nothing (the counters of no
/// hardware advance that far between two reads).
fn fits(n: u64, width: u8) -> Result<(), ModelError> {
    if n > low_mask(u32::from(width)) {
        return Err(ModelError::Range);
    }
    Ok(())
}

/// Counts `n` on every counter of box `k` that is enabled (and on its
/// fixed counter when enabled): the events the counters are programmed for
/// occurred `n` times, whatever they are. Returns how many counters
/// counted; refuses (changing nothing) an `n` of a counter's whole wrap.
pub(super) fn inject_programmed(
    p: PlatformId,
    sock: &mut Socket,
    k: usize,
    n: u64,
) -> Result<u32, ModelError> {
    let b = sock.boxes[k];
    let mut hits = 0;
    fits(n, b.width)?;
    if b.has_fixed && fixed_enabled(p, sock, &b) {
        fits(n, b.fixed_width)?;
    }
    if b.family == Family::SklImc {
        for j in 0..b.n as usize {
            let c = &mut sock.boxes[k].ctrs[j];
            c.value = c.value.wrapping_add(n) & low_mask(u32::from(b.width));
            hits += 1;
        }
        return Ok(hits);
    }
    for j in 0..b.n as usize {
        if counter_enabled(p, sock, &b, j) {
            add(p, sock, k, Some(j), n);
            hits += 1;
        }
    }
    if b.has_fixed && fixed_enabled(p, sock, &b) {
        add(p, sock, k, None, n);
        hits += 1;
    }
    Ok(hits)
}

/// Injects `o` into box `k` of `sock`; returns how many counters counted.
/// Refuses (changing nothing) an occurrence that would move a counter by a
/// whole wrap in one step.
pub(super) fn inject(
    p: PlatformId,
    sock: &mut Socket,
    k: usize,
    o: &Occurrence,
) -> Result<u32, ModelError> {
    let b = sock.boxes[k];
    let ty = platforms::by_id(p).types.get(b.ty as usize).map(|t| t.kind);
    fields_fit(p, ty, o)?;
    let mut hits = 0;
    if o.event == 0xff && b.has_fixed {
        if fixed_enabled(p, sock, &b) {
            let n = o.cycles;
            fits(n, b.fixed_width)?;
            add(p, sock, k, None, n);
            hits += 1;
        }
        return Ok(hits);
    }
    if b.family == Family::SklImc {
        // Free-running: event k (1-based) is counter k - 1.
        let j = o.event as usize;
        if (1..=b.n as usize).contains(&j) {
            let n = o.cycles.saturating_mul(inc_of(o));
            fits(n, b.width)?;
            let c = &mut sock.boxes[k].ctrs[j - 1];
            c.value = c.value.wrapping_add(n) & low_mask(u32::from(b.width));
            hits += 1;
        }
        return Ok(hits);
    }
    // What each counter counts, all checked before any counts.
    let mut steps = [None; super::MAX_CTRS];
    for (j, step) in steps.iter_mut().enumerate().take(b.n as usize) {
        if !counter_enabled(p, sock, &b, j) {
            continue;
        }
        let ctl = b.ctrs[j].ctl;
        if let Some(mut n) = counts(p, sock, &b, ty, j, ctl, o) {
            // An S-box queue occupancy event adds the occupancy on top of
            // what its subcounter kept (0 after `reset_occ_cnt`), which then
            // keeps this occupancy.
            let mut occ = None;
            if b.family == Family::NhmBox && ty == Some(BoxKind::Sbox) && is_s_occupancy(p, o.event)
            {
                let total = inc_of(o).saturating_add(u64::from(b.occ[j]));
                n = o.cycles.saturating_mul(total);
                occ = Some((inc_of(o) & 0x7f) as u8);
            }
            fits(n, b.width)?;
            *step = Some((n, occ));
        }
    }
    for (j, step) in steps.iter().enumerate() {
        let Some((n, occ)) = *step else { continue };
        if let Some(occ) = occ {
            sock.boxes[k].occ[j] = occ;
        }
        if n > 0 {
            add(p, sock, k, Some(j), n);
        }
        hits += 1;
    }
    Ok(hits)
}

/// Whether `p`'s C-boxes and PCU have filters (SNB-EP and IVB-EP).
fn ep_filters(p: PlatformId) -> bool {
    matches!(p, PlatformId::SANDY_BRIDGE_EP | PlatformId::IVY_BRIDGE_EP)
}

/// Refuses an occurrence with a value its box's registers cannot hold: an
/// event select past bits 8:0 (the widest, with the extended select bit);
/// on an SNB-EP or IVB-EP C-box a TID past 5 bits, a STATE (NID) bit number
/// past the filter's 5 (8) bits, 6 (16) on IVB-EP, an opcode past 9 bits
/// (327043 Table 2-12); a PCU `occ_sel` past 2 bits; an NHM-EX B-box
/// counter past 3. A box without such a field ignores the property.
fn fields_fit(p: PlatformId, ty: Option<BoxKind>, o: &Occurrence) -> Result<(), ModelError> {
    let ep = ep_filters(p);
    let nhm = matches!(p, PlatformId::NEHALEM_EX | PlatformId::WESTMERE_EX);
    let below = |v: Option<u64>, limit: u64| !matches!(v, Some(v) if v >= limit);
    let pr = &o.props;
    let ok = u64::from(o.event) <= 0x1ff
        && match ty {
            Some(BoxKind::Cbox) if ep => {
                let (states, nodes) = if p == PlatformId::IVY_BRIDGE_EP {
                    (6, 16)
                } else {
                    (5, 8)
                };
                below(pr.tid.map(u64::from), 1 << 5)
                    && below(pr.state.map(u64::from), states)
                    && below(pr.nid.map(u64::from), nodes)
                    && below(pr.opc.map(u64::from), 1 << 9)
            }
            Some(BoxKind::Pcu) if ep => below(pr.occ_sel.map(u64::from), 4),
            Some(BoxKind::Bbox) if nhm => below(pr.counter.map(u64::from), 4),
            _ => true,
        };
    if ok {
        Ok(())
    } else {
        Err(ModelError::Range)
    }
}

/// Whether counter `j` of `b` is enabled through the whole hierarchy.
pub(super) fn counter_enabled(_p: PlatformId, sock: &Socket, b: &ModelBox, j: usize) -> bool {
    let ctl = b.ctrs[j].ctl;
    match b.family {
        Family::SnbBox | Family::SnbNoReset => {
            let frozen = b.box_ctl & (1 << 16) != 0 && b.box_ctl & (1 << 8) != 0;
            ctl & bit(22) != 0 && !frozen
        }
        Family::IvbBox => ctl & bit(22) != 0 && b.box_ctl & (1 << 8) == 0,
        Family::EpUbox => ctl & bit(22) != 0,
        Family::NhmUbox => {
            sock.global_ctl & u::EN_ALL != 0 && sock.global_ctl & u::EN != 0 && ctl & bit(22) != 0
        }
        Family::NhmBox => {
            let en = if is_bit0_box(b) {
                ctl & 1 != 0
            } else {
                ctl & bit(22) != 0
            };
            sock.global_ctl & u::EN_ALL != 0 && b.box_ctl & (1 << j) != 0 && en
        }
        Family::Skl => sock.global_ctl & skl_bits::EN != 0 && ctl & bit(22) != 0,
        Family::L3 => ctl != 0 && sock.l3_frozen & (1 << (group_first(b) + j)) == 0,
        Family::SklImc => true,
        Family::QpiFilter | Family::None => false,
    }
}

fn is_bit0_box(b: &ModelBox) -> bool {
    let t = platforms::by_id(PlatformId::WESTMERE_EX)
        .types
        .get(b.ty as usize);
    t.is_some_and(|t| {
        matches!(
            Some(t.kind),
            Some(BoxKind::Bbox) | Some(BoxKind::Mbox) | Some(BoxKind::Rbox)
        )
    })
}

fn fixed_enabled(p: PlatformId, sock: &Socket, b: &ModelBox) -> bool {
    let ctl = b.fixed.ctl;
    match b.family {
        Family::NhmBox => {
            sock.global_ctl & u::EN_ALL != 0 && b.box_ctl & (1 << 31) != 0 && ctl & 1 != 0
        }
        Family::Skl => sock.global_ctl & skl_bits::EN != 0 && ctl & bit(22) != 0,
        Family::SnbBox | Family::SnbNoReset => {
            let frozen = b.box_ctl & (1 << 16) != 0 && b.box_ctl & (1 << 8) != 0;
            ctl & bit(22) != 0 && !frozen
        }
        Family::IvbBox => ctl & bit(22) != 0 && b.box_ctl & (1 << 8) == 0,
        _ => {
            let _ = p;
            ctl & bit(22) != 0
        }
    }
}

/// How much counter `j` (control `ctl`) counts of `o`, or `None` when it
/// is not programmed for it.
fn counts(
    p: PlatformId,
    sock: &Socket,
    b: &ModelBox,
    ty: Option<BoxKind>,
    j: usize,
    ctl: u64,
    o: &Occurrence,
) -> Option<u64> {
    let nhm = matches!(p, PlatformId::NEHALEM_EX | PlatformId::WESTMERE_EX);
    if b.family == Family::L3 {
        let want = o.props.sub.unwrap_or(0);
        return (ctl & want == want).then(|| o.cycles.saturating_mul(inc_of(o)));
    }
    if let Some(kind @ (BoxKind::Bbox | BoxKind::Mbox | BoxKind::Rbox)) = ty.filter(|_| nhm) {
        return nhm_special(p, b, kind, j, ctl, o);
    }
    let ev = (ctl & 0xff) as u16 | if ctl & bit(21) != 0 { 0x100 } else { 0 };
    let field = if nhm && ty == Some(BoxKind::Sbox) {
        sbox_umask_field(p, ev)
    } else {
        0xff
    };
    if ev != o.event || !umask_bits_ok(((ctl >> 8) & 0xff) as u8 & field, o) {
        return None;
    }
    let ok = match (nhm, ty) {
        (false, Some(BoxKind::Cbox)) if ep_filters(p) => cbox_filter(p, b, ctl, o),
        (false, Some(BoxKind::Pcu)) => pcu_filter(b, ctl, o),
        (false, Some(BoxKind::Qpi)) if ctl & 0xff == 0x38 => match o.props.packet {
            Some(pk) => {
                let f = sock.boxes[..sock.n_boxes]
                    .iter()
                    .find(|f| f.family == Family::QpiFilter && f.index == b.index);
                f.is_some_and(|f| (pk ^ f.aux[0]) & f.aux[1] == 0)
            }
            None => true,
        },
        (true, Some(BoxKind::Sbox)) if ctl & 0xff == 0 => match o.props.packet {
            Some(pk) => sbox::packet_matches(pk, b.aux[0], b.aux[1], b.aux[2]),
            None => true,
        },
        _ => true,
    };
    ok.then(|| amount(ctl, o))
}

fn cbox_filter(p: PlatformId, b: &ModelBox, ctl: u64, o: &Occurrence) -> bool {
    let ivb = p == PlatformId::IVY_BRIDGE_EP;
    let f = if ivb {
        b.aux[0] & 0xffff_ffff | b.aux[1] << 32
    } else {
        b.aux[0]
    };
    let (tid, nid, state, opc) = if ivb {
        (
            f & 0x1f,
            (f >> 32) & 0xffff,
            (f >> 17) & 0x3f,
            (f >> 52) & 0x1ff,
        )
    } else {
        (
            f & 0x1f,
            (f >> 10) & 0xff,
            (f >> 18) & 0x1f,
            (f >> 23) & 0x1ff,
        )
    };
    if ctl & bit(19) != 0 && o.props.tid.map(u64::from) != Some(tid) {
        return false;
    }
    // A bit number past the register's bits is a state (node) the filter
    // cannot select.
    let has = |field: u64, b: u8| {
        1u64.checked_shl(u32::from(b))
            .is_some_and(|m| field & m != 0)
    };
    if let Some(s) = o.props.state {
        if !has(state, s) {
            return false;
        }
    }
    if let Some(n) = o.props.nid {
        if !has(nid, n) {
            return false;
        }
    }
    if let Some(x) = o.props.opc {
        if opc != u64::from(x) {
            return false;
        }
    }
    true
}

fn pcu_filter(b: &ModelBox, ctl: u64, o: &Occurrence) -> bool {
    if let Some(sel) = o.props.occ_sel {
        if (ctl >> 14) & 3 != u64::from(sel) {
            return false;
        }
    }
    let ev = ctl & 0xff;
    if (0xb..=0xe).contains(&ev) && ctl & bit(21) == 0 {
        let band = (b.aux[0] >> (8 * (ev - 0xb))) & 0xff;
        if let Some(freq) = o.props.freq {
            return u64::from(freq) >= band;
        }
    }
    true
}

fn nhm_special(
    p: PlatformId,
    b: &ModelBox,
    kind: BoxKind,
    j: usize,
    ctl: u64,
    o: &Occurrence,
) -> Option<u64> {
    let n = o.cycles.saturating_mul(inc_of(o));
    match kind {
        BoxKind::Bbox => {
            let ev = (ctl >> 1) & 0x1f;
            let mine = o.props.counter.unwrap_or(j as u8) as usize == j;
            if ev != u64::from(o.event) || !mine {
                return None;
            }
            if let Some(pk) = o.props.packet {
                if (pk ^ b.aux[0]) & b.aux[1] != 0 {
                    return None;
                }
            }
            Some(n)
        }
        BoxKind::Mbox => {
            let inc_sel = (ctl >> 9) & 0x1f;
            if inc_sel != u64::from(o.event) {
                return None;
            }
            let sub = o.props.sub;
            let reg = |r: usize| b.aux[r];
            let ok = match inc_sel {
                0xd..=0x10 => {
                    let (shared, fields) = zdp_layout(p == PlatformId::WESTMERE_EX);
                    let f = (inc_sel - 0xd) as usize;
                    match sub {
                        Some(v) => {
                            let want = (v & shared) | fields[f].set(0, fields[0].get(v));
                            reg(7) & (shared | fields[f].mask()) == want
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
                        (Some(r), Some(v)) => reg(r) & v == v,
                        _ => true,
                    }
                }
            };
            ok.then_some(n)
        }
        BoxKind::Rbox => {
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
            ok.then_some(n)
        }
        _ => None,
    }
}

/// Adds `n` to counter `j` (or the fixed counter) of box `k`, handling wrap,
/// overflow status, its propagation, PMIs and freezes.
fn add(p: PlatformId, sock: &mut Socket, k: usize, j: Option<usize>, n: u64) {
    let b = &mut sock.boxes[k];
    let mbox = is_mbox(b);
    let (c, width) = match j {
        Some(j) => (&mut b.ctrs[j], b.width),
        None => (&mut b.fixed, b.fixed_width),
    };
    let max = low_mask(u32::from(width));
    let ctl = c.ctl;
    let total = u128::from(c.value) + u128::from(n);
    let overflow = total > u128::from(max);
    let stop = match (b.family, j) {
        // M-box wrap_mode = 0: the counter stops at overflow (Table 2-67).
        (Family::NhmBox, Some(_)) if mbox => ctl & bit(6) == 0,
        // Xeon 7100/7400 saturate (bit 59).
        (Family::L3, _) => ctl & bit(59) != 0,
        _ => false,
    };
    c.value = if overflow && stop {
        max
    } else {
        (total & u128::from(max)) as u64
    };
    if !overflow {
        return;
    }
    let pmi_en = match (b.family, j) {
        (Family::NhmBox, None) => ctl & bit(1) != 0,
        (Family::NhmBox, Some(_)) => {
            let t = platforms::by_id(p).types.get(b.ty as usize).map(|t| t.kind);
            match t {
                Some(BoxKind::Mbox) => ctl & bit(1) != 0,
                Some(BoxKind::Rbox) => ctl & bit(6) != 0,
                _ => ctl & bit(20) != 0,
            }
        }
        (Family::NhmUbox, _) | (Family::Skl, _) => ctl & bit(20) != 0,
        _ => false,
    };
    let fam = b.family;
    let ty = b.ty;
    match fam {
        Family::NhmBox | Family::NhmUbox => {
            let w =
                platforms::by_id(p).types.get(ty as usize).map(|t| t.kind) == Some(BoxKind::Wbox);
            if fam == Family::NhmUbox {
                sock.global_status |= u::OV_U;
            } else {
                b.status |= match j {
                    Some(j) => 1 << j,
                    None => 1 << 31,
                };
                let latch = if w {
                    u::OV_W
                } else if side_of(p, b) == 0 {
                    u::OV_S0
                } else {
                    u::OV_S1
                };
                sock.global_status |= latch;
            }
            sock.global_status |= u::COND;
            if pmi_en {
                sock.global_status |= u::PMI;
                if sock.global_ctl & u::FRZ_ALL != 0 {
                    sock.global_ctl &= !u::EN_ALL;
                }
                let cores = (sock.global_ctl & u::PMI_CORE_SEL) >> 1;
                if cores != 0 {
                    sock.pmi_pending |= cores;
                    sock.pmis += 1;
                }
            }
        }
        Family::Skl if (pmi_en || (j.is_none() && ctl & bit(20) != 0)) => {
            let t = platforms::by_id(p).types.get(ty as usize).map(|t| t.kind);
            sock.global_status |= match (j, t) {
                (None, _) => skl_bits::FIXED_OVF,
                (_, Some(BoxKind::Arb)) => skl_bits::ARB_OVF,
                _ => skl_bits::CBO_OVF,
            };
            if sock.global_ctl & skl_bits::FRZ_ON_PMI != 0 {
                sock.global_ctl &= !skl_bits::EN;
            }
            let cores = sock.global_ctl & 0xf;
            if cores != 0 {
                sock.pmi_pending |= cores;
                sock.pmis += 1;
            }
        }
        Family::L3 => {
            let first = group_first(b);
            if let Some(j) = j {
                sock.global_status |= 1 << (first + j);
            }
        }
        _ => {}
    }
}

fn is_mbox(b: &ModelBox) -> bool {
    platforms::by_id(PlatformId::WESTMERE_EX)
        .types
        .get(b.ty as usize)
        .is_some_and(|t| Some(t.kind) == Some(BoxKind::Mbox))
}

/// Which S-box side (0 or 1) a box reports its overflows to (Table 2-26).
pub(super) fn side_of(p: PlatformId, b: &ModelBox) -> u8 {
    let t = platforms::by_id(p).types.get(b.ty as usize).map(|t| t.kind);
    // Westmere-EX: C-boxes 0-4 on S-box 0, 5-9 on S-box 1; Nehalem-EX
    // (eight C-boxes): 0-3 and 4-7.
    let half = if p == PlatformId::NEHALEM_EX { 4 } else { 5 };
    match (t, b.index) {
        (Some(BoxKind::Cbox), i) if i < half => 0,
        (Some(BoxKind::Cbox), _) => 1,
        (_, i) => i.min(1),
    }
}

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
//!   manual's own rules (in its platform's files).
//! - M-box subcontrol events count when the subcontrol register has all
//!   bits of the occurrence's `sub`; `ZDP_CTL_FVC` event field `n` counts
//!   occurrences whose FVC value (given in field-0 layout) it equals.
//! - Xeon 7100/7400 events count when the control field has every bit of the
//!   occurrence's attribute set `sub` (in the control field's position).

//!
//! What differs between parts (filters, special boxes, errata) is each
//! platform's `SimSpec`, in the platform's `model` file; this file applies
//! the rules of the families and calls those.

use super::precond;
use super::regs::{group_of, skl_bits, u};
use super::{Family, ModelBox, ModelError, Socket};
use crate::hw::bits::{bit, low_mask};
use crate::hw::desc::{BoxKind, PlatformId};
use crate::hw::platforms;

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

/// The `event=` value of an alias's terms.
pub(crate) fn alias_event(terms: &crate::hw::desc::Terms) -> Option<u16> {
    terms.value("event").and_then(|v| u16::try_from(v).ok())
}

/// What one cycle of `o` adds (at least one).
pub(crate) fn inc_of(o: &Occurrence) -> u64 {
    u64::from(o.inc.max(1))
}

/// Increments a counter with control `ctl` gets from `o`, with threshold,
/// invert and edge detect (the threshold field is bits 31:24 wherever the
/// box has one; the implemented-bits mask keeps it zero elsewhere).
pub(crate) fn amount(ctl: u64, o: &Occurrence) -> u64 {
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

/// The event select of control `ctl`: bits 7:0 and the extended select
/// bit 21 as bit 8.
pub(crate) fn event_select(ctl: u64) -> u16 {
    (ctl & 0xff) as u16 | if ctl & bit(21) != 0 { 0x100 } else { 0 }
}

/// What a counter with control `ctl` counts of `o` by its event select
/// and the unit mask bits in `field` (the bits of the unit mask that
/// select sub-events), or `None` when it is not programmed for it.
pub(crate) fn select_counts(ctl: u64, field: u8, o: &Occurrence) -> Option<u64> {
    let umask = ((ctl >> 8) & 0xff) as u8 & field;
    (event_select(ctl) == o.event && umask_bits_ok(umask, o)).then(|| amount(ctl, o))
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
    let spec = &platforms::by_id(p).sim;
    let ty = platforms::by_id(p).types.get(b.ty as usize).map(|t| t.kind);
    // The widest event select is 9 bits (with the extended select bit).
    if o.event > 0x1ff || ty.is_some_and(|k| !(spec.fits)(k, o)) {
        return Err(ModelError::Range);
    }
    // An occurrence of an event with a precondition carries the property
    // its filter matches.
    if let Some((r, key)) = ty.and_then(|k| precond::lacking(spec.preconditions, k, o)) {
        return Err(ModelError::Lacks { event: r.name, key });
    }
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
        let n = ty.and_then(|k| (spec.counts)(sock, &b, k, j, ctl, o));
        if let Some(mut n) = n {
            // An S-box queue occupancy event adds the occupancy on top of
            // what its subcounter kept (0 after `reset_occ_cnt`), which then
            // keeps this occupancy.
            let mut occ = None;
            if ty.is_some_and(|k| (spec.occupancy)(k, o.event)) {
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

/// Whether counter `j` of `b` is enabled through the whole hierarchy.
pub(super) fn counter_enabled(p: PlatformId, sock: &Socket, b: &ModelBox, j: usize) -> bool {
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
            let en = if is_bit0_box(p, b) {
                ctl & 1 != 0
            } else {
                ctl & bit(22) != 0
            };
            sock.global_ctl & u::EN_ALL != 0 && b.box_ctl & (1 << j) != 0 && en
        }
        Family::Skl => sock.global_ctl & skl_bits::EN != 0 && ctl & bit(22) != 0,
        Family::L3 => ctl != 0 && sock.l3_frozen & (1 << (group_of(p, b) + j)) == 0,
        Family::SklImc => true,
        Family::QpiFilter | Family::None => false,
    }
}

/// Whether `b` is an NHM-EX-style B-, M- or R-box, whose counter enable is
/// bit 0.
fn is_bit0_box(p: PlatformId, b: &ModelBox) -> bool {
    let t = platforms::by_id(p).types.get(b.ty as usize);
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

/// Adds `n` to counter `j` (or the fixed counter) of box `k`, handling wrap,
/// overflow status, its propagation, PMIs and freezes.
fn add(p: PlatformId, sock: &mut Socket, k: usize, j: Option<usize>, n: u64) {
    let b = &mut sock.boxes[k];
    let mbox = is_mbox(p, b);
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
            let first = group_of(p, b);
            if let Some(j) = j {
                sock.global_status |= 1 << (first + j);
            }
        }
        _ => {}
    }
}

fn is_mbox(p: PlatformId, b: &ModelBox) -> bool {
    platforms::by_id(p)
        .types
        .get(b.ty as usize)
        .is_some_and(|t| Some(t.kind) == Some(BoxKind::Mbox))
}

/// Which S-box side (0 or 1) a box reports its overflows to: the side
/// whose summary has a bit for it (Table 2-26).
fn side_of(p: PlatformId, b: &ModelBox) -> u8 {
    let spec = &platforms::by_id(p).sim;
    match platforms::by_id(p).types.get(b.ty as usize) {
        Some(t) if (spec.summary_bit)(t.kind, b.index, 0).is_none() => 1,
        _ => 0,
    }
}

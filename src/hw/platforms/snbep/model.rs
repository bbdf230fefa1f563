// SPDX-License-Identifier: GPL-2.0

//! The register model's rules of Sandy Bridge-EP (327043), which Ivy
//! Bridge-EP shares with its own filter layout: the C-box filter (Table
//! 2-12), the PCU band filter and occupancy select, and the QPI packet
//! match/mask devices.

use crate::hw::bits::Field;
use crate::hw::desc::{BoxKind, SimSpec};
use crate::hw::model::count::select_counts;
use crate::hw::model::precond::{self, preconditions, Precondition, NID, OPC, STATE};
use crate::hw::model::{Family, GlobalBlock, ModelBox, Occurrence, Socket};

/// The Sandy Bridge-EP events that count only with a C-box filter field
/// set (jaketown's uncore JSON).
pub const PRECONDITIONS: &[Precondition] = preconditions!("preconditions.tsv");

/// The register model's behaviour class of each box kind: the U-box has no
/// box control, the HA and iMC controls no reset bits (327043 §2.1.1).
fn family(kind: BoxKind) -> Family {
    match kind {
        BoxKind::Ubox => Family::EpUbox,
        BoxKind::Ha | BoxKind::Imc => Family::SnbNoReset,
        _ => Family::SnbBox,
    }
}

/// Where a C-box filter keeps its fields, in one 64-bit value (a second
/// filter register's low half, where there is one, at bits 63:32).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CboxFilter {
    /// The filter registers' distance from C-box 0's first (0xd14); the
    /// C-boxes are 0x20 apart.
    pub regs: &'static [u32],
    /// TID.
    pub tid: Field,
    /// NID (one bit per node).
    pub nid: Field,
    /// STATE (one bit per cache state).
    pub state: Field,
    /// OPC.
    pub opc: Field,
}

/// SNB-EP `Cn_MSR_PMON_BOX_FILTER` (Table 2-12): tid 4:0, nid 17:10,
/// state 22:18, opc 31:23.
const SNBEP_FILTER: CboxFilter = CboxFilter {
    regs: &[0],
    tid: Field::new(0, 4),
    nid: Field::new(10, 17),
    state: Field::new(18, 22),
    opc: Field::new(23, 31),
};

impl CboxFilter {
    /// The filter value of `b`.
    fn value(&self, b: &ModelBox) -> u64 {
        match self.regs {
            [_, _] => b.aux[0] & 0xffff_ffff | b.aux[1] << 32,
            _ => b.aux[0],
        }
    }

    /// Whether the filter of `b` lets `o` through, for a counter with
    /// control `ctl`: TID when `tid_en` (bit 19); then, for an event with
    /// preconditions, the fields `need` names ([`precond::needs_of`]),
    /// each of which must select `o`'s property (a state filter selecting
    /// none counts nothing), and the others where set; for another event,
    /// the state and node bits `o` carries, its opcode.
    fn passes(&self, b: &ModelBox, ctl: u64, o: &Occurrence, need: Option<u8>) -> bool {
        let f = self.value(b);
        if ctl & (1 << 19) != 0 && o.props.tid.map(u64::from) != Some(self.tid.get(f)) {
            return false;
        }
        // A bit number past the register's bits is a state (node) the
        // filter cannot select.
        let has = |field: u64, b: u8| {
            1u64.checked_shl(u32::from(b))
                .is_some_and(|m| field & m != 0)
        };
        let pr = &o.props;
        let state = pr.state.map(|s| has(self.state.get(f), s));
        let nid = pr.nid.map(|n| has(self.nid.get(f), n));
        let opc = pr.opc.map(|x| self.opc.get(f) == u64::from(x));
        // A needed field must match; for an event with preconditions, a
        // field it does not need qualifies nothing while zero (the
        // sub-events without a node or opcode match); otherwise a field
        // matches what `o` carries.
        let field = |bit: u8, value: &Field, m: Option<bool>| match need {
            Some(need) if need & bit != 0 => m == Some(true),
            Some(_) if value.get(f) == 0 => true,
            _ => m.unwrap_or(true),
        };
        field(STATE, &self.state, state) && field(NID, &self.nid, nid) && field(OPC, &self.opc, opc)
    }

    /// Whether the filter can hold `o`'s TID, opcode and state (node) bit
    /// numbers (one bit per state or node).
    fn holds(&self, o: &Occurrence) -> bool {
        let below = |v: Option<u64>, limit: u64| !matches!(v, Some(v) if v >= limit);
        let pr = &o.props;
        below(pr.tid.map(u64::from), 1 << self.tid.width())
            && below(pr.state.map(u64::from), u64::from(self.state.width()))
            && below(pr.nid.map(u64::from), u64::from(self.nid.width()))
            && below(pr.opc.map(u64::from), 1 << self.opc.width())
    }
}

/// The C-box filter registers (0xd14, and those `layout` adds) and the PCU
/// band filter (0xc34).
pub(crate) fn aux_msr(layout: &CboxFilter, kind: BoxKind, i: u32, msr: u32) -> Option<usize> {
    match kind {
        BoxKind::Cbox => layout
            .regs
            .iter()
            .position(|&off| msr == 0xd14 + off + 0x20 * i),
        BoxKind::Pcu if msr == 0xc34 => Some(0),
        _ => None,
    }
}

/// The registers' limits: the C-box filter's fields, the PCU's 2-bit
/// `occ_sel`.
pub(crate) fn fits(layout: &CboxFilter, kind: BoxKind, o: &Occurrence) -> bool {
    match kind {
        BoxKind::Cbox => layout.holds(o),
        BoxKind::Pcu => !matches!(o.props.occ_sel, Some(s) if s >= 4),
        _ => true,
    }
}

/// What counter `j` of `b` counts of `o`: the event select and unit mask,
/// then the box's filter, with the fields `table`'s preconditions need.
pub(crate) fn counts(
    layout: &CboxFilter,
    table: &[Precondition],
    sock: &Socket,
    b: &ModelBox,
    kind: BoxKind,
    ctl: u64,
    o: &Occurrence,
) -> Option<u64> {
    let n = select_counts(ctl, 0xff, o)?;
    let ok = match kind {
        BoxKind::Cbox => layout.passes(b, ctl, o, precond::needs_of(table, kind, ctl)),
        BoxKind::Pcu => pcu_filter(b, ctl, o),
        // QPI event 0x38 counts the packets of the box's match/mask device.
        BoxKind::Qpi if ctl & 0xff == 0x38 => match o.props.packet {
            Some(pk) => sock.boxes[..sock.n_boxes]
                .iter()
                .find(|f| f.family == Family::QpiFilter && f.index == b.index)
                .is_some_and(|f| (pk ^ f.aux[0]) & f.aux[1] == 0),
            None => true,
        },
        _ => true,
    };
    ok.then_some(n)
}

/// The PCU: `occ_sel` (15:14) selects the occupancy counted; the band
/// events 0xb-0xe count at or above their band's frequency (the band
/// filter's byte per event).
fn pcu_filter(b: &ModelBox, ctl: u64, o: &Occurrence) -> bool {
    if let Some(sel) = o.props.occ_sel {
        if (ctl >> 14) & 3 != u64::from(sel) {
            return false;
        }
    }
    let ev = ctl & 0xff;
    if (0xb..=0xe).contains(&ev) && ctl & (1 << 21) == 0 {
        let band = (b.aux[0] >> (8 * (ev - 0xb))) & 0xff;
        if let Some(freq) = o.props.freq {
            return u64::from(freq) >= band;
        }
    }
    true
}

/// Sandy Bridge-EP's model. The simulated fixed counter runs at the iMC's
/// DCLK (DDR3-1600).
pub const SIM: SimSpec = SimSpec {
    aux_msr: |kind, i, msr| aux_msr(&SNBEP_FILTER, kind, i, msr),
    fits: |kind, o| fits(&SNBEP_FILTER, kind, o),
    counts: |sock, b, kind, _, ctl, o| counts(&SNBEP_FILTER, PRECONDITIONS, sock, b, kind, ctl, o),
    preconditions: PRECONDITIONS,
    ..SimSpec::new(family, GlobalBlock::None, 0, 800)
};

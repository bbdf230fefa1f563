// SPDX-License-Identifier: GPL-2.0

//! The Nehalem-EX/Westmere-EX box and global controls (325294 §2.1):
//! every box's `*_PMON_GLOBAL_CTL` with one enable bit per counter, the
//! U-box counter's enable in `U_MSR_PMON_GLOBAL_CTL`, and that register's
//! platform-wide fields with the overflow-status hierarchy below
//! `U_MSR_PMON_GLOBAL_STATUS` (§2.1.4).

use super::{
    U_GLOBAL_CTL, U_GLOBAL_CTL_MSR, U_GLOBAL_OVF_CTL, U_GLOBAL_STATUS, U_GLOBAL_STATUS_MSR,
};
use crate::hw::box_control::{BoxControl, BoxRun};
use crate::hw::desc::{BoxKind, BoxType, Platform};
use crate::hw::global::GlobalControl;
use crate::hw::overflow::{Hit, Walk};
use crate::hw::pmi_probe::ProbeCounter;
use crate::hw::program::{box_ctl_addr, Addr, Ctr, GlobalState, Msr, Ops, OverflowBit};

/// `U_MSR_PMON_GLOBAL_CTL` fields (325294 Table 2-2).
pub mod u_global {
    /// `frz_all`.
    pub const FRZ_ALL: u64 = 1 << 31;
    /// `rst_all`.
    pub const RST_ALL: u64 = 1 << 29;
    /// `en_all`.
    pub const EN_ALL: u64 = 1 << 28;
    /// Shift of `pmi_core_sel` (bits 10:1).
    pub const PMI_CORE_SEL_SHIFT: u32 = 1;
    /// Mask of `pmi_core_sel` in place.
    pub const PMI_CORE_SEL: u64 = 0x3ff << 1;
    /// `en` (the U-box counter).
    pub const EN: u64 = 1;
}

/// A box's `*_PMON_GLOBAL_CTL`: one enable bit per counter (bit `j` for
/// counter `j`), plus `fixed_en` for the W-box fixed counter.
#[derive(Debug)]
pub struct CounterEnables {
    /// Extra enable bit of the fixed counter, if any.
    pub fixed_en: u64,
}

impl CounterEnables {
    /// The register's value that enables the counters in `enabled`.
    fn value(&self, t: &BoxType, enabled: u32) -> u64 {
        let mut v = u64::from(enabled & t.all_counters());
        if enabled & (1 << t.fixed_index()) != 0 {
            v |= self.fixed_en;
        }
        v
    }
}

impl BoxControl for CounterEnables {
    fn init(&self, ctl: Option<Addr>, ops: &mut Ops) {
        if let Some(a) = ctl {
            ops.write(a, 0);
        }
    }

    fn run(&self, r: &BoxRun<'_>, ops: &mut Ops) {
        if let Some(a) = r.ctl {
            ops.write(
                a,
                if r.run {
                    self.value(r.ty, r.enabled)
                } else {
                    0
                },
            );
        }
    }

    /// The register's value itself.
    fn run_key(&self, t: &BoxType, run: bool, enabled: u32) -> Option<u64> {
        Some(if run { self.value(t, enabled) } else { 0 })
    }

    fn run_key_after_init(&self) -> Option<u64> {
        Some(0)
    }
}

/// The U-box: its counter's enable is bit 0 (`en`) of
/// `U_MSR_PMON_GLOBAL_CTL`, which also holds the platform-wide controls.
#[derive(Debug)]
pub struct UboxEnable;

impl BoxControl for UboxEnable {
    fn run(&self, r: &BoxRun<'_>, ops: &mut Ops) {
        let g = GlobalState {
            ubox_en: r.run && r.enabled != 0,
            ..*r.global
        };
        if let Some((msr, v)) = r.platform.global.value(&g) {
            ops.write(Addr::Msr(msr), v);
        }
    }

    /// Whether it runs with its counter started.
    fn run_key(&self, _t: &BoxType, run: bool, enabled: u32) -> Option<u64> {
        Some(u64::from(run && enabled != 0))
    }

    fn in_global_control(&self) -> bool {
        true
    }
}

/// `U_MSR_PMON_GLOBAL_CTL` (0xc00) with `en_all`, `pmi_core_sel`, status
/// 0xc01 and overflow control 0xc02.
#[derive(Debug)]
pub struct UGlobal;

/// `W_MSR_PMON_FIXED_CTR_CTL`, `W_MSR_PMON_FIXED_CTR`, the W-box's
/// `GLOBAL_CTL` (`fixed_en`, bit 31) and `GLOBAL_OVF_CTRL` (Tables 2-93..2-100).
const W_FIXED_CTL: u32 = 0x395;
const W_FIXED_CTR: u32 = 0x394;
const W_GLOBAL_CTL: u32 = 0xc80;
const W_GLOBAL_OVF_CTL: u32 = 0xc82;
/// The probe counter's preset: 2^16 counts below the top.
const PROBE_COUNTS: u64 = 1 << 16;

/// The routing check's probe ([`GlobalControl::pmi_probe`]): the fixed
/// counter stopped, preset, enabled with `pmi_en` (bit 1) and `en` (bit 0);
/// afterwards stopped, zeroed and its overflow, `ov_w`, `pmi` and `cond`
/// cleared (Tables 2-3, 2-96).
const PROBE: ProbeCounter = ProbeCounter {
    kind: BoxKind::Wbox,
    index: 0,
    arm: &[
        (Msr::new(W_FIXED_CTL), 0),
        (Msr::new(W_FIXED_CTR), (1 << 48) - PROBE_COUNTS),
        (Msr::new(W_GLOBAL_CTL), 1 << 31),
        (Msr::new(W_FIXED_CTL), 0b11),
    ],
    disarm: &[
        (Msr::new(W_FIXED_CTL), 0),
        (Msr::new(W_GLOBAL_CTL), 0),
        (Msr::new(W_FIXED_CTR), 0),
        (Msr::new(W_GLOBAL_OVF_CTL), 1 << 31),
        (Msr::new(U_GLOBAL_OVF_CTL), (1 << 31) | (1 << 30) | (1 << 1)),
    ],
    counts: PROBE_COUNTS,
};

/// `S_MSR_PMON_SUMMARY` of S-box 0 and 1.
const S_SUMMARY: [u32; 2] = [0xc43, 0xcc3];

impl GlobalControl for UGlobal {
    fn value(&self, g: &GlobalState) -> Option<(Msr, u64)> {
        let mut v = u_global::EN_ALL
            | ((g.pmi_cores << u_global::PMI_CORE_SEL_SHIFT) & u_global::PMI_CORE_SEL);
        if g.ubox_en {
            v |= u_global::EN;
        }
        if g.freeze_on_pmi {
            v |= u_global::FRZ_ALL;
        }
        Some((Msr::new(U_GLOBAL_CTL), v))
    }

    /// `ov_u`/`ov_w`/`ov_s0`/`ov_s1` -> the S-box's `S_MSR_PMON_SUMMARY`
    /// (whose bits differ between the parts: `Platform::s_summary`) -> the
    /// reporting boxes' `GLOBAL_STATUS` -> counters; cleared through the
    /// boxes' `GLOBAL_OVF_CTL` (which clears the summaries above) and the
    /// U-box's `GLOBAL_OVF_CTL` for `ov_u`, `pmi` and `cond`.
    fn walk(&self, p: &Platform, read: &mut dyn FnMut(u32) -> u64, w: &mut Walk) {
        // U_MSR_PMON_GLOBAL_STATUS bits (Table 2-3).
        const OV_U: u64 = 1 << 0;
        const OV_W: u64 = 1 << 1;
        const OV_S1: u64 = 1 << 2;
        const OV_S0: u64 = 1 << 3;
        const PMI: u64 = 1 << 30;
        const COND: u64 = 1 << 31;
        let st = read(U_GLOBAL_STATUS);
        w.pmi = st & PMI != 0;
        if st & OV_W != 0 {
            box_status(p, w, BoxKind::Wbox, 0, read);
        }
        for (side, flag) in [(0u8, OV_S0), (1, OV_S1)] {
            if st & flag == 0 {
                continue;
            }
            let sum = read(S_SUMMARY[side as usize]);
            for s in p.s_summary.iter().filter(|s| s.side == side) {
                if sum & (1u64 << (s.bit & 63)) != 0 {
                    for &(kind, i) in s.boxes {
                        box_status(p, w, kind, i, read);
                    }
                }
            }
        }
        if st & OV_U != 0 {
            if let Some((ti, _)) = p.type_of(BoxKind::Ubox) {
                w.hit(Hit {
                    ty: ti as u8,
                    index: 0,
                    counters: 1,
                    fixed: false,
                    exact: true,
                });
            }
        }
        let u_clear = (st & (OV_U | OV_W | OV_S0 | OV_S1)) | (st & (PMI | COND));
        if u_clear != 0 {
            w.clear(U_GLOBAL_OVF_CTL, u_clear);
        }
    }

    fn raises_pmis(&self) -> bool {
        true
    }

    /// `pmi_core_sel`'s ten bits, one per core.
    fn pmi_core_bit(&self, rank: u32) -> u64 {
        let field = u_global::PMI_CORE_SEL >> u_global::PMI_CORE_SEL_SHIFT;
        1u64.checked_shl(rank)
            .filter(|b| b & field != 0)
            .unwrap_or(0)
    }

    /// The W-box's fixed counter (Tables 2-98, 2-100): it counts the
    /// uncore clock without an event to program, so it overflows within
    /// microseconds of a preset 2^16 below its 48-bit top (whose low 24 bits,
    /// 0xff0000, avoid the Westmere-EX erratum's 0xfffffe and 0xffffff).
    fn pmi_probe(&self) -> Option<ProbeCounter> {
        Some(PROBE)
    }

    /// A PMI with `frz_all` clears `en_all`.
    fn stopped_by_pmi(&self) -> Option<(Msr, u64)> {
        Some((U_GLOBAL_CTL_MSR, u_global::EN_ALL))
    }

    /// `U_MSR_PMON_GLOBAL_STATUS.pmi` (Table 2-3).
    fn pmi_status(&self) -> Option<(Msr, u64)> {
        Some((U_GLOBAL_STATUS_MSR, 1 << 30))
    }

    /// The box's `GLOBAL_STATUS` and `GLOBAL_OVF_CTL` at box control +1
    /// and +2, the W-box fixed counter's bit 31, the U-box counter's
    /// `ov_u`.
    fn overflow_bit(&self, t: &BoxType, i: usize, c: Ctr) -> Option<OverflowBit> {
        if t.box_ctl.in_global_control() {
            return Some(OverflowBit {
                status: U_GLOBAL_STATUS,
                clear: U_GLOBAL_OVF_CTL,
                bit: 1,
            });
        }
        let Some(Addr::Msr(ctl)) = box_ctl_addr(t, i) else {
            return None;
        };
        let ctl = ctl.addr();
        let bit = match c {
            Ctr::General(j) => 1u64 << j,
            Ctr::Fixed => 1 << 31,
            Ctr::Free(_) => return None,
        };
        Some(OverflowBit {
            status: ctl + 1,
            clear: ctl + 2,
            bit,
        })
    }
}

/// Adds box `i` of `kind`'s overflowed counters from its `GLOBAL_STATUS`
/// to `w`, and the `GLOBAL_OVF_CTL` write that clears them.
fn box_status(p: &Platform, w: &mut Walk, kind: BoxKind, i: u8, read: &mut dyn FnMut(u32) -> u64) {
    let Some((ti, t)) = p.type_of(kind) else {
        return;
    };
    if i >= t.num_boxes {
        return;
    }
    let Some(Addr::Msr(ctl)) = box_ctl_addr(t, i as usize) else {
        return;
    };
    let ctl = ctl.addr();
    let bits =
        read(ctl + 1) & (((1 << t.num_counters) - 1) | if t.fixed.is_some() { 1 << 31 } else { 0 });
    if bits != 0 {
        w.hit(Hit {
            ty: ti as u8,
            index: i,
            counters: (bits & ((1 << t.num_counters) - 1)) as u32,
            fixed: bits & (1 << 31) != 0,
            exact: true,
        });
        w.clear(ctl + 2, bits);
    }
}

// SPDX-License-Identifier: GPL-2.0

//! The overflow-status walk: from the platform's global status down to the
//! counters that overflowed, and the writes that clear exactly what was
//! found.
//!
//! NHM-EX/WSM-EX (325294 §2.1.4): `U_MSR_PMON_GLOBAL_STATUS`
//! `ov_u`/`ov_w`/`ov_s0`/`ov_s1` -> the S-box's `S_MSR_PMON_SUMMARY`
//! (whose bits differ between the parts: `Platform::s_summary`) ->
//! the reporting boxes' `GLOBAL_STATUS` -> counters; cleared through the
//! boxes' `GLOBAL_OVF_CTL` (which clears the summaries above) and the
//! U-box's `GLOBAL_OVF_CTL` for `ov_u`, `pmi` and `cond`.
//! Skylake (334060 Table 2-3): `MSR_UNC_PERF_GLOBAL_STATUS` names the fixed
//! counter, the ARB, or "a CBo counter on any slice", not which counter;
//! such hits are inexact and the caller updates every counter of the boxes.
//! Xeon 7100/7400: `GL_event_status` of `MSR_EMON_L3_GL_CTL`.
//! IVB-EP: the guide fragment gives the procedure but not the status
//! registers' addresses or bits, so IVB-EP has no walk (it relies on
//! polling; see `poll`).

use super::desc::{BoxKind, Global, Platform, Space};
use super::platforms::{l3, nhmex, skl};
use super::program::{box_ctl_addr, Msr};

/// Most boxes one walk can report.
pub const MAX_HITS: usize = 24;
/// Most clearing writes of one walk.
pub const MAX_CLEARS: usize = 28;

/// The overflowed counters of one box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Hit {
    /// Index of the box type in the platform.
    pub ty: u8,
    /// Box instance.
    pub index: u8,
    /// Overflowed general counters (bit `j` for counter `j`).
    pub counters: u32,
    /// The fixed counter overflowed.
    pub fixed: bool,
    /// The status names the counters; when false, some counter of the box
    /// (or of every box of the type) overflowed and all must be updated.
    pub exact: bool,
}

/// The result of a walk.
#[derive(Clone, Copy, Debug)]
pub struct Walk {
    hits: [Hit; MAX_HITS],
    n_hits: usize,
    clears: [(Msr, u64); MAX_CLEARS],
    n_clears: usize,
    /// The global status showed a PMI (NHM-EX/WSM-EX `pmi`).
    pub pmi: bool,
}

impl Default for Walk {
    fn default() -> Self {
        Walk {
            hits: [Hit::default(); MAX_HITS],
            n_hits: 0,
            clears: [(Msr::new(0), 0); MAX_CLEARS],
            n_clears: 0,
            pmi: false,
        }
    }
}

impl Walk {
    /// The boxes with overflowed counters.
    pub fn hits(&self) -> &[Hit] {
        &self.hits[..self.n_hits]
    }

    /// The MSR writes (address, value) that clear what was found, in order.
    pub fn clears(&self) -> &[(Msr, u64)] {
        &self.clears[..self.n_clears]
    }

    /// Whether anything overflowed.
    pub fn is_empty(&self) -> bool {
        self.n_hits == 0
    }

    fn hit(&mut self, h: Hit) {
        if self.n_hits < MAX_HITS {
            self.hits[self.n_hits] = h;
            self.n_hits += 1;
        }
    }

    fn clear(&mut self, msr: u32, v: u64) {
        if self.n_clears < MAX_CLEARS {
            self.clears[self.n_clears] = (Msr::new(msr), v);
            self.n_clears += 1;
        }
    }
}

/// Walks the overflow status of platform `p` with `read` (an MSR read);
/// returns what overflowed and how to clear it.
pub fn walk(p: &Platform, mut read_msr: impl FnMut(Msr) -> u64) -> Walk {
    let mut read = |a: u32| read_msr(Msr::new(a));
    let mut w = Walk::default();
    match p.global {
        Global::NhmexU => nhmex_walk(p, &mut read, &mut w),
        Global::Skl => {
            let st = read(skl::GLOBAL_STATUS);
            let pos = |k| p.type_of(k).map_or(0, |(i, _)| i as u8);
            let (cbox, arb) = (pos(BoxKind::Cbox), pos(BoxKind::Arb));
            if st & 1 != 0 {
                w.hit(Hit {
                    ty: cbox,
                    index: 0,
                    counters: 0,
                    fixed: true,
                    exact: true,
                });
            }
            if st & 2 != 0 {
                w.hit(Hit {
                    ty: arb,
                    index: 0,
                    counters: 0x3,
                    fixed: false,
                    exact: false,
                });
            }
            if st & 8 != 0 {
                // "A CBox counter overflowed (on any slice)": every C-box.
                w.hit(Hit {
                    ty: cbox,
                    index: u8::MAX,
                    counters: 0x3,
                    fixed: false,
                    exact: false,
                });
            }
            let found = st & 0xb;
            if found != 0 {
                w.clear(skl::GLOBAL_STATUS, found);
            }
        }
        Global::L3 => {
            let st = (read(l3::GL_CTL) >> 48) & 0xff;
            for (ti, t) in p.types.iter().enumerate() {
                if let Space::Combined { base } = t.space {
                    let first = base - l3::CTR_CTL0;
                    let bits = (st >> first) as u32 & ((1 << t.num_counters) - 1);
                    if bits != 0 {
                        w.hit(Hit {
                            ty: ti as u8,
                            index: 0,
                            counters: bits,
                            fixed: false,
                            exact: true,
                        });
                    }
                }
            }
            if st != 0 {
                w.clear(l3::GL_CTL, st << 48);
            }
        }
        Global::None => {}
    }
    w
}

fn nhmex_walk(p: &Platform, read: &mut impl FnMut(u32) -> u64, w: &mut Walk) {
    const OV_U: u64 = 1 << 0;
    const OV_W: u64 = 1 << 1;
    const OV_S1: u64 = 1 << 2;
    const OV_S0: u64 = 1 << 3;
    const PMI: u64 = 1 << 30;
    const COND: u64 = 1 << 31;
    let st = read(nhmex::U_GLOBAL_STATUS);
    w.pmi = st & PMI != 0;
    let box_status = |w: &mut Walk, kind: BoxKind, i: u8, read: &mut dyn FnMut(u32) -> u64| {
        let Some((ti, t)) = p.type_of(kind) else {
            return;
        };
        if i >= t.num_boxes {
            return;
        }
        let Some(super::program::Addr::Msr(ctl)) = box_ctl_addr(t, i as usize) else {
            return;
        };
        let ctl = ctl.addr();
        let bits = read(ctl + 1)
            & (((1 << t.num_counters) - 1) | if t.fixed.is_some() { 1 << 31 } else { 0 });
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
    };
    if st & OV_W != 0 {
        box_status(w, BoxKind::Wbox, 0, read);
    }
    for (side, flag, summary) in [(0u8, OV_S0, 0xc43u32), (1, OV_S1, 0xcc3)] {
        if st & flag == 0 {
            continue;
        }
        let sum = read(summary);
        for s in p.s_summary.iter().filter(|s| s.side == side) {
            if sum & (1u64 << (s.bit & 63)) != 0 {
                for &(kind, i) in s.boxes {
                    box_status(w, kind, i, read);
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
        w.clear(nhmex::U_GLOBAL_OVF_CTL, u_clear);
    }
}

#[cfg(test)]
mod tests;

// SPDX-License-Identifier: GPL-2.0

//! The L3 / caching bus controller uncore of the Xeon 7100 series (family
//! 15 model 6) and Xeon 7400 series (family 6 model 29).
//!
//! Source: Intel SDM Vol. 3B §18.21 (seed fragment) and its figures for the
//! field layouts: eight `MSR_EMON_L3_CTR_CTLn` (0x107cc-0x107d3), each a
//! 32-bit count (bits 31:0) under an event control field (bits 63:32) that
//! counts while non-zero; two GBSQ, two GSNPQ and four FSB counters; and
//! `MSR_EMON_L3_GL_CTL` (0x107d8) to freeze, unfreeze and reset any of them
//! and report their overflow. Each group is one PMU; perf's `config` is the
//! MSR's control half in place (bits 32-58). The `saturate` bit (59) is not
//! offered: a counter that sticks at 2^32 - 1 loses counts.

use super::{cfg, f};
use crate::hw::box_control::{BoxControl, BoxRun};
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::encode::{Attr, Encoded, Invalid};
use crate::hw::global::{GlobalControl, Probe};
use crate::hw::overflow::{Hit, Walk};
use crate::hw::program::{Addr, Msr, Ops};
use crate::hw::special::Special;

#[cfg(feature = "sim")]
pub mod model;

/// `MSR_EMON_L3_GL_CTL` fields (SDM §18.21.5).
pub mod l3_global {
    /// `GL_freeze_cmd`.
    pub const FREEZE: u64 = 1 << 0;
    /// `GL_unfreeze_cmd`.
    pub const UNFREEZE: u64 = 1 << 1;
    /// `GL_reset_cmd`.
    pub const RESET: u64 = 1 << 2;
    /// Shift of `GL_event_select` (bits 23:16).
    pub const SELECT_SHIFT: u32 = 16;
    /// Shift of `GL_event_status` (bits 55:48).
    pub const STATUS_SHIFT: u32 = 48;
}

/// `MSR_EMON_L3_CTR_CTL0`.
pub const CTR_CTL0: u32 = 0x107cc;
/// `MSR_EMON_L3_GL_CTL`.
pub const GL_CTL: u32 = 0x107d8;
/// [`GL_CTL`] as a declared MSR.
pub const GL_CTL_MSR: Msr = Msr::new(GL_CTL);
/// FSB control bit 58, which "must set to 1".
pub const FSB_MUST_BE_ONE: u64 = 1 << 58;

/// Core clock upper bound of these parts, for polling intervals.
const CLOCK: u32 = 3500;

const GBSQ_FORMATS: &[Format] = &[
    cfg("agent_select", &[f(32, 35)]),
    cfg("data_flow", &[f(36, 37)]),
    cfg("type_match", &[f(38, 43)]),
    cfg("snoop_match", &[f(44, 46)]),
    cfg("l3_state", &[f(47, 53)]),
    cfg("core_module_select", &[f(54, 55)]),
    cfg("fill_eviction", &[f(56, 57)]),
    cfg("cross_snoop", &[f(58, 58)]),
];

const GSNPQ_FORMATS: &[Format] = &[
    cfg("agent_select", &[f(32, 37)]),
    cfg("type_match", &[f(38, 43)]),
    cfg("snoop_match", &[f(44, 46)]),
    cfg("l2_state", &[f(47, 53)]),
    cfg("core_select", &[f(54, 55)]),
    cfg("block_snoop", &[f(56, 56)]),
];

const FSB_FORMATS: &[Format] = &[cfg("fsb_submask", &[f(32, 57)])];

const fn group(
    kind: BoxKind,
    catalog: &'static [Alias],
    first: u32,
    n: u8,
    formats: &'static [Format],
    mask: u64,
) -> BoxType {
    BoxType {
        kind,
        catalog,
        part_catalog: &[],
        wide_catalog: &[],
        instance_catalogs: &[],
        num_boxes: 1,
        always_indexed: false,
        num_counters: n,
        ctr_bits: 32,
        fixed: None,
        space: Space::Combined {
            base: CTR_CTL0 + first,
        },
        box_ctl: &GroupFreeze,
        enable: Enable::NonZeroControl,
        ctl_mask: mask,
        formats,
        aliases: &[],
        constraints: &[],
        special: &Emon,
        rate: Rate {
            clock_mhz: CLOCK,
            max_inc: 1,
        },
    }
}

/// The EMON counters: an event needs a non-zero control field, and an FSB
/// event sets bit 58, which "must set to 1".
#[derive(Debug)]
pub struct Emon;

impl Special for Emon {
    fn encode(&self, t: &BoxType, plain: Encoded, _attr: Attr) -> Result<Encoded, Invalid> {
        if plain.ctl == 0 {
            return Err(Invalid::Value("the event control field must not be zero"));
        }
        let must = if t.kind == BoxKind::Fsb {
            FSB_MUST_BE_ONE
        } else {
            0
        };
        Ok(Encoded {
            ctl: plain.ctl | must,
            ..plain
        })
    }
}

/// `GL_event_select` bits of a counter group (bits 23:16 of
/// `MSR_EMON_L3_GL_CTL` hold one per counter).
pub fn group_select(t: &BoxType) -> u64 {
    match t.space {
        Space::Combined { base } => (((1u64 << t.num_counters) - 1) << (base - CTR_CTL0)) & 0xff,
        _ => 0,
    }
}

/// A counter group is frozen and unfrozen with `MSR_EMON_L3_GL_CTL`
/// commands naming its counters in `GL_event_select`.
#[derive(Debug)]
pub struct GroupFreeze;

impl BoxControl for GroupFreeze {
    fn run(&self, r: &BoxRun<'_>, ops: &mut Ops) {
        let sel = group_select(r.ty) << l3_global::SELECT_SHIFT;
        let cmd = if r.run {
            l3_global::UNFREEZE
        } else {
            l3_global::FREEZE
        };
        ops.write(Addr::Msr(GL_CTL_MSR), sel | cmd);
    }

    /// The freeze matters only while a counter is enabled: with none, the
    /// group is left as it is.
    fn run_key(&self, _t: &BoxType, run: bool, enabled: u32) -> Option<u64> {
        (enabled != 0).then_some(u64::from(run))
    }
}

/// `MSR_EMON_L3_GL_CTL`: commands only (no value the driver keeps), and
/// the overflow status in `GL_event_status`.
#[derive(Debug)]
pub struct EmonGlobal;

impl GlobalControl for EmonGlobal {
    fn freeze_one(&self, msr: u32, freeze: bool) -> Option<(Msr, u64)> {
        // `GL_event_select`: this counter alone.
        let sel = (1u64 << (msr.wrapping_sub(CTR_CTL0) & 7)) << l3_global::SELECT_SHIFT;
        let cmd = match freeze {
            true => l3_global::FREEZE,
            false => l3_global::UNFREEZE,
        };
        Some((GL_CTL_MSR, sel | cmd))
    }

    fn walk(&self, p: &Platform, read: &mut dyn FnMut(u32) -> u64, w: &mut Walk) {
        let st = (read(GL_CTL) >> l3_global::STATUS_SHIFT) & 0xff;
        for (ti, t) in p.types.iter().enumerate() {
            if let Space::Combined { base } = t.space {
                let first = base - CTR_CTL0;
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
            w.clear(GL_CTL, st << l3_global::STATUS_SHIFT);
        }
    }

    /// Family 15 model 6 also covers the Pentium 4 6x1, Pentium D 9xx and
    /// Xeon 5000, which have no L3 EMON registers.
    fn probe(&self) -> Option<Probe> {
        Some(Probe {
            msr: GL_CTL_MSR,
            lacking: "no L3 EMON registers",
            parts: "Xeon 7100/7400",
        })
    }
}

/// The three counter groups.
pub const TYPES: [BoxType; 3] = [
    group(
        BoxKind::Gbsq,
        catalog::l3::GBSQ,
        0,
        2,
        GBSQ_FORMATS,
        0x07ff_ffff_0000_0000,
    ),
    group(
        BoxKind::Gsnpq,
        catalog::l3::GSNPQ,
        2,
        2,
        GSNPQ_FORMATS,
        0x01ff_ffff_0000_0000,
    ),
    group(
        BoxKind::Fsb,
        catalog::l3::FSB,
        4,
        4,
        FSB_FORMATS,
        0x07ff_ffff_0000_0000,
    ),
];

/// Xeon 7100 series.
pub const XEON7100: Platform = Platform {
    id: PlatformId::XEON_7100,
    name: "xeon7100",
    description: "Xeon 7100 series",
    cpus: &[(15, 6)],
    types: &TYPES,
    global: &EmonGlobal,
    s_summary: &[],
    pci: &[],
    mmio_window: None,
    #[cfg(feature = "sim")]
    sim: model::SIM,
};

/// Xeon 7400 series.
pub const XEON7400: Platform = Platform {
    id: PlatformId::XEON_7400,
    name: "xeon7400",
    description: "Xeon 7400 series",
    cpus: &[(6, 29)],
    ..XEON7100
};

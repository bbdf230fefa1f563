// SPDX-License-Identifier: GPL-2.0

//! Skylake client (6th generation Core), family 6 models 78 and 94, and
//! the parts of the same uncore design up to the 10th generation: Kaby Lake
//! and Amber Lake (0x8e, 0x9e), Coffee Lake and Whiskey Lake (0x8e, 0x9e
//! steppings) and Comet Lake (0xa5, 0xa6), as the Linux driver drives them
//! (its `uncore.c` CPU table and `IMC_DEV` list).
//!
//! Source: 6th Generation Intel Core Processor Family Uncore Performance
//! Monitoring Reference Manual (334060-001): global control 0xe01 and status
//! 0xe02 (Tables 2-2, 2-3), the UCLK fixed counter 0x394/0x395 (Tables 2-4,
//! 2-5), `MSR_UNC_CBO_CONFIG` 0x396 (Table 2-6), two counters per CBo and two
//! in the ARB (Tables 1-2, 2-1, 2-7, 2-8), and the IMC free-running counters
//! (Table 3-3). The manual contradicts itself on the CBo: its counter
//! summary (Table 1-2) and MSR list (Table 2-1, `PERFEVTSEL0-1` and
//! `PERFCTR0-1` of each CBo) give two counters, its text in §2.4 "four event
//! select control registers" per CBo. The driver keeps the tables' two (the
//! Linux driver programs four).

use super::common::*;
use super::{cfg, f};
use crate::hw::box_control::NoBoxCtl;
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::encode::{Attr, Encoded, Invalid, Kind};
use crate::hw::global::{GlobalControl, ReportedCount};
use crate::hw::overflow::{Hit, Walk};
use crate::hw::pci::{at, bx, mchbar_base, BarWindow, PciFn, MCHBAR};
use crate::hw::program::{GlobalState, Msr};
use crate::hw::special::{Plain, Special};

#[cfg(feature = "sim")]
pub mod model;

/// `MSR_UNC_PERF_GLOBAL_CTRL` fields (334060 Table 2-2).
pub mod skl_global {
    /// `FRZ_ON_PMI`.
    pub const FRZ_ON_PMI: u64 = 1 << 31;
    /// `EN`.
    pub const EN: u64 = 1 << 29;
    /// `PMI_SEL_CORE0..3`.
    pub const PMI_SEL: u64 = 0xf;
}

/// `MSR_UNC_PERF_GLOBAL_CTRL`.
pub const GLOBAL_CTRL: u32 = 0xe01;
/// `MSR_UNC_PERF_GLOBAL_STATUS`.
pub const GLOBAL_STATUS: u32 = 0xe02;
/// `MSR_UNC_CBO_CONFIG`: number of CBo units plus one in bits 3:0.
pub const CBO_CONFIG: u32 = 0x396;
/// [`CBO_CONFIG`] as a declared MSR.
pub const CBO_CONFIG_MSR: Msr = Msr::new(CBO_CONFIG);
/// Most CBo units the C-box MSR layout holds: the manual's parts have up
/// to four, Coffee Lake-S eight. A Comet Lake-S with ten cores exposes
/// eight.
pub const MAX_CBOS: u8 = 8;
/// Where each CBo's registers sit, from CBo 0's (`0x700`/`0x706`): 0x10
/// apart for CBo 0..6 (Table 2-1), while Coffee Lake's eighth CBo has its
/// own MSR space at `0xf70`/`0xf76` (the Linux driver's
/// `CFL_UNC_CBO_7_PERFEVTSEL0`/`CFL_UNC_CBO_7_PER_CTR0`).
pub const CBO_OFFSETS: [u32; MAX_CBOS as usize] = [0x0, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x870];
/// Size of the MCHBAR window the IMC counters live in.
pub const MCHBAR_WINDOW: u32 = 0x6000;

/// Uncore clock upper bound used for polling intervals.
const UCLK: u32 = 4000;

const FORMATS: &[Format] = &[EVENT, UMASK, EDGE, INV, cfg("cmask", &[f(24, 28)])];

const CBOX_ALIASES: &[Alias] = &[Alias::plain("clockticks", "event=0xff,umask=0x00")];

/// IMC aliases. Only the data counters count whole 64-byte lines; the
/// request counters are reported as counts because partial writes make
/// "requests x 64 bytes" inaccurate (Table 3-3).
const IMC_ALIASES: &[Alias] = &[
    Alias::mib("data_reads", "event=0x01"),
    Alias::mib("data_writes", "event=0x02"),
    Alias::plain("gt_requests", "event=0x03"),
    Alias::plain("ia_requests", "event=0x04"),
    Alias::plain("io_requests", "event=0x05"),
];

/// The Skylake box types.
pub const TYPES: [BoxType; 3] = [
    BoxType {
        catalog: catalog::skl::CBOX,
        part_catalog: &[],
        wide_catalog: &[],
        instance_catalogs: &[],
        kind: BoxKind::Cbox,
        num_boxes: MAX_CBOS,
        always_indexed: true,
        num_counters: 2,
        ctr_bits: 44,
        fixed: Some(Fixed {
            ctl: 0x394,
            ctr: 0x395,
            bits: 48,
            enable: 1 << 22,
            only_box0: true,
        }),
        space: Space::Msr {
            box_ctl: None,
            ctl: Regs::Step {
                base: 0x700,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0x706,
                step: 1,
            },
            offsets: Offsets::Table(&CBO_OFFSETS),
        },
        box_ctl: &NoBoxCtl,
        enable: Enable::Bit22,
        ctl_mask: 0x1f84_ffff,
        formats: FORMATS,
        aliases: CBOX_ALIASES,
        constraints: &[],
        special: &Plain,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 1,
        },
    },
    // ARB: UNC_ARB_TRK_OCCUPANCY (0x80) counts only in counter 0 (Table 3-2).
    BoxType {
        catalog: catalog::skl::ARB,
        part_catalog: &[],
        wide_catalog: &[],
        instance_catalogs: &[],
        kind: BoxKind::Arb,
        num_boxes: 1,
        always_indexed: false,
        num_counters: 2,
        ctr_bits: 44,
        fixed: None,
        space: Space::Msr {
            box_ctl: None,
            ctl: Regs::Step {
                base: 0x3b2,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0x3b0,
                step: 1,
            },
            offsets: Offsets::Stride(0),
        },
        box_ctl: &NoBoxCtl,
        enable: Enable::Bit22,
        ctl_mask: 0x1f84_ffff,
        formats: FORMATS,
        aliases: &[],
        constraints: &[Constraint::event(0x80, 0x1), Constraint::event(0x83, 0x1)],
        special: &Plain,
        // An occupancy: up to the number of outstanding core requests.
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 64,
        },
    },
    // IMC free-running DRAM counters (Table 3-3). Peak rate, of the fastest
    // memory of the family (Comet Lake's DDR4-2933): two channels move
    // 2 x 2933 MT/s x 8 bytes = 46.9 GB/s, 734 M lines/s.
    BoxType {
        catalog: catalog::skl::IMC,
        part_catalog: &[],
        wide_catalog: &[],
        instance_catalogs: &[],
        kind: BoxKind::Imc,
        num_boxes: 1,
        always_indexed: false,
        num_counters: 5,
        ctr_bits: 32,
        fixed: None,
        space: Space::Mmio {
            ctr: Regs::Table(&[0x5050, 0x5054, 0x5040, 0x5044, 0x5048]),
        },
        box_ctl: &NoBoxCtl,
        enable: Enable::Bit22,
        ctl_mask: 0xff,
        formats: &[EVENT],
        aliases: IMC_ALIASES,
        constraints: &[],
        special: &FreeRunning,
        rate: Rate {
            clock_mhz: 734,
            max_inc: 1,
        },
    },
];

/// The IMC's free-running counters: `config` 1 to 5 reads counter
/// `config - 1`; nothing is programmed.
#[derive(Debug)]
pub struct FreeRunning;

impl Special for FreeRunning {
    fn encode(&self, t: &BoxType, plain: Encoded, attr: Attr) -> Result<Encoded, Invalid> {
        let k = attr.config;
        if k == 0 || k > u64::from(t.num_counters) {
            return Err(Invalid::Value("free-running event must be 1..5"));
        }
        Ok(Encoded {
            ctl: 0,
            counters: 0,
            kind: Kind::FreeRunning(k as u8 - 1),
            ..plain
        })
    }

    fn free_running(&self) -> bool {
        true
    }
}

/// The IMC counters' window: [`MCHBAR_WINDOW`] bytes where `MCHBAR` of the
/// host bridge places them.
pub const IMC_WINDOW: BarWindow =
    BarWindow::new("MCHBAR", "IMC", MCHBAR, MCHBAR_WINDOW, mchbar_base);

/// Skylake client host bridges (0:0.0): the IMC counters are in the MCHBAR
/// they hold at 0x48, so each is the device of the `imc` box.
pub const PCI: &[PciFn] = &[
    // Skylake: Y, U, HD, HQ, SD, SQ, E3.
    at(0x190c, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1904, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1900, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1910, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x190f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x191f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x1918, 0, 0, bx(BoxKind::Imc, 0)),
    // Kaby Lake: Y (also Amber Lake YD), U, UQ, SD, SQ, HQ, WQ.
    at(0x590c, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5904, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5914, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x590f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x591f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5910, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x5918, 0, 0, bx(BoxKind::Imc, 0)),
    // Amber Lake YQ.
    at(0x590d, 0, 0, bx(BoxKind::Imc, 0)),
    // Coffee Lake: 2U, 4U (also Whiskey Lake UQ), 4H, 6H, 2S/4S/6S/8S
    // desktop, 4S/6S/8S workstation, 4S/6S/8S server.
    at(0x3ecc, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ed0, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e10, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ec4, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e0f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e1f, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ec2, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e30, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e18, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3ec6, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e31, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e33, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3eca, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e32, 0, 0, bx(BoxKind::Imc, 0)),
    // Whiskey Lake 4-UQ, UD.
    at(0x3e34, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x3e35, 0, 0, bx(BoxKind::Imc, 0)),
    // Comet Lake: H1-H3, U1-U3, S1-S5.
    at(0x9b44, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b54, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b64, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b51, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b61, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b71, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b33, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b43, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b53, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b63, 0, 0, bx(BoxKind::Imc, 0)),
    at(0x9b73, 0, 0, bx(BoxKind::Imc, 0)),
];

/// Skylake client.
pub const SKL: Platform = Platform {
    id: PlatformId::SKYLAKE,
    name: "skl",
    description: "Skylake client (6th to 10th generation Core)",
    cpus: &[
        (6, 0x4e),
        (6, 0x5e),
        (6, 0x8e),
        (6, 0x9e),
        (6, 0xa5),
        (6, 0xa6),
    ],
    types: &TYPES,
    s_summary: &[],
    global: &SklGlobal,
    pci: PCI,
    mmio_window: Some(IMC_WINDOW),
    #[cfg(feature = "sim")]
    sim: model::SIM,
};

/// `MSR_UNC_PERF_GLOBAL_CTRL` (0xe01) and status (0xe02), and
/// `MSR_UNC_CBO_CONFIG`.
#[derive(Debug)]
pub struct SklGlobal;

impl GlobalControl for SklGlobal {
    fn value(&self, g: &GlobalState) -> Option<(Msr, u64)> {
        let mut v = skl_global::EN | (g.pmi_cores & skl_global::PMI_SEL);
        if g.freeze_on_pmi {
            v |= skl_global::FRZ_ON_PMI;
        }
        Some((Msr::new(GLOBAL_CTRL), v))
    }

    /// `MSR_UNC_PERF_GLOBAL_STATUS` (Table 2-3) names the fixed counter,
    /// the ARB, or "a CBo counter on any slice", not which counter: such
    /// hits are inexact, and the caller updates every counter of the
    /// boxes.
    fn walk(&self, p: &Platform, read: &mut dyn FnMut(u32) -> u64, w: &mut Walk) {
        let st = read(GLOBAL_STATUS);
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
        // Table 2-3 prints bit 31 for `CBO_CTR_OVF` and reserves 63:4; bit 3
        // is the one bit it leaves unnamed, and the one taken here
        // (platforms.rst, Skylake, "The overflow bit of the C-boxes").
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
            w.clear(GLOBAL_STATUS, found);
        }
    }

    /// `MSR_UNC_CBO_CONFIG` reports the CBo count plus one (§2.4.1); 0 or
    /// 1 gives nothing usable.
    fn reported_cboxes(&self) -> Option<ReportedCount> {
        Some(ReportedCount {
            msr: CBO_CONFIG_MSR,
            name: "MSR_UNC_CBO_CONFIG",
            decode: |v| ((v & 0xf) as usize).checked_sub(1).filter(|&n| n >= 1),
        })
    }
}

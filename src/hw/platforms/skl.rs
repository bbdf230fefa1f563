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
//! (Table 3-3). The manual lists two counters per CBo (the Linux driver
//! programs four).

use super::common::*;
use super::{cfg, f};
use crate::hw::desc::*;
use crate::hw::program::Msr;

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
/// Offset of the IMC BAR register (`MCHBAR`) in the host bridge (0:0.0).
pub const MCHBAR_OFFSET: u32 = 0x48;
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
        box_ctl: BoxCtl::None,
        enable: Enable::Bit22,
        ctl_mask: 0x1f84_ffff,
        formats: FORMATS,
        aliases: CBOX_ALIASES,
        constraints: &[],
        special: Special::None,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 1,
        },
    },
    // ARB: UNC_ARB_TRK_OCCUPANCY (0x80) counts only in counter 0 (Table 3-2).
    BoxType {
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
        box_ctl: BoxCtl::None,
        enable: Enable::Bit22,
        ctl_mask: 0x1f84_ffff,
        formats: FORMATS,
        aliases: &[],
        constraints: &[Constraint::event(0x80, 0x1), Constraint::event(0x83, 0x1)],
        special: Special::None,
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
        kind: BoxKind::Imc,
        num_boxes: 1,
        always_indexed: false,
        num_counters: 5,
        ctr_bits: 32,
        fixed: None,
        space: Space::Mmio {
            ctr: Regs::Table(&[0x5050, 0x5054, 0x5040, 0x5044, 0x5048]),
        },
        box_ctl: BoxCtl::None,
        enable: Enable::Bit22,
        ctl_mask: 0xff,
        formats: &[EVENT],
        aliases: IMC_ALIASES,
        constraints: &[],
        special: Special::FreeRunning,
        rate: Rate {
            clock_mhz: 734,
            max_inc: 1,
        },
    },
];

/// Skylake client.
pub const SKL: Platform = Platform {
    id: PlatformId::Skylake,
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
    global: Global::Skl,
};

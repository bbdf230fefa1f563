// SPDX-License-Identifier: GPL-2.0

//! Nehalem-EX (Xeon 7500, family 6 model 46) and Westmere-EX (Xeon E7,
//! family 6 model 47).
//!
//! Source: Intel Xeon E7 Family Uncore Performance Monitoring Programming
//! Guide (325294-001), chapter 2. Every box is MSR-based with 48-bit
//! counters; each box has `*_GLOBAL_CTL` (one enable bit per counter),
//! `*_GLOBAL_STATUS` and `*_GLOBAL_OVF_CTL` at box base +0/+1/+2, and
//! interleaved control/counter pairs. The U-box's global control (0xc00)
//! gates everything (`en_all`) and holds the U-box counter's enable (bit 0).

use super::common::*;
use super::{cfg, cfg1, cfg2, f};
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::program::Msr;
use crate::hw::special::Plain;
use control::{CounterEnables, UGlobal, UboxEnable};

pub mod control;
pub mod mbox;
#[cfg(feature = "sim")]
pub mod model;
pub mod rbox;
pub mod sbox;
pub mod special;

/// `U_MSR_PMON_GLOBAL_CTL` (Table 2-2).
pub const U_GLOBAL_CTL: u32 = 0xc00;
/// [`U_GLOBAL_CTL`] as a declared MSR.
pub const U_GLOBAL_CTL_MSR: Msr = Msr::new(U_GLOBAL_CTL);
/// `U_MSR_PMON_GLOBAL_STATUS` (Table 2-3).
pub const U_GLOBAL_STATUS: u32 = 0xc01;
/// [`U_GLOBAL_STATUS`] as a declared MSR.
pub const U_GLOBAL_STATUS_MSR: Msr = Msr::new(U_GLOBAL_STATUS);
/// `U_MSR_PMON_GLOBAL_OVF_CTL` (Table 2-4).
pub const U_GLOBAL_OVF_CTL: u32 = 0xc02;

/// C-box register block offsets from C-box 0 (0xd00), Table 2-9.
pub const CBOX_OFFSETS: [u32; 10] = [0x0, 0x80, 0x40, 0xc0, 0x20, 0xa0, 0x60, 0xe0, 0x240, 0x2c0];

/// Uncore clock upper bound used for polling intervals.
const UCLK: u32 = 4000;

const CBOX_FORMATS: &[Format] = &[EVENT, UMASK, EDGE, INV, THRESH8];

const UBOX_FORMATS: &[Format] = &[EVENT, EDGE];

const BBOX_FORMATS: &[Format] = &[
    cfg("event", &[f(1, 5)]),
    cfg("counter", &[f(6, 7)]),
    cfg1("match", &[f(0, 63)]),
    cfg2("mask", &[f(0, 63)]),
];

const SBOX_FORMATS: &[Format] = &[
    EVENT,
    UMASK,
    EDGE,
    INV,
    THRESH8,
    cfg1("match", &[f(0, 63)]),
    cfg2("mask", &[f(0, 63)]),
];

/// M-box formats. `wrap_mode` is not offered: the driver always sets it,
/// because a counter that stops at overflow (wrap_mode = 0, Table 2-67)
/// loses counts; `count_mode` must be 0 (counting up) for the same reason.
const MBOX_FORMATS: &[Format] = &[
    cfg("count_mode", &[f(2, 3)]),
    cfg("storage_mode", &[f(4, 5)]),
    cfg("flag_mode", &[f(7, 7)]),
    cfg("inc_sel", &[f(9, 13)]),
    cfg("set_flag_sel", &[f(19, 21)]),
    cfg2("filter_cfg_en", &[f(63, 63)]),
    cfg2("filter_match", &[f(0, 33)]),
    cfg2("filter_mask", &[f(34, 61)]),
    cfg1("dsp", &[f(0, 31)]),
    cfg1("thr", &[f(0, 31)]),
    cfg1("fvc", &[f(0, 31)]),
    cfg1("pgt", &[f(0, 31)]),
    cfg1("map", &[f(0, 31)]),
    cfg1("iss", &[f(0, 31)]),
    cfg1("pld", &[f(32, 63)]),
];

const RBOX_FORMATS: &[Format] = &[
    cfg("event", &[f(1, 5)]),
    cfg("xbr_mm_cfg", &[f(32, 63)]),
    cfg1("xbr_match", &[f(0, 63)]),
    cfg2("xbr_mask", &[f(0, 63)]),
    cfg1("qlx_cfg", &[f(0, 15)]),
    cfg1("iperf_cfg", &[f(0, 31)]),
];

const WBOX_ALIASES: &[Alias] = &[Alias::plain("clockticks", "event=0xff,umask=0")];

const NHMEX_MBOX_ALIASES: &[Alias] = &[
    Alias::plain("bbox_cmds_read", "inc_sel=0xd,fvc=0x2800"),
    Alias::plain("bbox_cmds_write", "inc_sel=0xd,fvc=0x2820"),
];

const WSMEX_MBOX_ALIASES: &[Alias] = &[
    Alias::plain("bbox_cmds_read", "inc_sel=0xd,fvc=0x5000"),
    Alias::plain("bbox_cmds_write", "inc_sel=0xd,fvc=0x5040"),
];

/// R-box aliases of the Linux driver, kept with their exact names and
/// terms as compatibility spellings, misspellings included
/// (`qpi1_filt_send`, `qpi0_idle_filt`, `qpi0_date_response`). Their
/// `qpi0`/`qpi1` are the PMU's ports 0 and 1 (events 0x0 and 0x6), which
/// Table 2-40 names QPI1 and QPI0 on `rbox_0`, and QPI2 and QPI3 (ports 4
/// and 5) on `rbox_1`: the catalog adds aliases named by those links
/// (`catalog::nhmex::RBOX_L_LINKS`, `RBOX_R_LINKS`).
const RBOX_ALIASES: &[Alias] = &[
    Alias::plain("qpi0_flit_send", "event=0x0,iperf_cfg=0x80000000"),
    Alias::plain("qpi1_filt_send", "event=0x6,iperf_cfg=0x80000000"),
    Alias::plain("qpi0_idle_filt", "event=0x0,iperf_cfg=0x40000000"),
    Alias::plain("qpi1_idle_filt", "event=0x6,iperf_cfg=0x40000000"),
    Alias::plain("qpi0_date_response", "event=0x0,iperf_cfg=0xc4"),
    Alias::plain("qpi1_date_response", "event=0x6,iperf_cfg=0xc4"),
];

/// B-box constraints: each counter has its own event set (Table 2-24); the
/// `counter` field (config:6-7) names it.
const BBOX_CONSTRAINTS: &[Constraint] = &[
    Constraint {
        code: 0x00,
        cmask: 0xc0,
        counters: 0x1,
    },
    Constraint {
        code: 0x40,
        cmask: 0xc0,
        counters: 0x2,
    },
    Constraint {
        code: 0x80,
        cmask: 0xc0,
        counters: 0x4,
    },
    Constraint {
        code: 0xc0,
        cmask: 0xc0,
        counters: 0x8,
    },
];

const CBOX: BoxType = BoxType {
    catalog: catalog::nhmex::CBOX,
    part_catalog: &[],
    wide_catalog: &[],
    instance_catalogs: &[],
    kind: BoxKind::Cbox,
    num_boxes: 10,
    always_indexed: false,
    num_counters: 6,
    ctr_bits: 48,
    fixed: None,
    space: Space::Msr {
        box_ctl: Some(0xd00),
        ctl: Regs::Step {
            base: 0xd10,
            step: 2,
        },
        ctr: Regs::Step {
            base: 0xd11,
            step: 2,
        },
        offsets: Offsets::Table(&CBOX_OFFSETS),
    },
    box_ctl: &CounterEnables { fixed_en: 0 },
    enable: Enable::Bit22,
    ctl_mask: 0xff84_ffff,
    formats: CBOX_FORMATS,
    aliases: &[],
    constraints: &[],
    special: &Plain,
    // "The C-Box counters can increment by a maximum of 5b per cycle" (§2.3.2).
    rate: Rate {
        clock_mhz: UCLK,
        max_inc: 31,
    },
};

/// The box types common to both parts; the M-box and the S-box events of
/// one part differ (see [`NHMEX_TYPES`]).
const fn types(
    num_cboxes: u8,
    mbox_type: BoxType,
    sbox_part: &'static [Alias],
    read_erratum: bool,
) -> [BoxType; 7] {
    [
        // U-box (Tables 2-5..2-7): one counter; its enable is bit 0 of the
        // U-box global control.
        BoxType {
            catalog: catalog::nhmex::UBOX,
            kind: BoxKind::Ubox,
            num_boxes: 1,
            num_counters: 1,
            space: Space::Msr {
                box_ctl: Some(U_GLOBAL_CTL),
                ctl: Regs::Step {
                    base: 0xc10,
                    step: 1,
                },
                ctr: Regs::Step {
                    base: 0xc11,
                    step: 1,
                },
                offsets: Offsets::Stride(0),
            },
            box_ctl: &UboxEnable,
            ctl_mask: 0x4_00ff,
            formats: UBOX_FORMATS,
            rate: Rate {
                clock_mhz: UCLK,
                max_inc: 1,
            },
            ..CBOX
        },
        BoxType {
            num_boxes: num_cboxes,
            ..CBOX
        },
        // B-boxes (Tables 2-16..2-23): event select in bits 1-5, enable bit 0.
        BoxType {
            catalog: catalog::nhmex::BBOX,
            kind: BoxKind::Bbox,
            num_boxes: 2,
            num_counters: 4,
            space: Space::Msr {
                box_ctl: Some(0xc20),
                ctl: Regs::Step {
                    base: 0xc30,
                    step: 2,
                },
                ctr: Regs::Step {
                    base: 0xc31,
                    step: 2,
                },
                offsets: Offsets::Stride(0x40),
            },
            enable: Enable::Bit0,
            ctl_mask: 0x3e,
            formats: BBOX_FORMATS,
            constraints: BBOX_CONSTRAINTS,
            special: &special::Bbox,
            rate: Rate {
                clock_mhz: UCLK,
                max_inc: 1,
            },
            ..CBOX
        },
        // S-boxes (Tables 2-25..2-35): up to 64 per cycle (§2.5.2).
        BoxType {
            catalog: catalog::nhmex::SBOX,
            part_catalog: sbox_part,
            wide_catalog: catalog::nhmex::SBOX_PROG_EV,
            kind: BoxKind::Sbox,
            num_boxes: 2,
            num_counters: 4,
            space: Space::Msr {
                box_ctl: Some(0xc40),
                ctl: Regs::Step {
                    base: 0xc50,
                    step: 2,
                },
                ctr: Regs::Step {
                    base: 0xc51,
                    step: 2,
                },
                offsets: Offsets::Stride(0x80),
            },
            formats: SBOX_FORMATS,
            special: &special::Sbox,
            rate: Rate {
                clock_mhz: UCLK,
                max_inc: 64,
            },
            ..CBOX
        },
        mbox_type,
        // R-box (Tables 2-39..2-52): one box of 16 counters in two halves of
        // eight, each half with its own global control/status; exposed as
        // two PMUs, `rbox_0` (ports 0-3) and `rbox_1` (ports 4-7).
        BoxType {
            catalog: catalog::nhmex::RBOX,
            wide_catalog: catalog::nhmex::RBOX_XBAR,
            instance_catalogs: &[catalog::nhmex::RBOX_L_LINKS, catalog::nhmex::RBOX_R_LINKS],
            kind: BoxKind::Rbox,
            num_boxes: 2,
            num_counters: 8,
            space: Space::Msr {
                box_ctl: Some(0xe00),
                ctl: Regs::Step {
                    base: 0xe10,
                    step: 2,
                },
                ctr: Regs::Step {
                    base: 0xe11,
                    step: 2,
                },
                offsets: Offsets::Stride(0x20),
            },
            enable: Enable::Bit0,
            ctl_mask: 0x3e,
            formats: RBOX_FORMATS,
            aliases: RBOX_ALIASES,
            special: &rbox::Rbox,
            rate: Rate {
                clock_mhz: UCLK,
                max_inc: 1,
            },
            ..CBOX
        },
        // W-box (Tables 2-93..2-100): four counters and the UCLK fixed
        // counter (counter 0x394, control 0x395, enabled by bit 0 and by
        // `fixed_en`, bit 31 of the W-box global control).
        BoxType {
            catalog: catalog::nhmex::WBOX,
            kind: BoxKind::Wbox,
            num_boxes: 1,
            num_counters: 4,
            fixed: Some(Fixed {
                ctl: 0x395,
                ctr: 0x394,
                bits: 48,
                enable: 1,
                only_box0: false,
            }),
            space: Space::Msr {
                box_ctl: Some(0xc80),
                ctl: Regs::Step {
                    base: 0xc90,
                    step: 2,
                },
                ctr: Regs::Step {
                    base: 0xc91,
                    step: 2,
                },
                offsets: Offsets::Stride(0),
            },
            box_ctl: &CounterEnables { fixed_en: 1 << 31 },
            aliases: WBOX_ALIASES,
            special: if read_erratum {
                &special::Wbox { read_erratum: true }
            } else {
                &special::Wbox {
                    read_erratum: false,
                }
            },
            rate: Rate {
                clock_mhz: UCLK,
                max_inc: 1,
            },
            ..CBOX
        },
    ]
}

/// The M-box type: Nehalem-EX's, or Westmere-EX's (`wsmex`), whose
/// `ZDP_CTL_FVC` fields and catalog differ.
const fn mbox_type(wsmex: bool) -> BoxType {
    BoxType {
        kind: BoxKind::Mbox,
        catalog: if wsmex {
            catalog::nhmex::WSMEX_MBOX
        } else {
            catalog::nhmex::NHMEX_MBOX
        },
        num_boxes: 2,
        num_counters: 6,
        space: Space::Msr {
            box_ctl: Some(0xca0),
            ctl: Regs::Step {
                base: 0xcb0,
                step: 2,
            },
            ctr: Regs::Step {
                base: 0xcb1,
                step: 2,
            },
            offsets: Offsets::Stride(0x40),
        },
        enable: Enable::Bit0,
        ctl_mask: 0x38_3efc,
        formats: MBOX_FORMATS,
        aliases: if wsmex {
            WSMEX_MBOX_ALIASES
        } else {
            NHMEX_MBOX_ALIASES
        },
        special: if wsmex {
            &mbox::Mbox { wsmex: true }
        } else {
            &mbox::Mbox { wsmex: false }
        },
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 1,
        },
        ..CBOX
    }
}

/// The Nehalem-EX box types (eight C-boxes; the W-box read erratum is the
/// Xeon E7 family's, Westmere-EX).
pub const NHMEX_TYPES: [BoxType; 7] =
    types(8, mbox_type(false), catalog::nhmex::NHMEX_SBOX_CBOX, false);

/// The Westmere-EX box types (ten C-boxes).
pub const WSMEX_TYPES: [BoxType; 7] =
    types(10, mbox_type(true), catalog::nhmex::WSMEX_SBOX_CBOX, true);

/// Westmere-EX `S_MSR_PMON_SUMMARY` (325294 Table 2-26): `ov_c_l` (bit 0)
/// is C-boxes 0/1 on S-box 0 and 5/6 on S-box 1, `ov_c_m` (bit 2) 2/3 and
/// 7/8, `ov_c_h` (bit 20) 4 and 9; `ov_mb` (16) the side's M- and B-box,
/// `ov_s` (18) the S-box, `ov_r` (19) the side's R-box half.
const WSMEX_SUMMARY: &[SummaryBit] = &concat::<_, 12>(&[WSMEX_CBOX_BITS, SIDE_BITS], SIDE_BITS[0]);

/// Westmere-EX's C-box bits of [`WSMEX_SUMMARY`].
const WSMEX_CBOX_BITS: &[SummaryBit] = &[
    SummaryBit::new(0, 0, &[(BoxKind::Cbox, 0), (BoxKind::Cbox, 1)]),
    SummaryBit::new(0, 2, &[(BoxKind::Cbox, 2), (BoxKind::Cbox, 3)]),
    SummaryBit::new(0, 20, &[(BoxKind::Cbox, 4)]),
    SummaryBit::new(1, 0, &[(BoxKind::Cbox, 5), (BoxKind::Cbox, 6)]),
    SummaryBit::new(1, 2, &[(BoxKind::Cbox, 7), (BoxKind::Cbox, 8)]),
    SummaryBit::new(1, 20, &[(BoxKind::Cbox, 9)]),
];

/// The bits both parts have: `ov_mb` (16) the side's M- and B-box, `ov_s`
/// (18) the S-box, `ov_r` (19) the side's R-box half.
const SIDE_BITS: &[SummaryBit] = &[
    SummaryBit::new(0, 16, &[(BoxKind::Mbox, 0), (BoxKind::Bbox, 0)]),
    SummaryBit::new(1, 16, &[(BoxKind::Mbox, 1), (BoxKind::Bbox, 1)]),
    SummaryBit::new(0, 18, &[(BoxKind::Sbox, 0)]),
    SummaryBit::new(1, 18, &[(BoxKind::Sbox, 1)]),
    SummaryBit::new(0, 19, &[(BoxKind::Rbox, 0)]),
    SummaryBit::new(1, 19, &[(BoxKind::Rbox, 1)]),
];

/// Nehalem-EX `S_MSR_PMON_SUMMARY` (the Xeon 7500 uncore guide,
/// 323535-001, Table 2-26; not among the manuals the project keeps):
/// `ov_c_r` (bit 0) is C-boxes 2/3 on S-box 0 and 6/7 on S-box 1, `ov_c_l`
/// (bit 2) 0/1 and 4/5; there is no bit 20 (eight C-boxes).
const NHMEX_SUMMARY: &[SummaryBit] = &concat::<_, 10>(&[NHMEX_CBOX_BITS, SIDE_BITS], SIDE_BITS[0]);

/// Nehalem-EX's C-box bits of [`NHMEX_SUMMARY`].
const NHMEX_CBOX_BITS: &[SummaryBit] = &[
    SummaryBit::new(0, 0, &[(BoxKind::Cbox, 2), (BoxKind::Cbox, 3)]),
    SummaryBit::new(0, 2, &[(BoxKind::Cbox, 0), (BoxKind::Cbox, 1)]),
    SummaryBit::new(1, 0, &[(BoxKind::Cbox, 6), (BoxKind::Cbox, 7)]),
    SummaryBit::new(1, 2, &[(BoxKind::Cbox, 4), (BoxKind::Cbox, 5)]),
];

/// Nehalem-EX.
pub const NHMEX: Platform = Platform {
    id: PlatformId::NEHALEM_EX,
    name: "nhmex",
    description: "Nehalem-EX (Xeon 7500)",
    cpus: &[(6, 46)],
    types: &NHMEX_TYPES,
    global: &UGlobal,
    s_summary: NHMEX_SUMMARY,
    pci: &[],
    mmio_window: None,
    #[cfg(feature = "sim")]
    sim: model::NHMEX_SIM,
};

/// Westmere-EX.
pub const WSMEX: Platform = Platform {
    id: PlatformId::WESTMERE_EX,
    name: "wsmex",
    description: "Westmere-EX (Xeon E7)",
    cpus: &[(6, 47)],
    types: &WSMEX_TYPES,
    s_summary: WSMEX_SUMMARY,
    #[cfg(feature = "sim")]
    sim: model::WSMEX_SIM,
    ..NHMEX
};

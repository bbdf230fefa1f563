// SPDX-License-Identifier: GPL-2.0

//! Sandy Bridge-EP (Xeon E5-2600, "Jaketown"), family 6 model 45.
//!
//! Source: Intel Xeon E5-2600 Uncore Performance Monitoring Guide
//! (327043-001) Tables 1-2, 1-3, 2-1..2-13; what its surviving pages leave
//! out (HA, iMC, PCU, QPI, R2PCIe and R3QPI details) follows the Linux
//! driver's register map and the perfmon event catalog.

use super::common::*;
use super::{cfg, cfg1, cfg2, f};
use crate::hw::box_control::NoBoxCtl;
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::global::NoGlobal;
use crate::hw::pci::{at, bx, PciFn, Role};
use crate::hw::special::Plain;

pub mod box_ctl;
#[cfg(feature = "sim")]
pub mod model;
pub mod special;

use box_ctl::Freeze;

/// Box control: `rst_ctrl` (bit 0), `rst_ctrs` (bit 1) and `frz_en` (bit 16),
/// written once when a box is first used (327043 Table 2-9).
pub const BOX_CTL_INIT: u64 = (1 << 0) | (1 << 1) | (1 << 16);

/// Uncore clock upper bound used for polling intervals.
const UCLK: u32 = 4000;

const GENERIC_FORMATS: &[Format] = &[EVENT, UMASK, EDGE, INV, THRESH8];

const UBOX_FORMATS: &[Format] = &[EVENT, UMASK, EDGE, INV, THRESH5];

const CBOX_FORMATS: &[Format] = &[
    EVENT,
    UMASK,
    EDGE,
    TID_EN,
    INV,
    THRESH8,
    cfg1("filter_tid", &[f(0, 4)]),
    cfg1("filter_nid", &[f(10, 17)]),
    cfg1("filter_state", &[f(18, 22)]),
    cfg1("filter_opc", &[f(23, 31)]),
];

/// PCU formats. `occ_edge` is bit 31 (`occ_edge_det`), not the Linux
/// driver's `config:14-51`; `event` includes the extended select bit 21.
pub(crate) const PCU_FORMATS: &[Format] = &[
    EVENT_EXT,
    cfg("occ_sel", &[f(14, 15)]),
    EDGE,
    INV,
    THRESH5,
    cfg("occ_invert", &[f(30, 30)]),
    cfg("occ_edge", &[f(31, 31)]),
    cfg1("filter_band0", &[f(0, 7)]),
    cfg1("filter_band1", &[f(8, 15)]),
    cfg1("filter_band2", &[f(16, 23)]),
    cfg1("filter_band3", &[f(24, 31)]),
];

/// QPI formats: extended event select and the packet match/mask fields.
pub(crate) const QPI_MATCH_MASK: &[Format] = &[
    cfg1("match_rds", &[f(48, 51)]),
    cfg1("match_rnid30", &[f(32, 35)]),
    cfg1("match_rnid4", &[f(31, 31)]),
    cfg1("match_dnid", &[f(13, 17)]),
    cfg1("match_mc", &[f(9, 12)]),
    cfg1("match_opc", &[f(5, 8)]),
    cfg1("match_vnw", &[f(3, 4)]),
    cfg1("match0", &[f(0, 31)]),
    cfg1("match1", &[f(32, 63)]),
    cfg2("mask_rds", &[f(48, 51)]),
    cfg2("mask_rnid30", &[f(32, 35)]),
    cfg2("mask_rnid4", &[f(31, 31)]),
    cfg2("mask_dnid", &[f(13, 17)]),
    cfg2("mask_mc", &[f(9, 12)]),
    cfg2("mask_opc", &[f(5, 8)]),
    cfg2("mask_vnw", &[f(3, 4)]),
    cfg2("mask0", &[f(0, 31)]),
    cfg2("mask1", &[f(32, 63)]),
];

const QPI_FORMATS: &[Format] = &concat::<_, { 5 + QPI_MATCH_MASK.len() }>(
    &[&[EVENT_EXT, UMASK, EDGE, INV, THRESH8], QPI_MATCH_MASK],
    EVENT_EXT,
);

/// iMC aliases (shared with IVB-EP).
pub(crate) const IMC_ALIASES: &[Alias] = &[
    Alias::plain("clockticks", "event=0xff,umask=0x00"),
    Alias::mib("cas_count_read", "event=0x04,umask=0x03"),
    Alias::mib("cas_count_write", "event=0x04,umask=0x0c"),
];

/// QPI aliases (shared with IVB-EP, where the Linux driver has none but
/// the event catalog gives the same encodings).
pub(crate) const QPI_ALIASES: &[Alias] = &[
    Alias::plain("clockticks", "event=0x14"),
    Alias::plain("txl_flits_active", "event=0x00,umask=0x06"),
    Alias::plain("drs_data", "event=0x102,umask=0x08"),
    Alias::plain("ncb_data", "event=0x103,umask=0x04"),
];

/// C-box constraints: counter 0 only for occupancy events (327043 §2.3.2),
/// the rest as in the event catalog.
pub(crate) const CBOX_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x01, 0x1),
    Constraint::event(0x02, 0x3),
    Constraint::event(0x04, 0x3),
    Constraint::event(0x05, 0x3),
    Constraint::event(0x07, 0x3),
    Constraint::event(0x09, 0x3),
    Constraint::event(0x11, 0x1),
    Constraint::event(0x12, 0x3),
    Constraint::event(0x13, 0x3),
    Constraint::event(0x1b, 0xc),
    Constraint::event(0x1c, 0xc),
    Constraint::event(0x1d, 0xc),
    Constraint::event(0x1e, 0xc),
    Constraint::event(0x1f, 0xe),
    Constraint::event(0x21, 0x3),
    Constraint::event(0x23, 0x3),
    Constraint::event(0x31, 0x3),
    Constraint::event(0x32, 0x3),
    Constraint::event(0x33, 0x3),
    Constraint::event(0x34, 0x3),
    Constraint::event(0x35, 0x3),
    Constraint::event(0x36, 0x1),
    Constraint::event(0x37, 0x3),
    Constraint::event(0x38, 0x3),
    Constraint::event(0x39, 0x3),
    Constraint::event(0x3b, 0x1),
];

/// R2PCIe constraints (shared with IVB-EP).
pub(crate) const R2PCIE_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x10, 0x3),
    Constraint::event(0x11, 0x3),
    Constraint::event(0x12, 0x1),
    Constraint::event(0x23, 0x3),
    Constraint::event(0x24, 0x3),
    Constraint::event(0x25, 0x3),
    Constraint::event(0x26, 0x3),
    Constraint::event(0x32, 0x3),
    Constraint::event(0x33, 0x3),
    Constraint::event(0x34, 0x3),
];

/// R3QPI constraints (shared with IVB-EP).
pub(crate) const R3QPI_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x10, 0x3),
    Constraint::event(0x11, 0x3),
    Constraint::event(0x12, 0x3),
    Constraint::event(0x13, 0x1),
    Constraint::event(0x20, 0x3),
    Constraint::event(0x21, 0x3),
    Constraint::event(0x22, 0x3),
    Constraint::event(0x23, 0x3),
    Constraint::event(0x24, 0x3),
    Constraint::event(0x25, 0x3),
    Constraint::event(0x26, 0x3),
    Constraint::event(0x28, 0x3),
    Constraint::event(0x29, 0x3),
    Constraint::event(0x2a, 0x3),
    Constraint::event(0x2b, 0x3),
    Constraint::event(0x2c, 0x3),
    Constraint::event(0x2d, 0x3),
    Constraint::event(0x2e, 0x3),
    Constraint::event(0x2f, 0x3),
    Constraint::event(0x30, 0x3),
    Constraint::event(0x31, 0x3),
    Constraint::event(0x32, 0x3),
    Constraint::event(0x33, 0x3),
    Constraint::event(0x34, 0x3),
    Constraint::event(0x36, 0x3),
    Constraint::event(0x37, 0x3),
    Constraint::event(0x38, 0x3),
    Constraint::event(0x39, 0x3),
];

/// PCI box register layout (327043 Table 1-3): box control 0xf4, controls
/// 0xd8 + 4j, counters 0xa0 + 8j.
pub(crate) const PCI_SPACE: Space = Space::Pci {
    box_ctl: 0xf4,
    ctl: Regs::Step {
        base: 0xd8,
        step: 4,
    },
    ctr: Regs::Step {
        base: 0xa0,
        step: 8,
    },
};

/// The iMC fixed DCLK counter: control 0xf0, counter 0xd0 (Table 1-3).
pub(crate) const IMC_FIXED: Fixed = Fixed {
    ctl: 0xf0,
    ctr: 0xd0,
    bits: 48,
    enable: 1 << 22,
    only_box0: false,
};

/// The common shape of the PCI boxes, for a box of kind `kind`.
pub(crate) const fn generic(kind: BoxKind) -> BoxType {
    BoxType {
        kind,
        catalog: &[],
        part_catalog: &[],
        wide_catalog: &[],
        instance_catalogs: &[],
        num_boxes: 1,
        always_indexed: false,
        num_counters: 4,
        ctr_bits: 48,
        fixed: None,
        space: PCI_SPACE,
        box_ctl: &Freeze { init: BOX_CTL_INIT },
        enable: Enable::Bit22,
        ctl_mask: 0xff84_ffff,
        formats: GENERIC_FORMATS,
        aliases: &[],
        constraints: &[],
        special: &Plain,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 64,
        },
    }
}

/// The SNB-EP box types.
pub const TYPES: [BoxType; 8] = [
    // U-box (Tables 2-1..2-5): two 44-bit counters, the 48-bit UCLK fixed
    // counter, no box control.
    BoxType {
        catalog: catalog::snbep::UBOX,
        num_counters: 2,
        ctr_bits: 44,
        fixed: Some(Fixed {
            ctl: 0xc08,
            ctr: 0xc09,
            bits: 48,
            enable: 1 << 22,
            only_box0: false,
        }),
        space: Space::Msr {
            box_ctl: None,
            ctl: Regs::Step {
                base: 0xc10,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0xc16,
                step: 1,
            },
            offsets: Offsets::Stride(0),
        },
        box_ctl: &NoBoxCtl,
        ctl_mask: 0x1f84_ffff,
        formats: UBOX_FORMATS,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 1,
        },
        ..generic(BoxKind::Ubox)
    },
    // C-boxes (Tables 2-8..2-13): counter 0 can add 20 per cycle.
    BoxType {
        catalog: catalog::snbep::CBOX,
        num_boxes: 8,
        ctr_bits: 44,
        space: Space::Msr {
            box_ctl: Some(0xd04),
            ctl: Regs::Step {
                base: 0xd10,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0xd16,
                step: 1,
            },
            offsets: Offsets::Stride(0x20),
        },
        ctl_mask: 0xff8c_ffff,
        formats: CBOX_FORMATS,
        constraints: CBOX_CONSTRAINTS,
        special: &special::CBOX_FILTER,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 20,
        },
        ..generic(BoxKind::Cbox)
    },
    // PCU: box control 0xc24, controls 0xc30.., counters 0xc36.., filter 0xc34.
    BoxType {
        catalog: catalog::snbep::PCU,
        space: Space::Msr {
            box_ctl: Some(0xc24),
            ctl: Regs::Step {
                base: 0xc30,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0xc36,
                step: 1,
            },
            offsets: Offsets::Stride(0),
        },
        ctl_mask: 0xdfa4_c0ff,
        formats: PCU_FORMATS,
        special: &special::PCU_BAND,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 8,
        },
        ..generic(BoxKind::Pcu)
    },
    BoxType {
        catalog: catalog::snbep::HA,
        ..generic(BoxKind::Ha)
    },
    BoxType {
        catalog: catalog::snbep::IMC,
        num_boxes: 4,
        fixed: Some(IMC_FIXED),
        aliases: IMC_ALIASES,
        ..generic(BoxKind::Imc)
    },
    BoxType {
        catalog: catalog::snbep::QPI,
        num_boxes: 2,
        ctl_mask: 0xffa4_ffff,
        formats: QPI_FORMATS,
        aliases: QPI_ALIASES,
        special: &special::QpiMatchMask,
        ..generic(BoxKind::Qpi)
    },
    BoxType {
        catalog: catalog::snbep::R2PCIE,
        ctr_bits: 44,
        constraints: R2PCIE_CONSTRAINTS,
        ..generic(BoxKind::R2pcie)
    },
    BoxType {
        catalog: catalog::snbep::R3QPI,
        num_boxes: 2,
        num_counters: 3,
        ctr_bits: 44,
        constraints: R3QPI_CONSTRAINTS,
        ..generic(BoxKind::R3qpi)
    },
];

/// SNB-EP uncore PCI functions (327043 Table 1-3).
pub const PCI: &[PciFn] = &[
    at(0x3c46, 14, 1, bx(BoxKind::Ha, 0)),
    at(0x3cb0, 16, 0, bx(BoxKind::Imc, 0)),
    at(0x3cb1, 16, 1, bx(BoxKind::Imc, 1)),
    at(0x3cb4, 16, 4, bx(BoxKind::Imc, 2)),
    at(0x3cb5, 16, 5, bx(BoxKind::Imc, 3)),
    at(0x3c41, 8, 2, bx(BoxKind::Qpi, 0)),
    at(0x3c42, 9, 2, bx(BoxKind::Qpi, 1)),
    at(0x3c43, 19, 1, bx(BoxKind::R2pcie, 0)),
    at(0x3c44, 19, 5, bx(BoxKind::R3qpi, 0)),
    at(0x3c45, 19, 6, bx(BoxKind::R3qpi, 1)),
    at(0x3c86, 8, 6, Role::QpiFilter { port: 0 }),
    at(0x3c96, 9, 6, Role::QpiFilter { port: 1 }),
    PciFn {
        device: 0x3ce0,
        dev: None,
        func: None,
        role: Role::Ubox,
    },
];

/// Sandy Bridge-EP.
pub const SNBEP: Platform = Platform {
    id: PlatformId::SANDY_BRIDGE_EP,
    name: "snbep",
    description: "Sandy Bridge-EP (Xeon E5-2600)",
    cpus: &[(6, 45)],
    types: &TYPES,
    s_summary: &[],
    global: &NoGlobal,
    pci: PCI,
    mmio_window: None,
    #[cfg(feature = "sim")]
    sim: model::SIM,
};

// SPDX-License-Identifier: GPL-2.0

//! Haswell-EP (Xeon E5 v3, "Haswell-X"), family 6 model 63.
//!
//! Source: the Linux driver (`arch/x86/events/intel/uncore_snbep.c`,
//! "Haswell-EP uncore support"; the CPU model table of `uncore.c`) for the
//! registers, PMU names, formats, constraints and PCI device IDs, and perf's
//! haswellx uncore event tables for the events. Intel's uncore guide for the
//! part is not among this project's sources: every fact here is the Linux
//! driver's or perf's.
//!
//! Differences from IVB-EP: the MSR boxes moved (U-box 0x703-0x70a with a
//! filter at 0x707, C-boxes from 0xe00 with stride 0x10 and their filter
//! at 0xe05/0xe06, PCU 0x710-0x71a with its band filter at 0x715), a new
//! S-box type (0x720, stride 0xa), up to 18 C-boxes, boxes initialised with
//! `frz_en` again (SNB-EP's box control), 48-bit C-box counters, and new
//! PCI device IDs (0x2fxx) at positions the sources do not give. What a
//! later platform of the same design (Broadwell-EP) shares is public in
//! [`special`]: the S-box registers and control ([`special::SBOX_SPACE`],
//! [`special::SBOX_CTL`]), the split C-box filter
//! ([`special::CBOX_FILTER`]) and the S-box count of `CAPID4`
//! ([`special::capid4_sboxes`]).

use super::common::*;
use super::snbep::{IMC_ALIASES, IMC_FIXED, PCU_FORMATS, QPI_MATCH_MASK};
use super::{cfg1, f};
use crate::hw::box_control::NoBoxCtl;
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::pci::{bx, PciFn, Role};

#[cfg(feature = "sim")]
pub mod model;
pub mod special;

/// Box control written when a box is first used: `rst_ctrl` | `rst_ctrs` |
/// `frz_en` (the Linux driver's `SNBEP_PMON_BOX_CTL_INT`, which it writes
/// on Haswell-EP, where IVB-EP has no `frz_en`).
pub const BOX_CTL_INIT: u64 = super::snbep::BOX_CTL_INIT;

const UCLK: u32 = 4000;

/// U-box formats: SNB-EP's and the filter's thread and core ID bits, as
/// the Linux driver gives them (`filter_tid=config1:0`,
/// `filter_cid=config1:5`).
const UBOX_FORMATS: &[Format] = &[
    EVENT,
    UMASK,
    EDGE,
    INV,
    THRESH5,
    cfg1("filter_tid", &[f(0, 0)]),
    cfg1("filter_cid", &[f(5, 5)]),
];

/// C-box formats (the Linux driver's `hswep_uncore_cbox_formats_attr`: no
/// `inv`).
pub const CBOX_FORMATS: &[Format] = &[
    EVENT,
    UMASK,
    EDGE,
    TID_EN,
    THRESH8,
    cfg1("filter_tid", &[f(0, 5)]),
    cfg1("filter_link", &[f(6, 8)]),
    cfg1("filter_state", &[f(17, 23)]),
    cfg1("filter_nid", &[f(32, 47)]),
    cfg1("filter_opc", &[f(52, 60)]),
    cfg1("filter_nc", &[f(62, 62)]),
    cfg1("filter_c6", &[f(61, 61)]),
    cfg1("filter_isoc", &[f(63, 63)]),
];

/// S-box formats (the Linux driver's `hswep_uncore_sbox_formats_attr`).
pub const SBOX_FORMATS: &[Format] = &[EVENT, UMASK, EDGE, TID_EN, INV, THRESH8];

const QPI_FORMATS: &[Format] = &concat::<_, { 5 + QPI_MATCH_MASK.len() }>(
    &[&[EVENT_EXT, UMASK, EDGE, INV, THRESH8], QPI_MATCH_MASK],
    EVENT_EXT,
);

/// C-box constraints (the Linux driver's `hswep_uncore_cbox_constraints`).
const CBOX_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x01, 0x1),
    Constraint::event(0x09, 0x1),
    Constraint::event(0x11, 0x1),
    Constraint::event(0x36, 0x1),
    Constraint::event(0x38, 0x3),
    Constraint::event(0x3b, 0x1),
    Constraint::event(0x3e, 0x1),
];

/// R2PCIe constraints (`hswep_uncore_r2pcie_constraints`, ranges expanded).
const R2PCIE_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x10, 0x3),
    Constraint::event(0x11, 0x3),
    Constraint::event(0x13, 0x1),
    Constraint::event(0x23, 0x1),
    Constraint::event(0x24, 0x1),
    Constraint::event(0x25, 0x1),
    Constraint::event(0x26, 0x3),
    Constraint::event(0x27, 0x1),
    Constraint::event(0x28, 0x3),
    Constraint::event(0x29, 0x3),
    Constraint::event(0x2a, 0x1),
    Constraint::event(0x2b, 0x3),
    Constraint::event(0x2c, 0x3),
    Constraint::event(0x2d, 0x3),
    Constraint::event(0x32, 0x3),
    Constraint::event(0x33, 0x3),
    Constraint::event(0x34, 0x3),
    Constraint::event(0x35, 0x3),
];

/// R3QPI constraints (`hswep_uncore_r3qpi_constraints`, ranges expanded).
const R3QPI_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x01, 0x3),
    Constraint::event(0x07, 0x7),
    Constraint::event(0x08, 0x7),
    Constraint::event(0x09, 0x7),
    Constraint::event(0x0a, 0x7),
    Constraint::event(0x0e, 0x7),
    Constraint::event(0x10, 0x3),
    Constraint::event(0x11, 0x3),
    Constraint::event(0x12, 0x3),
    Constraint::event(0x13, 0x1),
    Constraint::event(0x14, 0x3),
    Constraint::event(0x15, 0x3),
    Constraint::event(0x1f, 0x3),
    Constraint::event(0x20, 0x3),
    Constraint::event(0x21, 0x3),
    Constraint::event(0x22, 0x3),
    Constraint::event(0x23, 0x3),
    Constraint::event(0x25, 0x3),
    Constraint::event(0x26, 0x3),
    Constraint::event(0x28, 0x3),
    Constraint::event(0x29, 0x3),
    Constraint::event(0x2c, 0x3),
    Constraint::event(0x2d, 0x3),
    Constraint::event(0x2e, 0x3),
    Constraint::event(0x2f, 0x3),
    Constraint::event(0x31, 0x3),
    Constraint::event(0x32, 0x3),
    Constraint::event(0x33, 0x3),
    Constraint::event(0x34, 0x3),
    Constraint::event(0x36, 0x3),
    Constraint::event(0x37, 0x3),
    Constraint::event(0x38, 0x3),
    Constraint::event(0x39, 0x3),
];

/// The common shape of the boxes, for a box of kind `kind`: SNB-EP's PCI
/// register layout, box control (with `frz_en`) and formats (with `inv`),
/// as the Linux driver's `SNBEP_UNCORE_PCI_COMMON_INIT`.
const fn generic(kind: BoxKind) -> BoxType {
    super::snbep::generic(kind)
}

/// The HSX box types: the MSR boxes in the Linux driver's order, then the
/// PCI boxes.
pub const TYPES: [BoxType; 10] = [
    // U-box: two 44-bit counters, the 48-bit UCLK fixed counter (0x703
    // control, 0x704 counter), the filter at 0x707, no box control.
    BoxType {
        catalog: catalog::hsx::UBOX,
        num_counters: 2,
        ctr_bits: 44,
        fixed: Some(Fixed {
            ctl: 0x703,
            ctr: 0x704,
            bits: 48,
            enable: 1 << 22,
            only_box0: false,
        }),
        space: Space::Msr {
            box_ctl: None,
            ctl: Regs::Step {
                base: 0x705,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0x709,
                step: 1,
            },
            offsets: Offsets::Stride(0),
        },
        box_ctl: &NoBoxCtl,
        ctl_mask: 0x1f84_ffff,
        formats: UBOX_FORMATS,
        special: &special::UBOX_FILTER,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 1,
        },
        ..generic(BoxKind::Ubox)
    },
    // C-boxes: up to 18 (capped at the cores per package, as the Linux
    // driver does), 48-bit counters.
    BoxType {
        catalog: catalog::hsx::CBOX,
        num_boxes: 18,
        ctr_bits: 48,
        space: Space::Msr {
            box_ctl: Some(0xe00),
            ctl: Regs::Step {
                base: 0xe01,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0xe08,
                step: 1,
            },
            offsets: Offsets::Stride(0x10),
        },
        ctl_mask: 0xff0c_ffff,
        formats: CBOX_FORMATS,
        constraints: CBOX_CONSTRAINTS,
        special: &special::CBOX_FILTER,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 20,
        },
        ..generic(BoxKind::Cbox)
    },
    // S-boxes: four (two on parts whose PCU CAPID4 says so), 44-bit
    // counters, the box initialised bit by bit.
    BoxType {
        catalog: catalog::hsx::SBOX,
        num_boxes: 4,
        ctr_bits: 44,
        space: special::SBOX_SPACE,
        box_ctl: &special::SBOX_CTL,
        ctl_mask: 0xff8c_ffff,
        formats: SBOX_FORMATS,
        ..generic(BoxKind::Sbox)
    },
    BoxType {
        catalog: catalog::hsx::PCU,
        space: Space::Msr {
            box_ctl: Some(0x710),
            ctl: Regs::Step {
                base: 0x711,
                step: 1,
            },
            ctr: Regs::Step {
                base: 0x717,
                step: 1,
            },
            offsets: Offsets::Stride(0),
        },
        ctl_mask: 0xdfa4_c0ff,
        formats: PCU_FORMATS,
        special: &special::PCU_BAND,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 15,
        },
        ..generic(BoxKind::Pcu)
    },
    BoxType {
        catalog: catalog::hsx::HA,
        num_boxes: 2,
        ..generic(BoxKind::Ha)
    },
    BoxType {
        catalog: catalog::hsx::IMC,
        num_boxes: 8,
        fixed: Some(IMC_FIXED),
        aliases: IMC_ALIASES_HSX,
        ..generic(BoxKind::Imc)
    },
    // IRP: controls 0xd8, 0xdc, 0xe0, 0xe4 (IVB-EP's), counters 0xa0,
    // 0xa8, 0xb0, 0xb8 (`hswep_uncore_irp_ctrs`).
    BoxType {
        catalog: catalog::hsx::IRP,
        space: Space::Pci {
            box_ctl: 0xf4,
            ctl: Regs::Table(&[0xd8, 0xdc, 0xe0, 0xe4]),
            ctr: Regs::Table(&[0xa0, 0xa8, 0xb0, 0xb8]),
        },
        ..generic(BoxKind::Irp)
    },
    BoxType {
        catalog: catalog::hsx::QPI,
        num_boxes: 3,
        ctl_mask: 0xffa4_ffff,
        formats: QPI_FORMATS,
        special: &super::snbep::special::QpiMatchMask,
        ..generic(BoxKind::Qpi)
    },
    BoxType {
        catalog: catalog::hsx::R2PCIE,
        constraints: R2PCIE_CONSTRAINTS,
        ..generic(BoxKind::R2pcie)
    },
    BoxType {
        catalog: catalog::hsx::R3QPI,
        num_boxes: 3,
        num_counters: 3,
        ctr_bits: 44,
        constraints: R3QPI_CONSTRAINTS,
        ..generic(BoxKind::R3qpi)
    },
];

/// The iMC aliases of the Linux driver on Haswell-EP
/// (`hswep_uncore_imc_events`): SNB-EP's CAS counts, with `clockticks` on
/// event 0 (the DCLK event of the general counters) rather than the fixed
/// counter.
pub const IMC_ALIASES_HSX: &[Alias] = &[
    Alias::plain("clockticks", "event=0x00,umask=0x00"),
    IMC_ALIASES[1],
    IMC_ALIASES[2],
];

/// A function found by device ID only: the sources give no device and
/// function number for the Haswell-EP uncore functions (the Linux driver
/// matches IDs alone).
pub(crate) const fn id(device: u16, role: Role) -> PciFn {
    PciFn {
        device,
        dev: None,
        func: None,
        role,
    }
}

/// HSX uncore PCI functions (the Linux driver's `hswep_uncore_pci_ids`),
/// and the U-box device of the bus map.
pub const PCI: &[PciFn] = &[
    id(0x2f30, bx(BoxKind::Ha, 0)),
    id(0x2f38, bx(BoxKind::Ha, 1)),
    id(0x2fb0, bx(BoxKind::Imc, 0)),
    id(0x2fb1, bx(BoxKind::Imc, 1)),
    id(0x2fb4, bx(BoxKind::Imc, 2)),
    id(0x2fb5, bx(BoxKind::Imc, 3)),
    id(0x2fd0, bx(BoxKind::Imc, 4)),
    id(0x2fd1, bx(BoxKind::Imc, 5)),
    id(0x2fd4, bx(BoxKind::Imc, 6)),
    id(0x2fd5, bx(BoxKind::Imc, 7)),
    id(0x2f39, bx(BoxKind::Irp, 0)),
    id(0x2f32, bx(BoxKind::Qpi, 0)),
    id(0x2f33, bx(BoxKind::Qpi, 1)),
    id(0x2f3a, bx(BoxKind::Qpi, 2)),
    id(0x2f34, bx(BoxKind::R2pcie, 0)),
    id(0x2f36, bx(BoxKind::R3qpi, 0)),
    id(0x2f37, bx(BoxKind::R3qpi, 1)),
    id(0x2f3e, bx(BoxKind::R3qpi, 2)),
    id(0x2f86, Role::QpiFilter { port: 0 }),
    id(0x2f96, Role::QpiFilter { port: 1 }),
    id(0x2f1e, Role::Ubox),
];

/// Haswell-EP.
pub const HSX: Platform = Platform {
    id: PlatformId::HASWELL_EP,
    name: "hsx",
    description: "Haswell-EP (Xeon E5 v3)",
    cpus: &[(6, 63)],
    types: &TYPES,
    s_summary: &[],
    global: &special::HSX_GLOBAL,
    pci: PCI,
    mmio_window: None,
    #[cfg(feature = "sim")]
    sim: model::SIM,
};

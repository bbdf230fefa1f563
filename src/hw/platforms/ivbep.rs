// SPDX-License-Identifier: GPL-2.0

//! Ivy Bridge-EP (Xeon E5 v2, "Ivytown"), family 6 model 62.
//!
//! Source: the fragment of the Xeon E5/E7 v2 uncore guide (329468-002,
//! §2.1.2-2.1.3) and, for the register map, the Linux driver's facts.
//! Differences from SNB-EP: no `inv` bit in the control registers (so no
//! `inv` format is advertised, unlike the Linux driver, which advertises it
//! and then drops the bit), a 64-bit C-box filter over two MSRs, boxes
//! initialised without `frz_en`, two home agents, eight iMC channels, the IRP
//! box and a third QPI port.

use super::common::*;
use super::snbep::box_ctl::Freeze;
use super::snbep::{
    CBOX_CONSTRAINTS, IMC_ALIASES, IMC_FIXED, QPI_ALIASES, QPI_MATCH_MASK, R2PCIE_CONSTRAINTS,
    R3QPI_CONSTRAINTS,
};
use super::{cfg, cfg1, f};
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::global::NoGlobal;
use crate::hw::pci::{at, bx, PciFn, Role};

#[cfg(feature = "sim")]
pub mod model;
pub mod special;

/// Box control written when a box is first used: `rst_ctrl` | `rst_ctrs`.
pub const BOX_CTL_INIT: u64 = (1 << 0) | (1 << 1);

const UCLK: u32 = 4000;

const GENERIC_FORMATS: &[Format] = &[EVENT, UMASK, EDGE, THRESH8];

const UBOX_FORMATS: &[Format] = &[EVENT, UMASK, EDGE, THRESH5];

const CBOX_FORMATS: &[Format] = &[
    EVENT,
    UMASK,
    EDGE,
    TID_EN,
    THRESH8,
    cfg1("filter_tid", &[f(0, 4)]),
    cfg1("filter_link", &[f(5, 8)]),
    cfg1("filter_state", &[f(17, 22)]),
    cfg1("filter_nid", &[f(32, 47)]),
    cfg1("filter_opc", &[f(52, 60)]),
    cfg1("filter_nc", &[f(62, 62)]),
    cfg1("filter_c6", &[f(61, 61)]),
    cfg1("filter_isoc", &[f(63, 63)]),
];

const PCU_FORMATS: &[Format] = &[
    EVENT_EXT,
    cfg("occ_sel", &[f(14, 15)]),
    EDGE,
    THRESH5,
    cfg("occ_invert", &[f(30, 30)]),
    cfg("occ_edge", &[f(31, 31)]),
    cfg1("filter_band0", &[f(0, 7)]),
    cfg1("filter_band1", &[f(8, 15)]),
    cfg1("filter_band2", &[f(16, 23)]),
    cfg1("filter_band3", &[f(24, 31)]),
];

const QPI_FORMATS: &[Format] = &concat::<_, { 4 + QPI_MATCH_MASK.len() }>(
    &[&[EVENT_EXT, UMASK, EDGE, THRESH8], QPI_MATCH_MASK],
    EVENT_EXT,
);

/// The common shape of the PCI boxes, for a box of kind `kind`: SNB-EP's,
/// without its `inv` (bit 23 of the control), with IVB-EP's box
/// initialisation.
const fn generic(kind: BoxKind) -> BoxType {
    BoxType {
        box_ctl: &Freeze { init: BOX_CTL_INIT },
        ctl_mask: 0xff04_ffff,
        formats: GENERIC_FORMATS,
        ..super::snbep::generic(kind)
    }
}

/// The IVB-EP box types.
pub const TYPES: [BoxType; 9] = [
    // U-box: SNB-EP's counters and fixed counter, without `inv`.
    BoxType {
        catalog: catalog::ivbep::UBOX,
        ctl_mask: 0x1f04_ffff,
        formats: UBOX_FORMATS,
        ..super::snbep::TYPES[0]
    },
    BoxType {
        catalog: catalog::ivbep::CBOX,
        num_boxes: 15,
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
    BoxType {
        catalog: catalog::ivbep::PCU,
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
        ctl_mask: 0xdf24_c0ff,
        formats: PCU_FORMATS,
        special: &super::snbep::special::PCU_BAND,
        rate: Rate {
            clock_mhz: UCLK,
            max_inc: 15,
        },
        ..generic(BoxKind::Pcu)
    },
    BoxType {
        catalog: catalog::ivbep::HA,
        num_boxes: 2,
        always_indexed: true,
        ..generic(BoxKind::Ha)
    },
    BoxType {
        catalog: catalog::ivbep::IMC,
        num_boxes: 8,
        fixed: Some(IMC_FIXED),
        aliases: IMC_ALIASES,
        ..generic(BoxKind::Imc)
    },
    // IRP: "registers in IRP boxes are not properly aligned".
    BoxType {
        catalog: catalog::ivbep::IRP,
        space: Space::Pci {
            box_ctl: 0xf4,
            ctl: Regs::Table(&[0xd8, 0xdc, 0xe0, 0xe4]),
            ctr: Regs::Table(&[0xa0, 0xb0, 0xb8, 0xc0]),
        },
        ..generic(BoxKind::Irp)
    },
    BoxType {
        catalog: catalog::ivbep::QPI,
        num_boxes: 3,
        ctl_mask: 0xff24_ffff,
        formats: QPI_FORMATS,
        aliases: QPI_ALIASES,
        special: &super::snbep::special::QpiMatchMask,
        ..generic(BoxKind::Qpi)
    },
    BoxType {
        catalog: catalog::ivbep::R2PCIE,
        ctr_bits: 44,
        constraints: R2PCIE_CONSTRAINTS,
        ..generic(BoxKind::R2pcie)
    },
    // Three R3QPI links (the Linux driver declares two boxes but probes a
    // third device, 0x0e3e, indexing past its array).
    BoxType {
        catalog: catalog::ivbep::R3QPI,
        num_boxes: 3,
        num_counters: 3,
        ctr_bits: 44,
        constraints: R3QPI_CONSTRAINTS,
        ..generic(BoxKind::R3qpi)
    },
];

/// IVB-EP uncore PCI functions. QPI port 2 (0x0e3a) has no agreed
/// position across sources, so only its ID is checked; it has no match/mask
/// device. The U-box devices of both platforms are found by ID only (they
/// are read for the node ID map, never bound).
pub const PCI: &[PciFn] = &[
    at(0x0e30, 14, 1, bx(BoxKind::Ha, 0)),
    at(0x0e38, 28, 1, bx(BoxKind::Ha, 1)),
    at(0x0eb4, 16, 4, bx(BoxKind::Imc, 0)),
    at(0x0eb5, 16, 5, bx(BoxKind::Imc, 1)),
    at(0x0eb0, 16, 0, bx(BoxKind::Imc, 2)),
    at(0x0eb1, 16, 1, bx(BoxKind::Imc, 3)),
    at(0x0ef4, 30, 4, bx(BoxKind::Imc, 4)),
    at(0x0ef5, 30, 5, bx(BoxKind::Imc, 5)),
    at(0x0ef0, 30, 0, bx(BoxKind::Imc, 6)),
    at(0x0ef1, 30, 1, bx(BoxKind::Imc, 7)),
    at(0x0e39, 5, 6, bx(BoxKind::Irp, 0)),
    at(0x0e32, 8, 2, bx(BoxKind::Qpi, 0)),
    at(0x0e33, 9, 2, bx(BoxKind::Qpi, 1)),
    PciFn {
        device: 0x0e3a,
        dev: None,
        func: None,
        role: bx(BoxKind::Qpi, 2),
    },
    at(0x0e34, 19, 1, bx(BoxKind::R2pcie, 0)),
    at(0x0e36, 19, 5, bx(BoxKind::R3qpi, 0)),
    at(0x0e37, 19, 6, bx(BoxKind::R3qpi, 1)),
    at(0x0e3e, 18, 5, bx(BoxKind::R3qpi, 2)),
    at(0x0e86, 8, 6, Role::QpiFilter { port: 0 }),
    at(0x0e96, 9, 6, Role::QpiFilter { port: 1 }),
    PciFn {
        device: 0x0e1e,
        dev: None,
        func: None,
        role: Role::Ubox,
    },
];

/// Ivy Bridge-EP.
pub const IVBEP: Platform = Platform {
    id: PlatformId::IVY_BRIDGE_EP,
    name: "ivbep",
    description: "Ivy Bridge-EP (Xeon E5 v2)",
    cpus: &[(6, 62)],
    types: &TYPES,
    s_summary: &[],
    global: &NoGlobal,
    pci: PCI,
    mmio_window: None,
    #[cfg(feature = "sim")]
    sim: model::SIM,
};

// SPDX-License-Identifier: GPL-2.0

//! Broadwell-EP/EX (Xeon E5 v4, E7 v4, "Broadwell-X"), family 6 model 79.
//!
//! Source: the Linux driver (`arch/x86/events/intel/uncore_snbep.c`, "BDX
//! uncore support"; the CPU model table of `uncore.c`) for the registers,
//! PMU names, formats, constraints and PCI device IDs, and perf's
//! broadwellx uncore event tables for the events. Intel's uncore guide for
//! the part is not among this project's sources: every fact here is the
//! Linux driver's or perf's.
//!
//! Haswell-EP's registers and boxes ([`super::hsx`]), with these
//! differences: 48-bit counters everywhere (U-box, S-box and R3QPI were
//! 44-bit), up to 24 C-boxes, a U-box without the filter (the Linux driver
//! gives it IVB-EP's U-box formats and operations), a PCU whose occupancy
//! events (bit 7 of the event select) count on counters 1-3 only, the
//! S-boxes all gone when the PCU's `CAPID4` says the part is a small one
//! (Haswell-EP keeps two), a filter device for the third QPI port, other
//! C-box, R2PCIe and R3QPI constraints, and PCI device IDs 0x6fxx.

use super::common::*;
use super::hsx::{self, id};
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::pci::{bx, PciFn, Role};
use crate::hw::special::Plain;

#[cfg(feature = "sim")]
pub mod model;
pub mod special;

/// U-box formats: IVB-EP's (the Linux driver's
/// `ivbep_uncore_ubox_formats_attr`, which it gives the BDX U-box).
const UBOX_FORMATS: &[Format] = &[EVENT, UMASK, EDGE, INV, THRESH5];

/// C-box constraints (the Linux driver's `bdx_uncore_cbox_constraints`).
const CBOX_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x09, 0x3),
    Constraint::event(0x11, 0x1),
    Constraint::event(0x36, 0x1),
    Constraint::event(0x3e, 0x1),
];

/// PCU constraints (`bdx_uncore_pcu_constraints`): "Bit 7 'Use Occupancy'
/// is not available for counter 0 on BDX".
pub const PCU_CONSTRAINTS: &[Constraint] = &[Constraint {
    code: 0x80,
    cmask: 0x80,
    counters: 0xe,
}];

/// R2PCIe constraints (`bdx_uncore_r2pcie_constraints`).
const R2PCIE_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x10, 0x3),
    Constraint::event(0x11, 0x3),
    Constraint::event(0x13, 0x1),
    Constraint::event(0x23, 0x1),
    Constraint::event(0x25, 0x1),
    Constraint::event(0x26, 0x3),
    Constraint::event(0x28, 0x3),
    Constraint::event(0x2c, 0x3),
    Constraint::event(0x2d, 0x3),
];

/// R3QPI constraints (`bdx_uncore_r3qpi_constraints`).
const R3QPI_CONSTRAINTS: &[Constraint] = &[
    Constraint::event(0x01, 0x7),
    Constraint::event(0x07, 0x7),
    Constraint::event(0x08, 0x7),
    Constraint::event(0x09, 0x7),
    Constraint::event(0x0a, 0x7),
    Constraint::event(0x0e, 0x7),
    Constraint::event(0x10, 0x3),
    Constraint::event(0x11, 0x3),
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
    Constraint::event(0x33, 0x3),
    Constraint::event(0x34, 0x3),
    Constraint::event(0x36, 0x3),
    Constraint::event(0x37, 0x3),
    Constraint::event(0x38, 0x3),
    Constraint::event(0x39, 0x3),
];

/// The BDX box types: the MSR boxes in the Linux driver's order (U-box,
/// C-box, PCU, S-box), then the PCI boxes.
pub const TYPES: [BoxType; 10] = [
    // U-box: HSX's registers (0x703-0x70a), 48-bit counters, no filter.
    BoxType {
        catalog: catalog::bdx::UBOX,
        ctr_bits: 48,
        formats: UBOX_FORMATS,
        special: &Plain,
        ..hsx::TYPES[0]
    },
    // C-boxes: up to 24 (capped at the cores per package).
    BoxType {
        catalog: catalog::bdx::CBOX,
        num_boxes: 24,
        constraints: CBOX_CONSTRAINTS,
        ..hsx::TYPES[1]
    },
    BoxType {
        catalog: catalog::bdx::PCU,
        constraints: PCU_CONSTRAINTS,
        ..hsx::TYPES[3]
    },
    // S-boxes: four, 48-bit, none on parts whose PCU CAPID4 says so.
    BoxType {
        catalog: catalog::bdx::SBOX,
        ctr_bits: 48,
        ..hsx::TYPES[2]
    },
    BoxType {
        catalog: catalog::bdx::HA,
        ..hsx::TYPES[4]
    },
    BoxType {
        catalog: catalog::bdx::IMC,
        ..hsx::TYPES[5]
    },
    // IRP: HSX's registers; its events are HSX's too.
    hsx::TYPES[6],
    BoxType {
        catalog: catalog::bdx::QPI,
        ..hsx::TYPES[7]
    },
    BoxType {
        catalog: catalog::bdx::R2PCIE,
        constraints: R2PCIE_CONSTRAINTS,
        ..hsx::TYPES[8]
    },
    BoxType {
        catalog: catalog::bdx::R3QPI,
        ctr_bits: 48,
        constraints: R3QPI_CONSTRAINTS,
        ..hsx::TYPES[9]
    },
];

/// BDX uncore PCI functions (the Linux driver's `bdx_uncore_pci_ids`),
/// and the U-box device of the bus map.
pub const PCI: &[PciFn] = &[
    id(0x6f30, bx(BoxKind::Ha, 0)),
    id(0x6f38, bx(BoxKind::Ha, 1)),
    id(0x6fb0, bx(BoxKind::Imc, 0)),
    id(0x6fb1, bx(BoxKind::Imc, 1)),
    id(0x6fb4, bx(BoxKind::Imc, 2)),
    id(0x6fb5, bx(BoxKind::Imc, 3)),
    id(0x6fd0, bx(BoxKind::Imc, 4)),
    id(0x6fd1, bx(BoxKind::Imc, 5)),
    id(0x6fd4, bx(BoxKind::Imc, 6)),
    id(0x6fd5, bx(BoxKind::Imc, 7)),
    id(0x6f39, bx(BoxKind::Irp, 0)),
    id(0x6f32, bx(BoxKind::Qpi, 0)),
    id(0x6f33, bx(BoxKind::Qpi, 1)),
    id(0x6f3a, bx(BoxKind::Qpi, 2)),
    id(0x6f34, bx(BoxKind::R2pcie, 0)),
    id(0x6f36, bx(BoxKind::R3qpi, 0)),
    id(0x6f37, bx(BoxKind::R3qpi, 1)),
    id(0x6f3e, bx(BoxKind::R3qpi, 2)),
    id(0x6f86, Role::QpiFilter { port: 0 }),
    id(0x6f96, Role::QpiFilter { port: 1 }),
    id(0x6f46, Role::QpiFilter { port: 2 }),
    id(0x6f1e, Role::Ubox),
];

/// Broadwell-EP/EX.
pub const BDX: Platform = Platform {
    id: PlatformId::BROADWELL_X,
    name: "bdx",
    description: "Broadwell-EP/EX (Xeon E5 v4, E7 v4)",
    cpus: &[(6, 79)],
    types: &TYPES,
    s_summary: &[],
    global: &special::BDX_GLOBAL,
    pci: PCI,
    mmio_window: None,
    #[cfg(feature = "sim")]
    sim: model::SIM,
};

// SPDX-License-Identifier: GPL-2.0

//! Broadwell-DE (Xeon D-1500), family 6 model 86.
//!
//! Source: the Linux driver (`uncore_snbep.c`, "BDX uncore support"),
//! which drives it as Broadwell-EP ([`super::bdx`]) without the S-boxes
//! ("BDX-DE doesn't have SBOX"), and perf's broadwellde uncore event
//! tables, which have no QPI, R3QPI or S-box events: the part has one
//! socket and no QPI links, so this driver gives it no QPI and R3QPI boxes
//! (the Linux driver binds their device IDs if they are present; they are
//! not).

use super::bdx;
use crate::hw::catalog;
use crate::hw::desc::*;
use crate::hw::global::NoGlobal;
use crate::hw::pci::{PciFn, Role};

/// The BDX-DE box types: BDX's U-box, C-box and PCU, and its HA, iMC,
/// IRP and R2PCIe with broadwellde's events.
pub const TYPES: [BoxType; 7] = [
    BoxType {
        catalog: catalog::bdxde::UBOX,
        ..bdx::TYPES[0]
    },
    BoxType {
        catalog: catalog::bdxde::CBOX,
        ..bdx::TYPES[1]
    },
    bdx::TYPES[2],
    BoxType {
        catalog: catalog::bdxde::HA,
        ..bdx::TYPES[4]
    },
    BoxType {
        catalog: catalog::bdxde::IMC,
        ..bdx::TYPES[5]
    },
    bdx::TYPES[6],
    bdx::TYPES[8],
];

/// BDX's functions of the boxes BDX-DE has, and the U-box device.
pub const PCI: [PciFn; 13] = {
    let mut out = [bdx::PCI[0]; 13];
    let mut n = 0;
    let mut i = 0;
    while i < bdx::PCI.len() {
        let keep = match bdx::PCI[i].role {
            Role::Box { ty, .. } => !matches!(ty, BoxKind::Qpi | BoxKind::R3qpi),
            Role::QpiFilter { .. } => false,
            _ => true,
        };
        if keep {
            out[n] = bdx::PCI[i];
            n += 1;
        }
        i += 1;
    }
    assert!(n == out.len(), "BDX-DE keeps 13 of BDX's functions");
    out
};

/// Broadwell-DE.
pub const BDXDE: Platform = Platform {
    id: PlatformId::BROADWELL_DE,
    name: "bdxde",
    description: "Broadwell-DE (Xeon D-1500)",
    cpus: &[(6, 86)],
    types: &TYPES,
    s_summary: &[],
    global: &NoGlobal,
    pci: &PCI,
    mmio_window: None,
    #[cfg(feature = "sim")]
    sim: bdx::model::SIM,
};

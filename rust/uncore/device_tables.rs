// SPDX-License-Identifier: GPL-2.0

//! The module's device tables, built at compile time from the core's
//! tables: every uncore PCI function the driver binds and every CPU model
//! it supports. modpost turns them into the module's aliases, as it does
//! for `MODULE_DEVICE_TABLE()`, so that the module autoloads; the PCI
//! driver matches devices with the same table. The symbol names are the
//! ones the tree's modpost reads (`ru_device_table_kmod`: the module's
//! name in the symbol).

use crate::hw;
use crate::sys::{cpu, pci};

/// The PCI functions the driver binds.
#[used]
#[cfg_attr(
    ru_device_table_kmod,
    export_name = "__mod_device_table__kmod_rust_uncore__pci__rust_uncore_pci_ids"
)]
#[cfg_attr(
    not(ru_device_table_kmod),
    export_name = "__mod_pci__rust_uncore_pci_ids_device_table"
)]
pub(crate) static PCI_IDS: pci::IdTable<{ hw::platforms::BOUND_COUNT + 1 }> =
    pci::IdTable::new(hw::pci::VENDOR_INTEL, &hw::platforms::BOUND_IDS);

/// The CPU models the driver supports.
#[used]
#[cfg_attr(
    ru_device_table_kmod,
    export_name = "__mod_device_table__kmod_rust_uncore__x86cpu__rust_uncore_cpu_ids"
)]
#[cfg_attr(
    not(ru_device_table_kmod),
    export_name = "__mod_x86cpu__rust_uncore_cpu_ids_device_table"
)]
static CPU_IDS: cpu::IdTable<{ hw::platforms::CPU_COUNT + 1 }> =
    cpu::IdTable::new(&hw::platforms::CPUS);

// SPDX-License-Identifier: GPL-2.0

//! The PCI driver's device table, built at compile time from the core's
//! tables: every uncore PCI function the driver binds. It is not exported
//! as the module's aliases (no `MODULE_DEVICE_TABLE()`), and the module has
//! no CPU aliases either: the kernel's `intel_uncore` autoloads by CPU
//! alias on the same machines, and of two drivers that udev loads at boot
//! whichever registers the PMU names first wins and the other logs an
//! error at every boot. The module is loaded by name (`modprobe
//! rust_uncore`, or a `modules-load.d` line with `intel_uncore`
//! blacklisted).

use crate::hw;
use crate::sys::pci;

/// The PCI functions the driver binds.
pub(crate) static PCI_IDS: pci::IdTable<{ hw::platforms::BOUND_COUNT + 1 }> =
    pci::IdTable::new(hw::pci::VENDOR_INTEL, &hw::platforms::BOUND_IDS);

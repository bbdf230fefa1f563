// SPDX-License-Identifier: GPL-2.0

//! This driver's glue to the kernel abstraction layer (`sys`, in `rust/`):
//! what only rust_uncore needs and what ties the abstraction to the core's
//! types. The abstraction itself knows nothing of uncore hardware; a second
//! module (the test PMU in `tests/module/`) builds on it without this glue.
//!
//! - the module's device tables (its PCI and CPU aliases), from the core's
//!   tables (`rust_uncore.ko` only);
//! - the module parameters: `pmi=`, and `sim=` (`rust_uncore_sim.ko`
//!   only, `feature = "sim"`);
//! - the register model's zeroed allocation (`rust_uncore_sim.ko` only);
//! - the register handles of the core ([`hw::program::Msr`],
//!   [`hw::program::CfgReg`], [`hw::pci::BarWindow`]) as the abstraction's
//!   [`sys::msr::Register`], [`sys::pci::ConfigRegister`] and
//!   [`sys::pci::BarWindow`]: the promise that writing them is harmless
//!   rests on the core's tables, which alone make them.
//!
//! [`hw::program::Msr`]: crate::hw::program::Msr
//! [`hw::program::CfgReg`]: crate::hw::program::CfgReg
//! [`hw::pci::BarWindow`]: crate::hw::pci::BarWindow
//! [`sys::msr::Register`]: crate::sys::msr::Register
//! [`sys::pci::ConfigRegister`]: crate::sys::pci::ConfigRegister
//! [`sys::pci::BarWindow`]: crate::sys::pci::BarWindow

#[cfg(not(feature = "sim"))]
mod device_tables;
#[cfg(feature = "sim")]
pub(crate) mod model;
pub(crate) mod params;
mod registers;

#[cfg(not(feature = "sim"))]
pub(crate) use device_tables::PCI_IDS;

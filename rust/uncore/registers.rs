// SPDX-License-Identifier: GPL-2.0

//! The core's register handles as the abstraction's writable registers.
//! Only `hw` makes them, from the platform tables: an uncore PMON register
//! or a global uncore control the platform names, and the PCI window of the
//! Skylake IMC counters.

use crate::hw::pci::BarWindow;
use crate::hw::program::{CfgReg, Msr};
use crate::sys::{msr, pci};

// SAFETY: `Msr::new` is private to `hw`, whose tables make an `Msr` only for an uncore
// performance-monitoring register or a global uncore PMON control of the platform; writing
// them changes only what the uncore counts and whether it interrupts.
unsafe impl msr::Register for Msr {
    fn address(self) -> u32 {
        self.addr()
    }
}

// SAFETY: `CfgReg::new` is private to `hw`, whose tables make a `CfgReg` only for a PMON
// register (box control, counter control, counter, filter) of an uncore PCI function; the
// driver writes it only on functions it is bound to, and the write changes only what the
// uncore counts.
unsafe impl pci::ConfigRegister for CfgReg {
    fn offset(self) -> u32 {
        CfgReg::offset(self)
    }
}

// SAFETY: `hw` makes a `BarWindow` only for `MCHBAR` of the Skylake host bridge: a 64-bit base
// address register at `offset`, whose decoded base (enable bit set) places the memory
// controller's registers, of which the `size` bytes mapped hold the free-running IMC counters;
// reading them has no side effect.
unsafe impl pci::BarWindow for BarWindow {
    fn offset(&self) -> u32 {
        BarWindow::offset(self)
    }

    fn size(&self) -> u32 {
        BarWindow::size(self)
    }

    fn base(&self, lo: u32, hi: u32) -> Option<u64> {
        BarWindow::base(self, lo, hi)
    }
}

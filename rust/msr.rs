// SPDX-License-Identifier: GPL-2.0

//! Model-specific registers of the current CPU, read and written with the
//! fault-safe instructions: an MSR the CPU does not have gives `EIO`, never
//! an oops. Safe in any context, NMI included.
//!
//! C header: [`arch/x86/include/asm/msr.h`](srctree/arch/x86/include/asm/msr.h)

use super::bindings;
use crate::hw::program::Msr;
use kernel::error::{code::EIO, Result};

/// Reads `msr` on the current CPU.
pub(crate) fn read(msr: Msr) -> Result<u64> {
    let mut v = 0u64;
    // SAFETY: `v` is a valid, writable `u64`; `rdmsrl_safe` handles faults.
    match unsafe { bindings::ru_rdmsr_safe(msr.addr(), &mut v) } {
        0 => Ok(v),
        _ => Err(EIO),
    }
}

/// Writes `msr` on the current CPU. Only the core's tables make an [`Msr`]
/// (an uncore PMON register, or a global control the platform names), so no
/// caller can have another MSR written.
pub(crate) fn write(msr: Msr, v: u64) -> Result {
    // SAFETY: `wrmsrl_safe` handles faults; `msr` is one of the platform's uncore registers,
    // whose writes change only what the uncore counts.
    match unsafe { bindings::ru_wrmsr_safe(msr.addr(), v) } {
        0 => Ok(()),
        _ => Err(EIO),
    }
}

// SPDX-License-Identifier: GPL-2.0

//! Model-specific registers, read and written with the fault-safe
//! instructions: an MSR the CPU does not have gives `EIO`, never an oops.
//!
//! C header: [`arch/x86/include/asm/msr.h`](srctree/arch/x86/include/asm/msr.h)

use super::ffi;
use kernel::error::{code::EIO, Result};

/// Reads `msr` on the current CPU.
pub(crate) fn read(msr: u32) -> Result<u64> {
    let mut v = 0u64;
    // SAFETY: `v` is a valid, writable `u64`; `rdmsrl_safe` handles faults.
    let r = unsafe { ffi::ru_rdmsr(msr, &mut v) };
    if r == 0 {
        Ok(v)
    } else {
        Err(EIO)
    }
}

/// Writes `msr` on the current CPU.
pub(crate) fn write(msr: u32, v: u64) -> Result {
    // SAFETY: `wrmsrl_safe` handles faults.
    let r = unsafe { ffi::ru_wrmsr(msr, v) };
    if r == 0 {
        Ok(())
    } else {
        Err(EIO)
    }
}

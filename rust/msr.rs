// SPDX-License-Identifier: GPL-2.0

//! Model-specific registers of the current CPU, read and written with the
//! fault-safe instructions: an MSR the CPU does not have gives `EIO`, never
//! an oops. Safe in any context, NMI included.
//!
//! C header: [`arch/x86/include/asm/msr.h`](srctree/arch/x86/include/asm/msr.h)

use super::bindings;
use kernel::error::{code::EIO, Result};

/// An MSR a driver may write with any value.
///
/// # Safety
///
/// Writing any value to the MSR, on any CPU, changes only state that the
/// implementing driver owns (a performance-monitoring register, say): never
/// memory, paging, interrupts or anything else the kernel relies on.
pub unsafe trait Register: Copy {
    /// The MSR's address.
    fn address(self) -> u32;
}

/// Reads `msr` on the current CPU.
#[inline(always)]
pub fn read<R: Register>(msr: R) -> Result<u64> {
    let mut v = core::mem::MaybeUninit::<u64>::uninit();
    // SAFETY: `v` is a valid, writable `u64`; `rdmsrl_safe` handles faults, and the helper
    // writes `v` whatever the outcome.
    let err = unsafe { bindings::ru_rdmsr_safe(msr.address(), v.as_mut_ptr()) };
    match err {
        // SAFETY: The helper wrote `v`.
        0 => Ok(unsafe { v.assume_init() }),
        _ => Err(EIO),
    }
}

/// Reads `msr` on the current CPU without a fault check of its own: an
/// MSR the CPU lacks reads 0, and the kernel warns once ("unchecked MSR
/// access error"), as for the C drivers' counter reads. For a register the
/// caller knows the CPU has (a counter of the detected part), on a path
/// where [`read`]'s error handling costs.
#[inline(always)]
pub fn read_or_zero<R: Register>(msr: R) -> u64 {
    // SAFETY: `rdmsr` with the kernel's exception-table fixup: a fault reads 0 and returns.
    unsafe { bindings::ru_rdmsr(msr.address()) }
}

/// Writes `msr` on the current CPU. Only a [`Register`] can be written, so
/// no caller can have an MSR written that the kernel relies on.
pub fn write<R: Register>(msr: R, v: u64) -> Result {
    // SAFETY: `wrmsrl_safe` handles faults; by `Register`'s contract a write of any value to
    // `msr` changes only what its driver owns.
    match unsafe { bindings::ru_wrmsr_safe(msr.address(), v) } {
        0 => Ok(()),
        _ => Err(EIO),
    }
}

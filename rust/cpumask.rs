// SPDX-License-Identifier: GPL-2.0

//! A set of CPUs that may change while it is shown in sysfs: one atomic bit
//! per possible CPU, laid out like a `struct cpumask` so that the kernel's
//! bitmap printer (`%*pbl`) can show it.
//!
//! C header: [`include/linux/cpumask.h`](srctree/include/linux/cpumask.h)

use super::bindings;
use super::cpu::{self, CpuId};
use core::sync::atomic::{AtomicUsize, Ordering};
use kernel::ffi::{c_char, c_int};
use kernel::prelude::*;

/// Bits per word of the mask.
const BITS: u32 = usize::BITS;

/// A set of CPUs.
///
/// # Invariants
///
/// `words` covers every possible CPU (`nr_cpu_ids` bits).
pub struct CpuMask {
    words: KVec<AtomicUsize>,
}

impl CpuMask {
    /// An empty set.
    pub fn new() -> Result<Self> {
        let n = cpu::nr_cpu_ids().div_ceil(BITS) as usize;
        let mut words = KVec::with_capacity(n, GFP_KERNEL)?;
        for _ in 0..n {
            words.push(AtomicUsize::new(0), GFP_KERNEL)?;
        }
        Ok(CpuMask { words })
    }

    fn word(&self, cpu: CpuId) -> Option<(&AtomicUsize, usize)> {
        let c = cpu.as_u32();
        self.words
            .get((c / BITS) as usize)
            .map(|w| (w, 1 << (c % BITS)))
    }

    /// Adds `cpu` to the set.
    pub fn set(&self, cpu: CpuId) {
        if let Some((w, bit)) = self.word(cpu) {
            w.fetch_or(bit, Ordering::Relaxed);
        }
    }

    /// Removes `cpu` from the set.
    pub fn clear(&self, cpu: CpuId) {
        if let Some((w, bit)) = self.word(cpu) {
            w.fetch_and(!bit, Ordering::Relaxed);
        }
    }

    /// Prints the set as a CPU list ("0,2-3\n") into `buf`; returns the length.
    ///
    /// # Safety
    ///
    /// `buf` must be a writable page (a sysfs `show` buffer).
    pub unsafe fn print(&self, buf: *mut c_char) -> isize {
        // SAFETY: `words` has the layout of an array of `unsigned long` (an atomic has its
        // integer's layout) and covers `nr_cpu_ids` bits (type invariant); racing with an
        // update shows the set before or after it, as for the kernel's own cpumasks. The
        // caller provides the page.
        unsafe {
            bindings::sysfs_emit(
                buf,
                kernel::c_str!("%*pbl\n").as_char_ptr(),
                cpu::nr_cpu_ids() as c_int,
                self.words.as_ptr(),
            ) as isize
        }
    }
}

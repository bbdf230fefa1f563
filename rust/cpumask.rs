// SPDX-License-Identifier: GPL-2.0

//! A set of CPUs that may change while it is shown in sysfs: one atomic bit
//! per possible CPU, laid out like a `struct cpumask` so that the kernel's
//! bitmap printer (`%*pbl`, a PMU's `cpumask` file) can show it.
//!
//! C header: [`include/linux/cpumask.h`](srctree/include/linux/cpumask.h)

use super::bindings;
use super::cpu::{self, CpuId};
use core::sync::atomic::{AtomicUsize, Ordering};
use kernel::prelude::*;

/// Bits per word of the mask.
const BITS: u32 = usize::BITS;

/// A set of CPUs.
///
/// # Invariants
///
/// `words` covers every possible CPU (`nr_cpu_ids` bits) and is at least
/// as long as a `struct cpumask` (`NR_CPUS` bits), whose layout it has.
pub struct CpuMask {
    words: KVec<AtomicUsize>,
}

impl CpuMask {
    /// An empty set.
    pub fn new() -> Result<Self> {
        let n = (cpu::nr_cpu_ids().div_ceil(BITS) as usize)
            .max(size_of::<bindings::cpumask>().div_ceil(size_of::<usize>()));
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

    /// Writes the set into `dst`, each word as it is now: the words of the
    /// `nr_cpu_ids` bits, all a `struct cpumask` is sure to have. (With
    /// `CONFIG_CPUMASK_OFFSTACK`, as on Debian's kernels, a `cpumask_var_t`
    /// is allocated with `cpumask_size()` bytes, only those words, not the
    /// `NR_CPUS` bits of the struct's type.)
    ///
    /// # Safety
    ///
    /// `dst` is valid for writes of `nr_cpu_ids` bits in whole words.
    pub unsafe fn copy_to(&self, dst: *mut bindings::cpumask) {
        let n = cpu::nr_cpu_ids().div_ceil(BITS) as usize;
        // At least `n` words (type invariant).
        for (i, w) in self.words.iter().take(n).enumerate() {
            // SAFETY: `i` is below the words of `nr_cpu_ids` bits, which the caller guarantees
            // writable.
            unsafe { dst.cast::<usize>().add(i).write(w.load(Ordering::Relaxed)) };
        }
    }

    /// The set as a `struct cpumask`, for C code that reads it while it
    /// may change (a bitmap printer).
    pub fn as_raw(&self) -> *const bindings::cpumask {
        self.words.as_ptr().cast()
    }
}

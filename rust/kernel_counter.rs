// SPDX-License-Identifier: GPL-2.0

//! A perf event owned by the kernel (`perf_event_create_kernel_counter`),
//! counting system-wide on one CPU, read the way `perf_event_read_local`
//! reads it for BPF programs (from any context, NMI included).

use super::bindings;
use super::cpu::{without_irqs, CpuId};
use super::perf::{Config, PmuOps, Registration};
use core::ptr::NonNull;
use core::sync::atomic::{AtomicI64, Ordering};
use kernel::error::from_err_ptr;
use kernel::ffi::c_int;
use kernel::prelude::*;

/// A kernel counter. Dropping it releases the event.
///
/// # Invariants
///
/// `0` is an event from `perf_event_create_kernel_counter`, owned here.
pub struct KernelCounter(NonNull<bindings::perf_event>);

// SAFETY: The event is owned here; perf's functions on it work from any CPU.
unsafe impl Send for KernelCounter {}
// SAFETY: `read_local` runs the PMU's `read`, which perf allows from any CPU of the package
// and any context.
unsafe impl Sync for KernelCounter {}

impl KernelCounter {
    /// Opens an enabled counter of the PMU `pmu` (one this module
    /// registered: a kernel counter skips the checks perf makes of a
    /// user's event, so no other PMU, whose `config` words may name kernel
    /// addresses, can be reached) with `config` on `cpu` (the PMU's
    /// `event_init` may move it to another CPU). It sleeps: where the
    /// caller may not, `EINVAL`.
    pub fn new<T: PmuOps>(pmu: &Registration<T>, config: Config, cpu: CpuId) -> Result<Self> {
        if !super::cpu::may_sleep() {
            return Err(EINVAL);
        }
        let mut attr = bindings::perf_event_attr {
            type_: pmu.pmu_type(),
            size: core::mem::size_of::<bindings::perf_event_attr>() as u32,
            config: config.config,
            ..Default::default()
        };
        attr.__bindgen_anon_3.config1 = config.config1;
        attr.__bindgen_anon_4.config2 = config.config2;
        // SAFETY: `attr` is a valid attribute block; CPU numbers below `nr_cpu_ids` fit an
        // `int`; no task, no overflow handler.
        let ev = unsafe {
            bindings::perf_event_create_kernel_counter(
                &mut attr,
                cpu.as_u32() as c_int,
                core::ptr::null_mut(),
                None,
                core::ptr::null_mut(),
            )
        };
        let ev = from_err_ptr(ev)?;
        NonNull::new(ev).map(KernelCounter).ok_or(ENOMEM)
    }

    /// The count, read the way `perf_event_read_local` reads an active
    /// per-CPU event (that function is not exported to modules): on the
    /// CPU the event is active on, the PMU's `read` updates the count, then
    /// the count is loaded. Safe in any context, NMI included, with
    /// interrupts off.
    pub fn read_local(&self) -> Result<u64> {
        without_irqs(|irq| {
            let ev = self.0.as_ptr();
            // SAFETY: The event is live (type invariant). With interrupts off it cannot be
            // scheduled in or out on this CPU; `oncpu` tells whether it is active here, and then
            // `read` is the PMU's callback for an active event on this CPU, which is what
            // `perf_event_read_local` calls. `oncpu` is written by perf under the context's
            // lock on other CPUs too: read once, as `READ_ONCE` does. `count` is a
            // `local64_t`, one naturally aligned `long`.
            unsafe {
                let oncpu = core::ptr::read_volatile(&raw const (*ev).oncpu);
                if oncpu == irq.cpu().as_u32() as c_int {
                    if let Some(read) = (*(*ev).pmu).read {
                        read(ev);
                    }
                    let count = AtomicI64::from_ptr(&raw mut (*ev).count.a.a.counter);
                    Ok(count.load(Ordering::Relaxed) as u64)
                } else {
                    Err(EINVAL)
                }
            }
        })
    }
}

impl Drop for KernelCounter {
    fn drop(&mut self) {
        // SAFETY: The event is owned here (type invariant) and released once.
        unsafe { bindings::perf_event_release_kernel(self.0.as_ptr()) };
    }
}

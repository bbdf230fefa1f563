// SPDX-License-Identifier: GPL-2.0

//! CPU identification and topology.
//!
//! C header: [`arch/x86/include/asm/topology.h`](srctree/arch/x86/include/asm/topology.h)

use super::ffi;

/// Identity of the boot CPU, as the driver needs it to pick a platform.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CpuId {
    /// The vendor is Intel.
    pub(crate) intel: bool,
    /// CPUID display family.
    pub(crate) family: u32,
    /// CPUID display model.
    pub(crate) model: u32,
    /// The CPU reports that it runs under a hypervisor.
    pub(crate) hypervisor: bool,
}

/// Returns the identity of the boot CPU.
pub(crate) fn boot_cpu() -> CpuId {
    let mut id = ffi::RuCpuId::default();
    // SAFETY: `id` is a valid, writable `struct ru_cpu_id` for the duration of the call.
    unsafe { ffi::ru_boot_cpu_id(&mut id) };
    CpuId { intel: id.vendor_intel != 0, family: id.family, model: id.model, hypervisor: id.hypervisor != 0 }
}

/// The CPU this code runs on (callers with preemption enabled may be moved
/// right after; the driver calls it where the CPU is fixed).
pub(crate) fn this_cpu() -> u32 {
    // SAFETY: No arguments; reads the current CPU number.
    unsafe { ffi::ru_this_cpu() as u32 }
}

/// The logical package (socket) of `cpu`.
pub(crate) fn package(cpu: u32) -> usize {
    // SAFETY: `topology_logical_package_id` reads per-CPU topology data of any possible CPU; out-of-range CPUs are not passed by the driver.
    let p = unsafe { ffi::ru_cpu_package(cpu) };
    p.max(0) as usize
}

/// The number of logical packages the system may have.
pub(crate) fn max_packages() -> usize {
    // SAFETY: No arguments.
    unsafe { ffi::ru_max_packages() as usize }
}

/// The number of cores per package.
pub(crate) fn cores_per_package() -> u32 {
    // SAFETY: No arguments.
    unsafe { ffi::ru_cores_per_package() }
}

/// Another online CPU of `cpu`'s package, if there is one.
pub(crate) fn other_cpu_in_package(cpu: u32) -> Option<u32> {
    // SAFETY: Reads the topology masks of `cpu`.
    let c = unsafe { ffi::ru_package_other_cpu(cpu) };
    (c >= 0).then_some(c as u32)
}

/// The core ID of `cpu` within its package.
pub(crate) fn core_id(cpu: u32) -> u32 {
    // SAFETY: Reads per-CPU topology data.
    unsafe { ffi::ru_cpu_core_id(cpu).max(0) as u32 }
}

/// The number of possible CPU IDs.
pub(crate) fn nr_cpu_ids() -> u32 {
    // SAFETY: No arguments.
    unsafe { ffi::ru_nr_cpu_ids() }
}

/// Whether `cpu` is present (online or able to come online).
pub(crate) fn present(cpu: u32) -> bool {
    // SAFETY: The helper checks the range before reading the present mask.
    unsafe { ffi::ru_cpu_present(cpu) }
}

/// Busy-waits `us` microseconds.
pub(crate) fn delay_us(us: u32) {
    // SAFETY: `udelay` only spins.
    unsafe { ffi::ru_udelay(us) }
}

/// Whether `cpu` is online.
pub(crate) fn online(cpu: u32) -> bool {
    // SAFETY: The helper checks the range before reading the online mask.
    unsafe { ffi::ru_cpu_online(cpu) }
}

/// Adds `cpu` to (or removes it from) the `cpumask` every PMU shows.
pub(crate) fn set_collector(cpu: u32, on: bool) {
    // SAFETY: The helper updates a module-global cpumask with atomic bit operations.
    unsafe { ffi::ru_collectors_set(cpu, on) }
}

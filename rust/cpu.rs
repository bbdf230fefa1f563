// SPDX-License-Identifier: GPL-2.0

//! CPU identification.
//!
//! C header: [`arch/x86/include/asm/processor.h`](srctree/arch/x86/include/asm/processor.h)

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
    CpuId {
        intel: id.vendor_intel != 0,
        family: id.family,
        model: id.model,
        hypervisor: id.hypervisor != 0,
    }
}

// SPDX-License-Identifier: GPL-2.0

//! The one declaration of the C helper functions (`uncore_helpers.h`).
//!
//! Every function here is implemented in `uncore_helpers.c`. The structure
//! layouts mirror the header and must be kept in step with it.

use kernel::ffi::{c_char, c_uint};

/// Mirror of `struct ru_cpu_id`.
#[repr(C)]
#[derive(Default)]
pub(crate) struct RuCpuId {
    pub(crate) vendor_intel: c_uint,
    pub(crate) family: c_uint,
    pub(crate) model: c_uint,
    pub(crate) hypervisor: c_uint,
}

extern "C" {
    pub(crate) fn ru_param_sim() -> *const c_char;
    pub(crate) fn ru_boot_cpu_id(id: *mut RuCpuId);
}

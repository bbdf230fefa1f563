// SPDX-License-Identifier: GPL-2.0

//! Kernel abstraction layer of rust_uncore.
//!
//! Every `unsafe` block and every call into C lives below this module. The
//! driver in `src/` uses only the safe types and functions exported here.
//! The C side (`uncore_helpers.c`) wraps kernel macros and inline functions;
//! it is declared once, in [`ffi`].

pub(crate) mod cpu;
pub(crate) mod debugfs;
mod ffi;
pub(crate) mod hotplug;
pub(crate) mod mmio;
pub(crate) mod model;
pub(crate) mod msr;
pub(crate) mod nmi;
pub(crate) mod params;
pub(crate) mod pci;
pub(crate) mod perf;
pub(crate) mod sync;
pub(crate) mod timer;

/// Prints a kernel message at debug level (`KERN_DEBUG`), unconditionally:
/// 6.12's `pr_debug!` prints only with Rust debug assertions enabled, but
/// refusals of events must be explained on every kernel.
macro_rules! pr_dbg {
    ($($arg:tt)*) => (
        kernel::print_macro!(kernel::print::format_strings::DEBUG, false, $($arg)*)
    )
}
pub(crate) use pr_dbg;

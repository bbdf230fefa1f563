// SPDX-License-Identifier: GPL-2.0

//! Kernel abstraction layer of rust_uncore, in the style of the kernel's
//! own `rust/kernel/`.
//!
//! Every `unsafe` block of the module lives below this module; the driver
//! (`src/engine`) and the core (`src/hw`) forbid `unsafe` code and use only
//! the safe types here. The C declarations come from [`bindings`], which
//! bindgen generates at build time; `helpers.c` holds the few kernel macros
//! and static inline functions that have no symbol to call.

mod bindings;
mod compat;
pub(crate) mod cpu;
pub(crate) mod cpuhp;
pub(crate) mod cpumask;
pub(crate) mod debugfs;
mod device_tables;
pub(crate) mod fs;
pub(crate) mod hrtimer;
pub(crate) mod kernel_counter;
pub(crate) mod mmio;
pub(crate) mod model;
pub(crate) mod msr;
pub(crate) mod nmi;
pub(crate) mod params;
pub(crate) mod pci;
pub(crate) mod perf;
pub(crate) mod rcu;
pub(crate) mod sync;

pub(crate) use device_tables::PCI_IDS;

/// Prints a kernel message at debug level (`KERN_DEBUG`), unconditionally:
/// 6.12's `pr_debug!` prints only with Rust debug assertions enabled, but
/// refusals of events must be explained on every kernel.
macro_rules! pr_dbg {
    ($($arg:tt)*) => (
        kernel::print_macro!(kernel::print::format_strings::DEBUG, false, $($arg)*)
    )
}
pub(crate) use pr_dbg;

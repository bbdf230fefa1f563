// SPDX-License-Identifier: GPL-2.0

//! The kernel abstraction layer, in the style of the kernel's own
//! `rust/kernel/`: perf PMUs, PCI drivers, CPUs and hotplug, timers, NMIs,
//! MSRs, MMIO, debugfs. It knows nothing of uncore hardware: rust_uncore
//! adds its own glue (`rust/uncore/`), and the test PMU module
//! (`tests/module/`) builds on this layer alone. A module mounts it as its
//! crate's `sys` module (`#[path = ".../rust/mod.rs"] pub mod sys;`).
//!
//! Every `unsafe` block of a module lives here or in its glue; the driver
//! (`src/engine`) and the core (`src/hw`) forbid `unsafe` code and use only
//! the safe types here. The C declarations come from [`bindings`], which
//! bindgen generates at build time; `helpers.c` holds the few kernel macros
//! and static inline functions that have no symbol to call.

mod bindings;
mod compat;
pub mod cpu;
pub mod cpuhp;
pub mod cpumask;
/// Only in a module built with `feature = "debugfs"`: the module users load
/// has no debugfs files.
#[cfg(feature = "debugfs")]
pub mod debugfs;
pub mod fs;
pub mod hrtimer;
pub mod kernel_counter;
pub mod mmio;
pub mod msr;
pub mod nmi;
pub mod pci;
pub mod perf;
pub mod rcu;
pub mod sync;

pub use compat::{cstr_from_ptr, init_zeroed, Zeroable};

/// Prints a kernel message at debug level (`KERN_DEBUG`), unconditionally:
/// 6.12's `pr_debug!` prints only with Rust debug assertions enabled, but
/// refusals of events must be explained on every kernel.
#[doc(hidden)]
#[macro_export]
macro_rules! ru_sys_pr_dbg {
    ($($arg:tt)*) => (
        kernel::print_macro!(kernel::print::format_strings::DEBUG, false, $($arg)*)
    )
}
pub use crate::ru_sys_pr_dbg as pr_dbg;

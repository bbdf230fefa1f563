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
//!
//! The generic perf abstraction is [`series`]`::perf`, the files of the
//! patch series (`rfc/`) mounted unchanged; they name the kernel crate's
//! items as `crate::…`, which the module's crate root provides from
//! `kcrate.rs` (`pub use kcrate::{bindings, cpu, …}`). [`perf`] is this
//! driver's policy on top of it.

pub(crate) mod bindings;
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
/// The files of the patch series "rust: perf: add a PMU abstraction"
/// (`rfc/rust/kernel/`), as the kernel crate's `kernel::perf` would be.
#[path = "../rfc/rust/kernel"]
pub mod series {
    pub mod perf;
}
pub mod sync;

#[cfg(not(ru_opaque_try_ffi_init))]
pub(crate) use compat::opaque_try_ffi_init;
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

/// Prints `args` (one line, without its newline) at debug level through
/// dynamic debug where the kernel has it (`CONFIG_DYNAMIC_DEBUG`): C's
/// `pr_debug()`, off until enabled in `dynamic_debug/control` (one call
/// site for all, in `helpers.c`). Returns whether the kernel has it; where
/// it does not, nothing is printed and the caller logs otherwise.
pub fn dynamic_debug(args: core::fmt::Arguments<'_>) -> bool {
    // SAFETY: `%pA` formats the `fmt::Arguments` the pointer points to,
    // which lives through the call.
    unsafe { bindings::ru_pr_debug(core::ptr::from_ref(&args).cast()) }
}

/// `WARN_ONCE(1, ...)`: the first time this call site runs, prints the
/// message at `KERN_WARNING` and warns with a backtrace (the kernel's
/// `warn_on!`, or `WARN_ON(1)` through a helper where the tree lacks it),
/// which taints the kernel; later runs print nothing. For a driver
/// invariant that broke, never for what a user can cause.
#[doc(hidden)]
#[macro_export]
macro_rules! ru_sys_warn_once {
    ($($arg:tt)*) => {{
        static WARNED: core::sync::atomic::AtomicBool = core::sync::atomic::AtomicBool::new(false);
        $crate::sys::warn_once_at(&WARNED, format_args!($($arg)*))
    }};
}
pub use crate::ru_sys_warn_once as warn_once;

/// [`warn_once!`]'s work: `warned` is its call site's flag.
pub fn warn_once_at(warned: &core::sync::atomic::AtomicBool, args: core::fmt::Arguments<'_>) {
    if !warned.swap(true, core::sync::atomic::Ordering::Relaxed) {
        kernel::pr_warn!("{}", args);
        crate::warn_on!(true);
    }
}

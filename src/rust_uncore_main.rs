// SPDX-License-Identifier: GPL-2.0

//! Intel uncore performance monitoring for perf, in Rust.
//!
//! Crate root of `rust_uncore.ko`: the module list and the `module!`
//! declaration. The hardware-independent core is [`hw`]; the kernel
//! abstraction layer is `rust/`, brought in as `sys`.

pub mod hw;
#[path = "../rust/mod.rs"]
mod sys;

use kernel::prelude::*;

module! {
    type: RustUncore,
    name: "rust_uncore",
    author: "rust_uncore developers",
    description: "Intel uncore PMUs for perf (Rust)",
    license: "GPL",
}

/// The loaded module.
struct RustUncore;

impl kernel::Module for RustUncore {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        let cpu = sys::cpu::boot_cpu();
        pr_info!(
            "cpu family {} model {} intel={} hypervisor={} sim={:?}\n",
            cpu.family,
            cpu.model,
            cpu.intel,
            cpu.hypervisor,
            sys::params::sim()
        );
        Ok(RustUncore)
    }
}

impl Drop for RustUncore {
    fn drop(&mut self) {
        pr_info!("unloaded\n");
    }
}

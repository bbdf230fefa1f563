// SPDX-License-Identifier: GPL-2.0

//! Intel uncore performance monitoring for perf, in Rust.
//!
//! Crate root of `rust_uncore.ko`: the module list and the `module!`
//! declaration. The hardware-independent core is [`hw`]; the kernel
//! abstraction layer is `rust/`, brought in as `sys`, and is the only place
//! with `unsafe` code (`hw` and `engine` forbid it).

mod engine;
pub mod hw;
#[path = "../rust/mod.rs"]
mod sys;

use kernel::prelude::*;

module! {
    type: RustUncore,
    name: "rust_uncore",
    description: "Intel uncore PMUs for perf (Rust)",
    license: "GPL",
}

/// The loaded module.
struct RustUncore {
    _driver: engine::Driver,
}

impl kernel::Module for RustUncore {
    fn init(module: &'static ThisModule) -> Result<Self> {
        Ok(RustUncore {
            _driver: engine::Driver::new(module)?,
        })
    }
}

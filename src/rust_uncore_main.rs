// SPDX-License-Identifier: GPL-2.0

//! Intel uncore performance monitoring for perf, in Rust.
//!
//! Crate root of `rust_uncore.ko`, the module users load: the hardware
//! only. The hardware-independent core is [`hw`]; the kernel abstraction
//! layer is `rust/`, brought in as [`sys`], and this driver's glue to it is
//! `rust/uncore/`, brought in as `glue`: the only places with `unsafe` code
//! (`hw` and `engine` forbid it). `rust_uncore_sim_main.rs` builds the same
//! engine over the simulation instead.

mod engine;
#[path = "../rust/uncore/mod.rs"]
mod glue;
pub mod hw;
#[path = "../rust/mod.rs"]
pub mod sys;

// The kernel crate's paths the perf abstraction's files name (`crate::…`).
#[path = "../rust/kcrate.rs"]
pub mod kcrate;
pub use kcrate::{bindings, cpu, cpumask, device, devres, error, interrupt, prelude, str, types};
pub(crate) use kcrate::{container_of, impl_flags, warn_on};

use kernel::prelude::*;

module! {
    type: RustUncore,
    name: "rust_uncore",
    description: "Intel uncore PMUs for perf (Rust)",
    license: "GPL",
}

/// The loaded module: the engine over the hardware.
type RustUncore = engine::Loaded<engine::Hardware>;

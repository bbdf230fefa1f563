// SPDX-License-Identifier: GPL-2.0

//! A simulated uncore for the tests: the driver of `rust_uncore.ko` over
//! the register model of the platform its `sim=` parameter names, driven
//! through its debugfs files (`Documentation/simulation.rst`).
//!
//! Crate root of `rust_uncore_sim.ko`: the same modules as
//! `rust_uncore_main.rs`, built with `feature = "sim"` (Kbuild), which
//! brings in the register model (`hw::model`), the simulation backend
//! (`engine::sim`), the `sim=` parameter and debugfs, and leaves out the
//! hardware backend and the device tables (this module never autoloads).

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
    type: RustUncoreSim,
    name: "rust_uncore_sim",
    description: "Intel uncore PMUs for perf (Rust), over a simulated uncore",
    license: "GPL",
}

/// The loaded module: the engine over the simulation.
type RustUncoreSim = engine::Loaded<engine::Sim>;

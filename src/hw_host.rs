// SPDX-License-Identifier: GPL-2.0

//! Host build of the hardware-independent core, for `cargo test` and the
//! benchmarks. The kernel module compiles the same files as its `hw` module.

#![no_std]

#[cfg(test)]
extern crate std;

#[path = "hw/mod.rs"]
pub mod hw;

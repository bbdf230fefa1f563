// SPDX-License-Identifier: GPL-2.0

//! The hardware-independent core of the driver.
//!
//! Pure Rust with no kernel dependency and no allocation: platform
//! descriptions, event validation and encoding, counter scheduling, shared
//! register arbitration, counter arithmetic, register programming
//! sequences, the overflow-hierarchy walk, PCI decoding, and a register
//! model of every platform (only with `feature = "sim"`: the simulation
//! module and the host crate). The same source is a module of the kernel
//! crates and the root of a host crate tested with `cargo test`.

#![forbid(unsafe_code)]
// The lints the kernel's newer trees add to `clippy::all` for Rust code
// (their top-level Makefile), so that the host lint sees what a module
// build with CLIPPY=1 against such a tree reports.
#![warn(
    clippy::as_ptr_cast_mut,
    clippy::as_underscore,
    clippy::cast_lossless,
    clippy::ptr_as_ptr,
    clippy::ptr_cast_constness,
    clippy::ref_as_ptr
)]

pub mod bits;
pub mod box_control;
pub mod catalog;
pub mod control;
pub mod counter;
pub mod desc;
pub mod encode;
pub mod global;
pub mod live;
/// The register model, only in the simulation (`feature = "sim"`; the
/// host crate's default).
#[cfg(feature = "sim")]
pub mod model;
pub mod overflow;
pub mod pci;
pub mod platforms;
pub mod pmi_claim;
pub mod pmi_probe;
pub mod poll;
pub mod program;
pub mod ratelimit;
pub mod sched;
pub mod shared;
pub mod special;
pub mod terms;

#[cfg(test)]
mod doc_tests;
#[cfg(test)]
mod robust_tests;

// SPDX-License-Identifier: GPL-2.0

//! Kernel abstraction layer of rust_uncore.
//!
//! Every `unsafe` block and every call into C lives below this module. The
//! driver in `src/` uses only the safe types and functions exported here.
//! The C side (`uncore_helpers.c`) wraps kernel macros and inline functions;
//! it is declared once, in [`ffi`].

pub(crate) mod cpu;
mod ffi;
pub(crate) mod params;

// SPDX-License-Identifier: GPL-2.0

//! Benchmarks of the core's hot-path pieces (placeholder until filled).

fn main() {}

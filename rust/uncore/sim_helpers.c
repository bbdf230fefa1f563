// SPDX-License-Identifier: GPL-2.0
/*
 * rust_uncore_sim.ko's copy of the abstraction layer's helpers: Kbuild
 * links an object into one module only.
 */
#include "../helpers.c"

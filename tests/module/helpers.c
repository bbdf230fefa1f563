// SPDX-License-Identifier: GPL-2.0
/*
 * The test PMU module's copy of the abstraction layer's helpers (Kbuild
 * links an object into one module only), with the debugfs ones.
 */
#define RU_HELPERS_DEBUGFS
#include "../../rust/helpers.c"

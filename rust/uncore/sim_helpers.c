// SPDX-License-Identifier: GPL-2.0
// rust_uncore_sim.ko's copies of the helpers and the module parameters (Kbuild links
// an object into one module only), with the debugfs helpers and `sim=`.
#define RU_HELPERS_DEBUGFS
#define RU_PARAM_SIM
#include "../helpers.c"
#include "params.c"

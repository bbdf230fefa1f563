// SPDX-License-Identifier: GPL-2.0
/*
 * rust_uncore_sim.ko's copy of the module parameters (Kbuild links an
 * object into one module only), with `sim=`.
 */
#define RU_PARAM_SIM
#include "params.c"

// SPDX-License-Identifier: GPL-2.0
/*
 * C side of the rust_uncore kernel abstraction layer: macros and inline
 * functions of the kernel wrapped as plain functions for Rust.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <asm/processor.h>
#include <asm/cpufeature.h>

#include "uncore_helpers.h"

static char *sim;
module_param(sim, charp, 0444);
MODULE_PARM_DESC(sim, "Drive a simulated platform instead of the hardware: <platform>[:<sockets>], platform one of snbep, ivbep, nhmex, wsmex, skl, xeon7100, xeon7400");

const char *ru_param_sim(void)
{
	return sim;
}

void ru_boot_cpu_id(struct ru_cpu_id *id)
{
	id->vendor_intel = boot_cpu_data.x86_vendor == X86_VENDOR_INTEL;
	id->family = boot_cpu_data.x86;
	id->model = boot_cpu_data.x86_model;
	id->hypervisor = boot_cpu_has(X86_FEATURE_HYPERVISOR);
}

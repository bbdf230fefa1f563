/* SPDX-License-Identifier: GPL-2.0 */
/*
 * C side of the rust_uncore kernel abstraction layer.
 *
 * These functions wrap kernel macros, inline functions and structures that
 * Rust on 6.12 cannot reach through `kernel::bindings`. They are declared
 * on the Rust side in exactly one place, rust/ffi.rs; keep the two in step.
 * Only scalar and pointer types cross the boundary.
 */
#ifndef RUST_UNCORE_HELPERS_H
#define RUST_UNCORE_HELPERS_H

#include <linux/types.h>

/* Module parameters. */
const char *ru_param_sim(void);

/* CPU identification of the boot CPU. */
struct ru_cpu_id {
	u32 vendor_intel;
	u32 family;
	u32 model;
	u32 hypervisor;
};
void ru_boot_cpu_id(struct ru_cpu_id *id);

#endif /* RUST_UNCORE_HELPERS_H */

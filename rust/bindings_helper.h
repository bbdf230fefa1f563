/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The headers bindgen turns into rust/bindings_generated.rs (Kbuild; the
 * allowlist: rust/bindgen_allowlist). Constants it cannot evaluate are
 * RUST_CONST_HELPER_<NAME>, renamed <NAME> as in the kernel's bindings.
 */

#include <linux/bitmap.h>
#include <linux/cpuhotplug.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/mod_devicetable.h>
#include <linux/namei.h>
#include <linux/pci.h>
#include <linux/perf_event.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/sysfs.h>
#include <linux/timekeeping.h>
#include <asm/cpu_device_id.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/topology.h>

const unsigned int RUST_CONST_HELPER_PERF_EV_CAP_READ_ACTIVE_PKG = PERF_EV_CAP_READ_ACTIVE_PKG;
const unsigned int RUST_CONST_HELPER_LOOKUP_FOLLOW = LOOKUP_FOLLOW;
/* perf_event.h's PMU scopes are an anonymous enum. */
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_NONE = PERF_PMU_SCOPE_NONE;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_CORE = PERF_PMU_SCOPE_CORE;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_DIE = PERF_PMU_SCOPE_DIE;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_CLUSTER = PERF_PMU_SCOPE_CLUSTER;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_PKG = PERF_PMU_SCOPE_PKG;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_SYS_WIDE = PERF_PMU_SCOPE_SYS_WIDE;

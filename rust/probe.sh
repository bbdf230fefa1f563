#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Tells the module's Rust code which kernel interfaces the tree it is built
# against has, the way out-of-tree C modules run conftests: each probe looks
# for one interface in the tree's own sources and, when it is there, prints
# `--cfg <name>`. Kbuild passes the flags to rustc; rust/compat.rs is the one
# place that reads them (Documentation/design.rst, "Kernel trees"). No probe
# compares version numbers: distributions backport interfaces.
#
# Usage: rust/probe.sh SRCTREE [--list]
#   SRCTREE  the kernel source tree (Kbuild's $(srctree))
#   --list   print each probe and its answer, one a line, instead
set -u
tree=${1:?usage: probe.sh SRCTREE [--list]}
list=${2:-}

# probe NAME FILE_OR_DIR REGEX: sets NAME when REGEX (grep -E) matches a
# line of FILE_OR_DIR (every file under it, for a directory).
probe() {
	if grep -rqsE -- "$3" "$tree/$2"; then
		if [ -n "$list" ]; then echo "$1 yes"; else printf ' --cfg %s' "$1"; fi
	elif [ -n "$list" ]; then
		echo "$1 no"
	fi
}

# pin-init is its own crate (`pin_init::`), no longer `kernel::init`:
# modules are built with `--extern pin_init`.
probe ru_pin_init_crate scripts/Makefile.build '[-]-extern pin_init( |$)'
# The kernel's bindgen parameters derive `MaybeZeroable` on every struct.
probe ru_bindgen_maybe_zeroable rust/bindgen_parameters 'MaybeZeroable'
# `perf_pmu_unregister()` returns an `int` and revokes the PMU's events.
probe ru_pmu_unregister_revokes include/linux/perf_event.h '^extern int perf_pmu_unregister\('
# `hrtimer_setup()` replaces `hrtimer_init()` plus setting `.function`.
probe ru_hrtimer_setup include/linux/hrtimer.h '^extern void hrtimer_setup\('
# `Opaque::cast_into` replaces `Opaque::raw_get`.
probe ru_opaque_cast_into rust/kernel 'fn cast_into\(this: \*const Self\)'
# `Opaque::try_ffi_init` exists.
probe ru_opaque_try_ffi_init rust/kernel 'pub fn try_ffi_init<E>\('
# The lock backend trait requires `try_lock` and `assert_is_held`.
probe ru_lock_backend_try_lock rust/kernel/sync/lock.rs 'unsafe fn try_lock\(ptr: \*mut Self::State\)'
# `smp_call_function_single()`'s `wait` is a `bool`, not an `int`.
probe ru_smp_call_wait_bool include/linux/smp.h '^int smp_call_function_single\(.*bool wait\);'
# `kernel::str::CStr` is `core::ffi::CStr`, its kernel methods in a trait.
probe ru_cstr_ext rust/kernel/str.rs 'pub trait CStrExt'
# `uaccess::UserPtr` is a newtype, not a `usize`.
probe ru_user_ptr_newtype rust/kernel/uaccess.rs 'pub struct UserPtr'
# sysfs callbacks and attribute arrays sit in anonymous unions (or
# structs, under CFI): `struct attribute_group` in sysfs.h,
# `struct device_attribute` in device.h.
probe ru_attribute_group_alternative include/linux/sysfs.h '^[[:space:]]*__SYSFS_FUNCTION_ALTERNATIVE\('
probe ru_device_attribute_alternative include/linux/device.h '^[[:space:]]*__SYSFS_FUNCTION_ALTERNATIVE\('
# The kernel crate's items the perf abstraction's files use (rust/kcrate.rs
# stands in for each one a tree lacks): `cpu::CpuId`, `cpumask::Cpumask`,
# `interrupt::LocalInterruptDisabled`, `impl_flags!`, `warn_on!`.
probe ru_kernel_cpu_id rust/kernel/cpu.rs '^pub struct CpuId\('
probe ru_kernel_cpumask rust/kernel/cpumask.rs '^pub struct Cpumask\('
probe ru_kernel_local_irq rust/kernel/interrupt.rs '^pub struct LocalInterruptDisabled\('
probe ru_kernel_impl_flags rust/kernel/impl_flags.rs '^macro_rules! impl_flags \{'
probe ru_kernel_warn_on rust/kernel/bug.rs '^macro_rules! warn_on \{'
# `ForeignOwnable` takes and gives `*mut` pointers (an `unsafe trait`).
probe ru_kernel_foreign_mut rust/kernel/types.rs '^pub unsafe trait ForeignOwnable'

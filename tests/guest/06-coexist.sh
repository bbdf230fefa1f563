#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Coexistence with the kernel's own C uncore driver (on the stock kernel,
# Debian's own intel-uncore.ko): while intel_uncore
# owns the PMU names, rust_uncore refuses to load (EBUSY) with a clear
# message and registers nothing; once it is gone, rust_uncore loads.
#
# guest: noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

check "the C driver loads" insmod /lib/modules/intel-uncore.ko
before=$(pmus)
check "it registers uncore PMUs" [ -n "$before" ]
msg=$(insmod /lib/modules/rust_uncore.ko 2>&1)
case "$msg" in *"busy"*) ok "insmod fails with EBUSY" ;; *) not_ok "insmod fails with EBUSY"; echo "# $msg" ;; esac
check "rust_uncore is not loaded" sh -c "! grep -q '^rust_uncore ' /proc/modules"
check_eq "the PMUs are the C driver's, unchanged" "$(pmus)" "$before"
check "the refusal names the PMU in the kernel log" sh -c "dmesg | grep -q 'rust_uncore: PMU uncore_.* exists already'"
check "rmmod intel_uncore" rmmod intel_uncore
check "then rust_uncore loads" load
check "and unloads" unload
done_testing

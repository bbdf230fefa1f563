#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Both modules at once, each with its NMI handler: rust_uncore on the
# hardware path of Westmere-EX (overflow PMIs) and rust_uncore_sim on the
# Xeon 7100 model (its NMI self-test), whose PMU names do not collide. The
# NMI core unregisters a handler by name, the first of that name on its
# list: each module's handler has the module's own name, so unloading the
# one loaded last removes its own handler, not the other's. (Before, both
# were "rust_uncore": rmmod rust_uncore_sim removed rust_uncore's handler
# and left its own on the list, in freed module memory; the next NMI
# oopsed.)
#
# guest: noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

# nmi_round: a backtrace NMI to every other CPU, waited for (at most
# 10 s: each CPU prints its backtrace).
nmi_round() {
	_n=$(dmesg | grep -c 'NMI backtrace for cpu')
	echo l >/proc/sysrq-trigger
	wait_until 200 sh -c "[ \$(dmesg | grep -c 'NMI backtrace for cpu') -ge $((_n + 3)) ]"
}
oopses() { dmesg | grep -cE 'BUG:|Oops|general protection|unable to handle'; }

check "rust_uncore loads (hardware path, Westmere-EX)" insmod /lib/modules/rust_uncore.ko
check "rust_uncore_sim loads beside it (sim=xeon7100)" insmod /lib/modules/rust_uncore_sim.ko sim=xeon7100
check "NMIs with both handlers registered" nmi_round
check "rmmod rust_uncore_sim (the one loaded last)" rmmod rust_uncore_sim
check "NMIs after: the gone module's handler is not called" nmi_round
check_eq "... and nothing oopsed" "$(oopses)" 0
check "rmmod rust_uncore" rmmod rust_uncore
check "NMIs with neither" nmi_round
check_eq "... and nothing oopsed" "$(oopses)" 0
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Overflow PMIs where the U-box does not deliver them as the driver
# assumes (simulated, the `pmi` debugfs file): a CPU's delivery masked
# after each PMI until the driver re-arms it (the local APIC's LVTPC), the
# U-box numbering cores otherwise than the driver (PMIs reaching another
# core, or none), a global control write that fails during a hand-over,
# and `pmi=0`. In each the counts stay exact; a package whose PMIs reach
# the wrong core falls back to polling after 16 such NMIs, with one line;
# a failed aim turns the package's PMIs off, with one line.
#
# guest: sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

stat() { awk -v k="$1" '$1 == k { print $2 }' $DBG/stats; }
big=$PMI_BIG

# wraps N SOCKET: pmi_wraps (lib.sh).
wraps() { pmi_wraps "$1" "$2"; }

# reload [ARGS...]: the simulation loaded afresh (every package's PMIs on).
reload() {
	unload && load sim=wsmex:2 "$@"
}

lines() { dmesg | grep -c "$1"; }

check_eq "pmi= is a parameter, on by default" \
	"$(cat /sys/module/rust_uncore_sim/parameters/pmi 2>&1)" "Y"

# 1. Delivery masked after each PMI until re-armed: every PMI still comes.
echo "lvt 1" >$DBG/pmi
h0=$(stat pmis_handled)
r0=$(stat rearms)
got=$(wraps 20 0)
check_eq "masked delivery: the total is exact" "$got" "$((20 * big))"
check_eq "... every one of 19 wraps handled through its PMI" "$(($(stat pmis_handled) - h0))" 19
check_eq "... none held back by a masked delivery" "$(stat pmis_masked)" 0
check_eq "... the driver re-armed the delivery after each PMI" "$(($(stat rearms) - r0))" 19
echo "lvt 0" >$DBG/pmi

# 2. The U-box's core bits permuted: socket 0's PMIs reach CPU 1, not the
# collector CPU 0.
echo "route 1,0" >$DBG/pmi
n0=$(stat nmi_not_ours)
got=$(wraps 40 0)
check_eq "PMIs on the wrong core: the total is exact" "$got" "$((40 * big))"
check_eq "... the package falls back to polling, said once" \
	"$(lines 'package 0: overflow PMIs aimed at core 0 reached CPU 1 (16 times).*polling only')" 1
check_eq "... after 16 NMIs on the wrong core, none since" "$(($(stat nmi_not_ours) - n0))" 16
echo "route" >$DBG/pmi
h0=$(stat pmis_handled)
got=$(wraps 10 1)
check_eq "... the other package still takes its PMIs" "$got/$(($(stat pmis_handled) - h0))" "$((10 * big))/9"
h0=$(stat pmis_handled)
got=$(wraps 10 0)
check_eq "... and the fallen-back one stays on polling" "$got/$(($(stat pmis_handled) - h0))" "$((10 * big))/0"

# 3. A sparse numbering (cores 0 and 8): the collector on rank 1 has no bit
# the U-box delivers to. No NMI, exact counts.
reload
echo "route 0,8" >$DBG/pmi
echo 0 >/sys/devices/system/cpu/cpu2/online
n0=$(stat nmi_not_ours)
h0=$(stat pmis_handled)
got=$(wraps 10 1)
check_eq "PMIs to no core: the total is exact, by polling" "$got" "$((10 * big))"
check_eq "... no NMI taken or left" "$(($(stat nmi_not_ours) - n0))/$(($(stat pmis_handled) - h0))" "0/0"
echo 1 >/sys/devices/system/cpu/cpu2/online
echo "route" >$DBG/pmi

# 4. The hand-over's write of pmi_core_sel fails: PMIs off for the package,
# one line; the counts stay exact.
reload
echo "fail_global 1" >$DBG/pmi
echo 0 >/sys/devices/system/cpu/cpu2/online
check_eq "a failed global control write" "$(stat global_writes_failed)" 1
check_eq "... turns the package's PMIs off, said once" \
	"$(lines 'package 1: cannot aim overflow PMIs at CPU 3 .*polling only')" 1
h0=$(stat pmis_handled)
got=$(wraps 10 1)
check_eq "... the total is exact, by polling" "$got/$(($(stat pmis_handled) - h0))" "$((10 * big))/0"
echo 1 >/sys/devices/system/cpu/cpu2/online

# 5. pmi=0: no PMI at all, exact counts.
reload pmi=0
check_eq "pmi=0 is shown" "$(cat /sys/module/rust_uncore_sim/parameters/pmi)" "N"
got=$(wraps 10 0)
check_eq "pmi=0: the total is exact, by polling" "$got" "$((10 * big))"
check_eq "... no NMI taken as a PMI" "$(stat pmi_nmis)/$(stat pmis_handled)" "0/0"
reload

done_testing

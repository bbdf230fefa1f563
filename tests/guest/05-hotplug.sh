#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug: the collecting CPU of socket 1 goes offline during a count;
# the collector moves to the socket's other CPU and the events move with
# it, with no count lost. Then the socket's last CPU goes offline (its
# boxes are parked) and comes back.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=rt sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

cpu_of_socket1=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ "$(cat "$c/topology/physical_package_id")" = 1 ] && echo "${c##*cpu}"
done | sort -n | tr '\n' ' ')
set -- $cpu_of_socket1
first=$1
second=$2
check_eq "socket 1's collector is CPU $first" "$(expand_list "$(cat $DEV/uncore_cbox_0/cpumask)")" "0,$first"

ev="uncore_cbox_0/event=0x14,umask=0x1/"
inj="pmu=uncore_cbox_0 socket=1 event=0x14 umask=0x1"
got=$(count "$ev" sh -c "
	echo '$inj count=1000' > $DBG/inject
	echo 0 > /sys/devices/system/cpu/cpu$first/online
	cat $DEV/uncore_cbox_0/cpumask > /tmp/mask
	echo '$inj count=500' > $DBG/inject
	echo 1 > /sys/devices/system/cpu/cpu$first/online
	echo '$inj count=250' > $DBG/inject" | tr '\n' ' ' | sed 's/ $//')
check_eq "the collector moved to CPU $second" "$(expand_list "$(cat /tmp/mask)")" "0,$second"
check_eq "no count lost across the move" "$got" "S0 0 S1 1750"
check_eq "the collector stays on CPU $second" "$(expand_list "$(cat $DEV/uncore_cbox_0/cpumask)")" "0,$second"

# The whole socket goes offline, then comes back.
echo 0 >/sys/devices/system/cpu/cpu$first/online
echo 0 >/sys/devices/system/cpu/cpu$second/online
check_eq "an offline socket has no collector" "$(cat $DEV/uncore_cbox_0/cpumask)" "0"
check_eq "its events are refused" "$(/tests/perf_open uncore_cbox_0 0x0114 --cpu 0 >/dev/null; /tests/perf_open uncore_cbox_0 0x0114 --cpu $second 2>&1 | head -1)" "EINVAL 0"
echo 1 >/sys/devices/system/cpu/cpu$second/online
echo 1 >/sys/devices/system/cpu/cpu$first/online
check_eq "back online, the socket collects again" "$(count "$ev" sh -c "echo '$inj count=42' > $DBG/inject")" "S0 0
S1 42"
check "rmmod" unload
done_testing

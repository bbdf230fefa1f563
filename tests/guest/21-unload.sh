#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The hardware path leaves the hardware as it found it, seen through the
# msr:write_msr tracepoint (under QEMU the writes go nowhere but are
# traced): rmmod freezes every box and clears the global enables on every
# package (Westmere-EX: U_MSR_PMON_GLOBAL_CTL with pmi_core_sel; Skylake:
# MSR_UNC_PERF_GLOBAL_CTRL.EN), and once a package is parked (its last CPU
# offline) the del of its events does not enable it again.
#
# guest: noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

T=/sys/kernel/tracing
p=$(platform)
cpus_of() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$c/topology/physical_package_id")" = "$1" ] && echo "${c##*cpu}"
	done | sort -n | tr '\n' ' '
}
# writes MSR: "CPU:VALUE" of every traced write to MSR (hex, no 0x).
writes() {
	grep "write_msr: $1," $T/trace | sed 's/^.*\[0*\([0-9][0-9]*\)\].*value \([0-9a-f]*\)$/\1:\2/' | tr '\n' ' ' | sed 's/ $//'
}
trace_start() {
	echo >$T/trace
	echo 1 >$T/events/msr/write_msr/enable
}
trace_stop() {
	echo 0 >$T/events/msr/write_msr/enable
}

check "insmod ($p, hardware path)" load
n=$(sockets)

# 1. A package parked by its last CPU going offline, with an event open on
#    it: the event's del runs after the park and must not enable anything.
if [ "$n" -gt 1 ]; then
	set -- $(cpus_of 1)
	case "$p" in
	wsmex) ev="uncore_ubox/event=0x0/" msr=c00 ;;  # the U-box enable is in the global control
	snbep) ev="uncore_cbox_0/event=0x0/" msr=d04 ;; # C-box 0's box control
	esac
	perf stat -a -e "$ev" -- sleep 6 >/dev/null 2>&1 &
	# Its event open (at most 10 s), then counting: perf enables it
	# and then lets its command start (the command's own line in ps,
	# "0:00 sleep 6", not perf's "... -- sleep 6").
	wait_until 200 has_events $!
	wait_until 200 sh -c "ps | grep -qE '[0-9] sleep 6\$'"
	trace_start
	for c in "$@"; do echo 0 >/sys/devices/system/cpu/cpu$c/online; done
	trace_stop
	w=$(writes $msr | tr ' ' '\n' | awk -F: -v a="$1" -v b="$2" '$1 == a || $1 == b')
	echo "# $msr writes on socket 1 as it parks: $(echo $w)"
	case "$p" in
	wsmex)
		check_eq "the park clears the global control, and nothing sets it again" \
			"$(echo "$w" | tail -1 | cut -d: -f2)" "0" ;;
	snbep)
		check_eq "the park freezes the box (frz_en|frz), and nothing unfreezes it" \
			"$(echo "$w" | tail -1 | cut -d: -f2)" "10100" ;;
	esac
	for c in "$@"; do echo 1 >/sys/devices/system/cpu/cpu$c/online; done
	wait
fi

# 2. rmmod: every package parked.
trace_start
check "rmmod" unload
trace_stop
case "$p" in
wsmex)
	check_eq "U_MSR_PMON_GLOBAL_CTL (0xc00) cleared on both sockets (en_all, pmi_core_sel)" \
		"$(writes c00 | tr ' ' '\n' | cut -d: -f2 | sort | uniq -c | awk '{ print $1 "x" $2 }')" "2x0"
	check_eq "C-box 0's counter enables (0xd00) cleared on both sockets" \
		"$(writes d00 | tr ' ' '\n' | cut -d: -f2 | sort | uniq -c | awk '{ print $1 "x" $2 }')" "2x0"
	check_eq "W-box's counter enables (0xc80) cleared on both sockets" \
		"$(writes c80 | tr ' ' '\n' | cut -d: -f2 | sort | uniq -c | awk '{ print $1 "x" $2 }')" "2x0"
	;;
snbep)
	check_eq "C-box 1 frozen (0xd24 <- frz_en|frz) on both sockets" \
		"$(writes d24 | tr ' ' '\n' | cut -d: -f2 | sort | uniq -c | awk '{ print $1 "x" $2 }')" "2x10100"
	check_eq "the PCU frozen (0xc24 <- frz_en|frz) on both sockets" \
		"$(writes c24 | tr ' ' '\n' | cut -d: -f2 | sort | uniq -c | awk '{ print $1 "x" $2 }')" "2x10100"
	;;
skl)
	check_eq "MSR_UNC_PERF_GLOBAL_CTRL (0xe01) cleared" "$(writes e01 | cut -d: -f2)" "0"
	;;
esac
done_testing

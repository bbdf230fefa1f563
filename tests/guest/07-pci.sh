#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The PCI and MMIO boxes of the simulated platforms: exact counts with the
# scale/unit aliases, socket isolation, QPI packet match/mask through the
# helper devices (and its absence on IVB-EP's third port), the Skylake IMC's
# 32-bit free-running counters across a wrap, a box's removal while its
# events are open. (The module's aliases are checked on the host:
# tests/host/modinfo.sh.)
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=rt sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

p=$(platform)
case "$p" in
snbep | ivbep)
	# 3 x 2^16 reads of 64 bytes = 12 MiB, on socket 1 only.
	out=$(perf stat -a --per-socket -x, -e uncore_imc_1/cas_count_read/ -- sh -c \
		"echo 'pmu=uncore_imc_1 socket=1 event=0x4 umask=0x1 count=196608' > $DBG/inject" 2>&1 >/dev/null |
		awk -F, '{ print $1, $3, $4 }' | tr '\n' ' ' | sed 's/ $//')
	check_eq "cas_count_read is reported in MiB, on the socket that saw it" "$out" "S0 0.00 MiB S1 12.00 MiB"
	out=$(count "uncore_qpi_1/event=0x38,match0=0x1c00,mask0=0x1f80/" sh -c \
		"echo 'pmu=uncore_qpi_1 event=0x38 packet=0x1c40 count=3' > $DBG/inject;
		 echo 'pmu=uncore_qpi_1 event=0x38 packet=0x1d00 count=5' > $DBG/inject" | tr '\n' ' ' | sed 's/ $//')
	check_eq "QPI match/mask counts only matching packets" "$out" "S0 3 S1 0"
	check_eq "QPI match/mask registers in the helper device" \
		"$(grep 'qpi_filter_1' $DBG/regs | head -1 | cut -d' ' -f3-4)" "qpi_filter_1 box_ctl"
	if [ "$p" = ivbep ]; then
		log_refusals
		check_eq "QPI port 2 has no match/mask device: EINVAL" \
			"$(/tests/perf_open uncore_qpi_2 0x38:0x1c00:0x1f80 | head -1)" "EINVAL 0"
		check_eq "QPI port 2 counts events without match/mask" "$(/tests/perf_open uncore_qpi_2 0x14)" "ok"
		check "and says why in the kernel log" sh -c "dmesg | grep -q 'uncore_qpi_2: event refused: QPI port 2 has no packet match/mask device'"
		check_eq "the third R3QPI link" "$(total uncore_r3qpi_2/event=0x14,umask=0x1/ sh -c \
			"echo 'pmu=uncore_r3qpi_2 socket=1 event=0x14 umask=0x1 count=9' > $DBG/inject")" "9"
		check_eq "the IRP box with its unaligned registers" "$(total uncore_irp/event=0x14,umask=0x1/ sh -c \
			"echo 'pmu=uncore_irp event=0x14 umask=0x1 count=11' > $DBG/inject")" "11"
	fi
	# Removal while an event is open: it stops with its last count.
	perf stat -a --per-socket -x, -e uncore_imc_2/event=0x4,umask=0x3/ -o /tmp/rm.out -- sh -c \
		"echo 'pmu=uncore_imc_2 event=0x4 umask=0x1 count=100' > $DBG/inject;
		 echo 'pmu=uncore_imc_2 socket=0' > $DBG/unplug;
		 echo 'pmu=uncore_imc_2 event=0x4 umask=0x1 count=50' > $DBG/inject" >/dev/null 2>&1
	check_eq "removed while counting: the counts up to the removal" "$(awk -F, '/^S0/ { print $3 }' /tmp/rm.out)" "100"
	# The function's full PCI address (socket 0's simulated uncore bus is
	# 0x7f of two) and ID, then its box by the PMU's name: IMC channel 2 is
	# 16.4 (0x3cb4) on SNB-EP, 16.0 (0x0eb0) on IVB-EP.
	fn='10.4 \[8086:3cb4\]'
	[ "$p" = ivbep ] && fn='10.0 \[8086:0eb0\]'
	check "the kernel log names the device and the box's PMU" sh -c \
		"dmesg | grep -q '0000:7f:$fn: uncore_imc_2 of package 0 removed; its events stopped with their last counts\$'"
	check_eq "new events on the removed box are refused" "$(/tests/perf_open uncore_imc_2 0x0304 | head -1)" "EINVAL 0"
	# (perf stat -a would refuse the whole event: socket 0 has no box now.)
	cpu1=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$c/topology/physical_package_id")" = 1 ] && echo "${c##*cpu}"; done | sort -n | head -1)
	check_eq "the box of the other socket still counts" "$(perf stat -C "$cpu1" -x, -e uncore_imc_2/event=0x4,umask=0x3/ -- sh -c \
		"echo 'pmu=uncore_imc_2 socket=1 event=0x4 umask=0x1 count=7' > $DBG/inject" 2>&1 >/dev/null | cut -d, -f1)" "7"
	;;
skl)
	out=$(perf stat -a -x, -e uncore_imc/data_reads/,uncore_imc/data_writes/,uncore_imc/gt_requests/ -- sh -c \
		"echo 'pmu=uncore_imc event=1 count=32768' > $DBG/inject;
		 echo 'pmu=uncore_imc event=2 count=16384' > $DBG/inject;
		 echo 'pmu=uncore_imc event=3 count=5' > $DBG/inject" 2>&1 >/dev/null |
		awk -F, '{ print $1, $2 }' | tr '\n' ' ' | sed 's/ $//')
	check_eq "IMC data in MiB, requests as counts" "$out" "2.00 MiB 1.00 MiB 5 "
	# Across the 32-bit wrap: 3 x 2^31 lines in three steps (more than 2^32
	# in all), each below the wrap.
	out=$(total uncore_imc/event=0x1/ sh -c "
		echo 'pmu=uncore_imc event=1 count=2147483648' > $DBG/inject; cat $DEV/../../../kernel/debug/rust_uncore/regs >/dev/null
		perf stat -a -e uncore_imc/event=0x1/ -- true >/dev/null 2>&1
		echo 'pmu=uncore_imc event=1 count=2147483648' > $DBG/inject
		perf stat -a -e uncore_imc/event=0x1/ -- true >/dev/null 2>&1
		echo 'pmu=uncore_imc event=1 count=2147483648' > $DBG/inject")
	check_eq "32-bit free-running counters are exact across wraps (read between steps)" "$out" "6442450944"
	check_eq "free-running events need no counter: many at once" \
		"$(/tests/perf_open uncore_imc 1 -- 1 1 2 2 3 4 5)" "ok"
	check_eq "config outside 1..5: EINVAL" "$(/tests/perf_open uncore_imc 6 | head -1)" "EINVAL 0"
	;;
esac
check "rmmod" unload
done_testing

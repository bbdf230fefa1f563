#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The hardware path's register programming, seen through the msr:write_msr
# tracepoint (under QEMU the writes go nowhere, but they are traced): box
# initialisation, the event's control value with its enable bit, filter
# registers, freeze and unfreeze, and on Westmere-EX the global control
# with pmi_core_sel. Then the C driver's stale filter fields
# (Documentation/platforms.rst, "The C driver's stale filter fields"):
# events in turn, each with its own filter fields, through both drivers;
# the C driver writes the earlier events' fields again with the last
# one's, this driver only the last one's.
#
# guest: kernel=nodebug noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

T=/sys/kernel/tracing
trace_on() {
	echo >$T/trace
	echo 1 >$T/events/msr/write_msr/enable
}
trace_off() {
	echo 0 >$T/events/msr/write_msr/enable
}
# wrote MSR VALUE: whether the trace has a write of VALUE (hex) to MSR (hex).
wrote() {
	grep -q "write_msr: $1, value $2\$" $T/trace
}

p=$(platform)
trace_on
check "insmod ($p, hardware path)" load
case "$p" in
snbep)
	# 327043 Table 2-9: C-box 1 box control 0xd24 <- rst_ctrl|rst_ctrs|frz_en.
	check "C-box 1 initialised with frz_en and the reset bits" wrote d24 10003
	check "the U-box (no box control) is left alone" sh -c "! grep -q 'write_msr: c0[0-9a-f],' $T/trace"
	echo >$T/trace
	perf stat -a -e 'uncore_cbox_1/event=0x34,umask=0x3,filter_state=0x1f/' -- true >/dev/null 2>&1
	check "the filter register 0xd34 is written before the control" sh -c "grep -n 'write_msr: d34, value 7c0000\$' $T/trace | head -1 | cut -d: -f1 > /tmp/a; grep -n 'write_msr: d30, value 400334\$' $T/trace | head -1 | cut -d: -f1 > /tmp/b; [ -s /tmp/a ] && [ -s /tmp/b ] && [ \$(cat /tmp/a) -lt \$(cat /tmp/b) ]"
	check "the control 0xd30 gets the event with en (bit 22)" wrote d30 400334
	check "the box is unfrozen keeping frz_en (0x10000), never read-modify-written" wrote d24 10000
	check "and frozen with frz_en|frz (0x10100)" wrote d24 10100
	;;
wsmex)
	check "the global control gets en_all and pmi_core_sel (core 0)" wrote c00 10000002
	echo >$T/trace
	perf stat -a -e 'uncore_cbox_0/event=0x14,umask=0x1/' -- true >/dev/null 2>&1
	check "the C-box 0 control gets en and pmi_en" wrote d10 500114
	check "the C-box 0 global control enables counter 0" wrote d00 1
	;;
esac
trace_off
check "rmmod" unload

# last_write MSR: the value of the last write of a non-zero value to MSR
# (hex) in the trace.
last_write() {
	sed -n "s/.*write_msr: $1, value \([0-9a-f]*\)\$/\1/p" $T/trace | grep -vx 0 | tail -1
}
# in_turn PMU EVENT...: counts each event of PMU alone, one after the other.
in_turn() {
	_pmu=$1
	shift
	for _e in "$@"; do
		perf stat -a -e "$_pmu/$_e/" -- true >/dev/null 2>&1
	done
}
# stale: on SNB-EP the C-box 1 filter (0xd34) after a state filter, an
# opcode filter and then a thread filter alone, and the PCU band filter
# (0xc34) after band 0 and then band 1 alone; on WSM-EX the M-box 0
# ZDP_CTL_FVC (0xcab) after field 0 and then field 1 alone: the registers'
# last values, space separated.
stale() {
	trace_on
	case "$p" in
	snbep)
		in_turn uncore_cbox_1 event=0x34,umask=0x3,filter_state=0x1f \
			event=0x35,umask=0x1,filter_opc=0x182 event=0x34,umask=0x1,filter_tid=0x3,tid_en=1
		in_turn uncore_pcu event=0xb,filter_band0=0x10 event=0xc,filter_band1=0x20
		trace_off
		echo "$(last_write d34) $(last_write c34)"
		;;
	wsmex)
		in_turn uncore_mbox_0 inc_sel=0xd,fvc=0x5000 inc_sel=0xe,fvc=0x8000
		trace_off
		last_write cab
		;;
	esac
}
case "$p" in
snbep)
	ours="3 2000" c="c17c0003 2010"
	what="tid 3; band1 0x20" cwhat="state 0x1f, opc 0x182; band0 0x10"
	;;
wsmex)
	ours=8000 c=d000
	what="field 1 = 1" cwhat="field 0 = 5"
	;;
esac
if [ -f /lib/modules/intel-uncore.ko ]; then
	load
	check_eq "this driver writes the last event's own filter fields ($what)" "$(stale)" "$ours"
	unload
	insmod /lib/modules/intel-uncore.ko
	check_eq "the C driver writes the earlier events' fields again ($cwhat)" "$(stale)" "$c"
	rmmod intel_uncore
else
	skip "no intel-uncore.ko in the guest"
fi
done_testing

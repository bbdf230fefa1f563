#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Event preconditions (Documentation/platforms.rst): an LLC_LOOKUP counts
# only the lookups its state filter selects, so the old README's
# uncore_cbox_0/event=0x34,umask=0x8f/ (no filter_state) counts nothing
# while lookups in a state are injected, and the same lookups count
# exactly with filter_state and through the llc_lookup.data_read alias.
# An injected lookup without state= is refused (EINVAL) and explained in
# the kernel log; a TOR opcode sub-event counts only its opcode. Runs the
# example of Documentation/simulation.rst.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

readme=uncore_cbox_0/event=0x34,umask=0x8f/
stated=uncore_cbox_0/event=0x34,umask=0x3,filter_state=0x1f/
alias=uncore_cbox_0/llc_lookup.data_read/
# 700 lookups of lines in states I, S and F (bits 0, 1 and 4).
lookups="echo 'pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x1 state=0 count=300' >$DBG/inject
echo 'pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x1 state=1 count=250' >$DBG/inject
echo 'pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x2 state=4 count=150' >$DBG/inject"

# One event at a time: the events share the C-box filter register, and
# the old README's event counts whatever states another event's filter_state
# selects, as on the hardware.
check_eq "$readme (no state selected) counts nothing" "$(total "$readme" sh -c "$lookups")" 0
check_eq "$stated counts every lookup" "$(total "$stated" sh -c "$lookups")" 700
check_eq "$alias counts every lookup" "$(total "$alias" sh -c "$lookups")" 700
check_eq "filter_state=0x1 counts the lookups in state I only" \
	"$(total uncore_cbox_0/event=0x34,umask=0x3,filter_state=0x1/ sh -c "$lookups")" 300

# A lookup without a state: refused, and the log names the event and key.
echo "precond-test: mark" >/dev/kmsg
err=$(sh -c "echo 'pmu=uncore_cbox_0 event=0x34 umask=0x1 count=5' >$DBG/inject" 2>&1)
check_eq "inject without state=: EINVAL" "${err##*: }" "Invalid argument"
check "the log names the event and the missing key" \
	sh -c "dmesg | sed -n '/precond-test: mark/,\$p' | grep -q 'sim: UNC_C_LLC_LOOKUP.* on uncore_cbox_0 needs state='"
check_eq "a refused lookup counts nowhere" "$(total "$readme" sh -c "echo 'pmu=uncore_cbox_0 event=0x34 umask=0x1 count=5' >$DBG/inject 2>/dev/null")" 0

# TOR_INSERTS.OPCODE counts the entries of its opcode, with a node given.
tor="echo 'pmu=uncore_cbox_1 event=0x35 umask=0x1 opc=0x182 nid=0 count=40' >$DBG/inject
echo 'pmu=uncore_cbox_1 event=0x35 umask=0x1 opc=0x180 nid=0 count=2' >$DBG/inject"
check_eq "tor_inserts.opcode (filter_opc=0x182) counts its opcode only" \
	"$(total uncore_cbox_1/tor_inserts.opcode/ sh -c "$tor")" 40
check_eq "event=0x35,umask=0x1,filter_opc=0x180 counts the other" \
	"$(total uncore_cbox_1/event=0x35,umask=0x1,filter_opc=0x180/ sh -c "$tor")" 2

# Documentation/simulation.rst's example: socket 1's lookups in state I.
out=$(perf stat -a --per-socket -x, -e uncore_cbox_0/event=0x34,umask=0x3,filter_state=0x1/ -- \
	sh -c 'echo "pmu=uncore_cbox_0 socket=1 event=0x34 umask=0x1 state=0 count=1000" \
	       > /sys/kernel/debug/rust_uncore/inject' 2>&1 >/dev/null | awk -F, '/^S[0-9]/ { print $1, $3 }')
check_eq "simulation.rst's example" "$(echo $out)" "S0 0 S1 1000"
check "rmmod" unload
done_testing

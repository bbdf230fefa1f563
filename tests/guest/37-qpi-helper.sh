#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A QPI port's packet match/mask device unbound and bound again while
# events count on the port (the simulation's `unplug` and `plug` of
# `qpi_filter_<port>`). The event that uses match/mask stops with its last
# count when the device goes (its filter cannot be kept) and counts again,
# its filter written afresh, when the device is back; the port's other
# event counts throughout. A new match/mask event is refused while the
# device is gone. Before, nothing stopped or restarted the match/mask
# event: the rebound device came back from reset, with no filter, and the
# event counted every packet.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

MM='uncore_qpi_1/event=0x38,match0=0x1c00,mask0=0x1f80/'
PLAIN='uncore_qpi_1/event=0x14/'
# Packets of the match/mask event on socket 0's port 1: 0x1c40 matches,
# 0x1d00 does not.

check "unplug: no such filter device is EINVAL" \
	sh -c "! echo 'pmu=qpi_filter_7 socket=0' > $DBG/unplug 2>/dev/null"

rm -f /tmp/refused /tmp/qpi.out
perf stat -a --per-socket -x, -o /tmp/qpi.out -e "$MM" -e "$PLAIN" -- sh -c "
	echo 'pmu=uncore_qpi_1 socket=0 event=0x38 packet=0x1c40 count=3' > $DBG/inject
	echo 'pmu=uncore_qpi_1 socket=0 event=0x14 count=2' > $DBG/inject
	echo 'pmu=qpi_filter_1 socket=0' > $DBG/unplug
	echo 'pmu=uncore_qpi_1 socket=0 event=0x38 packet=0x1c40 count=5' > $DBG/inject
	echo 'pmu=uncore_qpi_1 socket=0 event=0x14 count=4' > $DBG/inject
	/tests/perf_open uncore_qpi_1 0x38:0x1c00:0x1f80 --cpu 0 | head -1 > /tmp/refused
	echo 'pmu=qpi_filter_1 socket=0' > $DBG/plug
	echo 'pmu=uncore_qpi_1 socket=0 event=0x38 packet=0x1c40 count=7' > $DBG/inject
	echo 'pmu=uncore_qpi_1 socket=0 event=0x38 packet=0x1d00 count=11' > $DBG/inject
	echo 'pmu=uncore_qpi_1 socket=0 event=0x14 count=6' > $DBG/inject
" >/dev/null 2>&1
# got EVENT-NAME-PREFIX: socket 0's count of the event whose name starts so.
got() { awk -F, -v e="$1" '$1 == "S0" && index($5, e) == 1 { print $3 }' /tmp/qpi.out; }
check_eq "a match/mask event is refused while the device is gone: EINVAL" "$(cat /tmp/refused)" "EINVAL 0"
check_eq "the match/mask event counts the matching packets before and after, not while the device is gone" \
	"$(got uncore_qpi_1/event=0x38)" 10
check_eq "the port's other event counts throughout" "$(got uncore_qpi_1/event=0x14)" 12
sed 's/^/# /' /tmp/qpi.out
check_eq "a match/mask event opened now counts only matching packets" \
	"$(count "$MM" sh -c "echo 'pmu=uncore_qpi_1 socket=0 event=0x38 packet=0x1c40 count=3' > $DBG/inject
		echo 'pmu=uncore_qpi_1 socket=0 event=0x38 packet=0x1d00 count=5' > $DBG/inject" | head -1)" "S0 3"
check "rmmod" unload
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A PCI function that comes back broken: bound again, but its writes fail
# (the simulation's `plug ... broken=1`), so its box's initialisation at
# the plug fails and the box stays marked gone.
#
# 1. A new event on that box is refused (ENODEV): it would never count
#    (before: accepted, counting nothing until a hand-over).
# 2. An event started before the first unplug keeps its start through the
#    broken plug and the next unplug, and counts again after a good plug
#    (before: the second unplug kept only a start that was running, not
#    one kept from the first: the event never counted again).
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh
. /tests/hardening.sh

po() { /tests/perf_open "$@" 2>&1 | head -1; }
imc0() { echo "pmu=uncore_imc_0 socket=0${1:+ $1}"; }

# 1.
check "unplug socket 0's iMC box 0" sh -c "echo '$(imc0)' > $DBG/unplug"
before=$(dmesg | grep -c 'box init on package 0 failed')
check "plug it back broken" sh -c "echo '$(imc0 broken=1)' > $DBG/plug"
check "its box initialisation failed, said in the log" \
	[ "$(dmesg | grep -c 'box init on package 0 failed')" -gt "$before" ]
check_eq "an event on it is refused: ENODEV" "$(po uncore_imc_0 0x1 --cpu 0)" "ENODEV 0"
check_eq "socket 1's box takes one" "$(po uncore_imc_0 0x1 --cpu "$(collector uncore_imc_0 1)")" "ok"
echo "$(imc0)" >$DBG/unplug
echo "$(imc0)" >$DBG/plug
check_eq "plugged back whole, it takes one again" "$(po uncore_imc_0 0x1 --cpu 0)" "ok"

# 2.
rm -f /tmp/hold.out
/tests/uncore_fuzz -e uncore_imc_0/event=0x1/ -c 0 -H 6 >/tmp/hold.out 2>&1 &
hold=$!
check "an event holds socket 0's iMC box 0" wait_file /tmp/hold.out
echo "$(imc0 'event=0x1 count=100')" >$DBG/inject
for line in "unplug|$(imc0)" "plug|$(imc0 broken=1)" "unplug|$(imc0)" "plug|$(imc0)"; do
	echo "${line#*|}" >"$DBG/${line%%|*}" || echo "# ${line%%|*} '${line#*|}' failed"
done
echo "$(imc0 'event=0x1 count=100')" >$DBG/inject
wait $hold
check_eq "it counts 100 before, 100 after the broken plug and a good one" \
	"$(awk '$1 == "count" { print $2 }' /tmp/hold.out)" 200
check "rmmod" unload
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Four races made certain with the simulation's one-shot pauses (`stall`):
# 1. A cpumask recomputation that found a collector's box gone is held
#    before it clears the collector's bit, while the box is plugged again
#    and a second recomputation runs. The recomputations are serialised, so
#    the second one sees the box and the collector is in the PMU's cpumask
#    afterwards (unserialised, the held one clears the bit last).
# 2. An unplug is held between retiring the box and unbinding its function
#    while an event is opened and enabled on the box; the box is plugged
#    again after.
#    The event counts what the box sees after the plug (a counter armed in
#    the window and read across the plug's reset counts about 2^48, or
#    nothing).
# 3. The collector of a package goes offline while an unplug of one of its
#    boxes is held between retiring the box and unbinding its function.
#    Control transitions are serialised: the hand-over waits for the unplug
#    (it used to initialise the retired box, which stayed armed on the
#    function that was gone: at the plug its event jumped by about 2^48).
# 4. A box is plugged while a hand-over is held before the new collector is
#    published. The plug waits for the hand-over and starts the box (it used
#    to find no collector and skip the box, after the hand-over had looked
#    for such boxes: the box stayed gone).
# 5. Two NMIs sent to one CPU (the abstraction layer's nmi::send), the
#    second while the handler of the first is held before it claims. The
#    first NMI claims both sends and says so; the kernel swallows the
#    second, back-to-back NMI. (With one flag per CPU the first claimed one
#    send and the second NMI was "received for unknown reason".)
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh
. /tests/hardening.sh

# stalls_taken from the simulation's stats.
stalls() { awk '$1 == "stalls_taken" { print $2 }' "$DBG/stats"; }
# wait_stall N: waits (up to 20 s) until more than N pauses have begun.
wait_stall() {
	_i=0
	while [ "$(stalls)" -le "$1" ] && [ "$_i" -lt 400 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	[ "$(stalls)" -gt "$1" ]
}

# held_offline POINT CPU WHAT: CPU goes offline in the background, held at
# the pause POINT for 1.5 s; checks (as WHAT) that the pause began. Sets
# $offline, the background job.
held_offline() {
	_n=$(stalls)
	echo "$1 1500" >$DBG/stall
	(echo 0 >/sys/devices/system/cpu/cpu$2/online) &
	offline=$!
	check "$3" wait_stall "$_n"
}

# The stall file's own errors.
check "stall: an unknown point is EINVAL" sh -c "! echo 'nowhere 10' > $DBG/stall 2>/dev/null"
check "stall: more than 5000 ms is ERANGE" sh -c "echo 'cpumask 5001' 2>&1 > $DBG/stall | grep -q 'out of range'"

# 1. cpumask.
c1=$(collector uncore_cbox_0 1)
other=$(for c in $(cpus_of_pkg 1); do [ "$c" != "$c1" ] && echo "$c"; done | head -1)
echo 'pmu=uncore_imc_0 socket=1' >$DBG/unplug
check_eq "uncore_imc_0 without socket 1's box" "$(collectors uncore_imc_0)" 0
# Socket 1's collector goes: its hand-over's last recomputation finds the
# new collector's iMC box gone and is held there.
held_offline cpumask "$c1" "the hand-over's recomputation is held"
echo 'pmu=uncore_imc_0 socket=1' >$DBG/plug
wait $offline
check_eq "uncore_imc_0's cpumask has the new collector of socket 1 with its box back" \
	"$(collectors uncore_imc_0)" "0,$other"
check_eq "uncore_cbox_0's cpumask has it too" "$(collectors uncore_cbox_0)" "0,$other"
echo 1 >/sys/devices/system/cpu/cpu$c1/online
check_eq "uncore_imc_0's cpumask after the CPU is back" "$(collectors uncore_imc_0)" "0,$other"

# 2. The unplug window: an event opened (and enabled) while an unplug is
# held between retiring socket 0's iMC box and unbinding it. Its counter
# holds 100 from before; the plug resets it. The event counts what comes
# after the plug, no more.
check_eq "counter 0 of socket 0's iMC counts 100" \
	"$(total uncore_imc_0/event=0x1/ sh -c "echo 'pmu=uncore_imc_0 socket=0 event=0x1 count=100' > $DBG/inject")" 100
# The unplug is held until the event is open (released then; at most
# 5 s): the window does not depend on how fast the guest runs.
n=$(stalls)
rm -f /tmp/unplugged /tmp/hold.out
echo 'unplug 5000' >$DBG/stall
(echo 'pmu=uncore_imc_0 socket=0' >$DBG/unplug; touch /tmp/unplugged) &
unplug=$!
wait_stall "$n"
/tests/uncore_fuzz -e uncore_imc_0/event=0x1/ -c 0 -H 5 >/tmp/hold.out 2>&1 &
hold=$!
wait_until 100 grep -q holding /tmp/hold.out
check "the event opened while the unplug was held" sh -c "grep -q holding /tmp/hold.out && [ ! -e /tmp/unplugged ]"
echo release >$DBG/stall
wait $unplug
echo 'pmu=uncore_imc_0 socket=0' >$DBG/plug
echo 'pmu=uncore_imc_0 socket=0 event=0x1 count=100' >$DBG/inject
wait $hold
check_eq "it counts the 100 after the plug" "$(awk '$1 == "count" { print $2 }' /tmp/hold.out)" 100
check "uncore_imc_0 counts after" [ "$(total uncore_imc_0/event=0x1/ sh -c "echo 'pmu=uncore_imc_0 socket=0 event=0x1 count=55' > $DBG/inject")" = 55 ]

# 3. A hand-over inside the unplug window. An event on socket 1's iMC box
# counts 100, the box is unplugged (held after the retirement) while its
# collector goes offline, then plugged back and counts 100 more.
c1=$(collector uncore_cbox_0 1)
rm -f /tmp/hold.out
/tests/uncore_fuzz -e uncore_imc_0/event=0x1/ -c "$c1" -H 8 >/tmp/hold.out 2>&1 &
hold=$!
wait_file /tmp/hold.out
echo 'pmu=uncore_imc_0 socket=1 event=0x1 count=100' >$DBG/inject
n=$(stalls)
echo 'unplug 1500' >$DBG/stall
(echo 'pmu=uncore_imc_0 socket=1' >$DBG/unplug) &
unplug=$!
check "the unplug of socket 1's iMC box is held" wait_stall "$n"
(echo 0 >/sys/devices/system/cpu/cpu$c1/online) &
offline=$!
wait $unplug
wait $offline
check "socket 1's collector went offline (CPU $c1)" [ "$(cat /sys/devices/system/cpu/cpu$c1/online)" = 0 ]
echo 'pmu=uncore_imc_0 socket=1' >$DBG/plug
echo 'pmu=uncore_imc_0 socket=1 event=0x1 count=100' >$DBG/inject
wait $hold
check_eq "the event counts 100 before the unplug and 100 after the plug" \
	"$(awk '$1 == "count" { print $2 }' /tmp/hold.out)" 200
echo 1 >/sys/devices/system/cpu/cpu$c1/online

# 4. A plug inside the hand-over window: socket 1's iMC box is unplugged,
# its collector goes offline (held before the new collector is published),
# and the box is plugged back meanwhile.
c1=$(collector uncore_cbox_0 1)
echo 'pmu=uncore_imc_0 socket=1' >$DBG/unplug
held_offline handover "$c1" "the hand-over of socket 1 (CPU $c1 going) is held"
echo 'pmu=uncore_imc_0 socket=1' >$DBG/plug
wait $offline
check_eq "uncore_imc_0 counts on socket 1 after" \
	"$(count uncore_imc_0/event=0x1/ sh -c "echo 'pmu=uncore_imc_0 socket=1 event=0x1 count=55' > $DBG/inject" | awk '$1 == "S1" { print $2 }')" 55
echo 1 >/sys/devices/system/cpu/cpu$c1/online

# 5. NMIs sent back to back.
# nmis CPU: the NMIs CPU has taken (/proc/interrupts).
nmis() {
	awk -v c="CPU$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i + 1 } $1 == "NMI:" { print $k }' /proc/interrupts
}
unknown() { dmesg | grep -c "NMI received for unknown reason"; }
t=1
s=0
check_eq "nmi: a CPU number past the last is EINVAL" \
	"$(sh -c "echo 4096 > $DBG/nmi" 2>&1 | sed 's/.*: //')" "Invalid argument"
u=$(unknown)
before=$(nmis $t)
n=$(stalls)
echo 'nmi 1000' >$DBG/stall
taskset -c $s sh -c "echo $t > $DBG/nmi"
check "the first NMI's handler is held (CPU $t)" wait_stall "$n"
taskset -c $s sh -c "echo $t > $DBG/nmi"
# The second is taken once the first handler's pause (1 s) is over: wait
# for it (at most 10 s; a busy host may run the guest's CPU late), then
# check that it was exactly two.
_i=0
while [ "$(($(nmis $t) - before))" -lt 2 ] && [ "$_i" -lt 200 ]; do
	sleep 0.05
	_i=$((_i + 1))
done
sleep 0.5
check_eq "CPU $t took two NMIs" "$(($(nmis $t) - before))" 2
check_eq "none of them was left as of unknown reason" "$(unknown)" "$u"
check "rmmod" unload
done_testing

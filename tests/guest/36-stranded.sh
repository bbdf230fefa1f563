#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# An event opened for a collector that hands its events over before perf
# installs it. Its `event_init` chose socket 1's collector and is held
# (the simulation's `stall event_init`); the collector goes offline and its
# hand-over is held after the package's events moved to the new collector
# (`stall handover`): the CPU going is still online, so perf installs the
# event there once `event_init` returns. The driver refuses that `add`
# (`stranded_adds`): the event is never scheduled and perf reports it not
# counted (time running 0). Before, the event was added on the CPU going,
# shared the box with the moved events, and once that CPU was gone it read
# a count of 0 with time running, as if nothing had happened on the box.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh
. /tests/hardening.sh

stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$DBG/stats"; }
stalls() { stat_of stalls_taken; }
more_stalls() { [ "$(stalls)" -gt "$1" ]; }
field() { awk -v k="$1" '$1 == k { print $2 }' /tmp/stranded.out; }

check "stall: release of an unknown point is EINVAL" \
	sh -c "! echo 'release nowhere' > $DBG/stall 2>/dev/null"
check "stall: event_init takes a pause" sh -c "echo 'event_init 0' > $DBG/stall"
check "stall: event_init's is up to 30000 ms" sh -c "! echo 'event_init 30001' > $DBG/stall 2>/dev/null"

c1=$(collector uncore_imc_0 1)
stranded=$(stat_of stranded_adds)
check_eq "no add refused yet" "$stranded" 0

# The event's event_init, held after choosing CPU $c1 (a sleeping pause,
# long enough for the offline below to reach its hand-over).
n=$(stalls)
echo 'event_init 30000' >$DBG/stall
rm -f /tmp/stranded.out
/tests/uncore_fuzz -e uncore_imc_0/event=0x1/ -c "$c1" -H 3 >/tmp/stranded.out 2>&1 &
ev=$!
check "the event's event_init is held (collector CPU $c1 chosen)" wait_until 400 more_stalls "$n"

# The collector goes; its hand-over is held after the events moved.
n=$(stalls)
echo 'handover 5000' >$DBG/stall
(echo 0 >/sys/devices/system/cpu/cpu$c1/online) &
offline=$!
check "the hand-over of socket 1 is held (CPU $c1 going)" wait_until 400 more_stalls "$n"

# perf installs the event on CPU $c1, still online.
echo 'release event_init' >$DBG/stall
check "the event opened" wait_until 400 grep -q holding /tmp/stranded.out
# (The CPU's `online` file would wait for the offline to end.)
check "the hand-over is still held meanwhile" kill -0 $offline
check "its add on the CPU going was refused" [ "$(stat_of stranded_adds)" -gt "$stranded" ]
echo 'release handover' >$DBG/stall
wait $offline
check "CPU $c1 went offline" [ "$(cat /sys/devices/system/cpu/cpu$c1/online)" = 0 ]
echo 'pmu=uncore_imc_0 socket=1 event=0x1 count=100' >$DBG/inject
wait $ev
check_eq "the stranded event is reported not counted (time running 0)" "$(field running)" 0
check_eq "... and counted nothing" "$(field count)" 0
check_eq "no pause ran its whole time" "$(stat_of stalls_expired)" 0

# Socket 1 counts on its new collector.
c2=$(collector uncore_imc_0 1)
check "socket 1 has a new collector" sh -c "[ -n '$c2' ] && [ '$c2' != '$c1' ]"
check_eq "an event opened now counts 55 on socket 1" \
	"$(count uncore_imc_0/event=0x1/ sh -c "echo 'pmu=uncore_imc_0 socket=1 event=0x1 count=55' > $DBG/inject" | awk '$1 == "S1" { print $2 }')" 55
echo 1 >/sys/devices/system/cpu/cpu$c1/online
check "rmmod" unload
done_testing

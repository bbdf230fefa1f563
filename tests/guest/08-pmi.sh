#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Overflow PMIs on Westmere-EX and Nehalem-EX (simulated): counters near
# 2^48 wrap over a thousand times, over several boxes and both sockets, some
# at once in several boxes, one while the collecting CPU goes offline; every
# wrap raises a PMI (an NMI to the collector's core) and the perf totals
# stay exact. NMIs of other sources are left alone, and do not take a PMI
# on its way to the collector. A PMI that reaches a package while it parks
# (its last CPU going offline) does not enable counting there again.
#
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=rt sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

stat() { awk -v k="$1" '$1 == k { print $2 }' $DBG/stats; }
big=281474976710000 # 2^48 - 656: each injection wraps a counter at most once

# PMU, event terms, injection; one counter of each box type.
boxes="uncore_cbox_1|event=0x14,umask=0x1|event=0x14 umask=0x1
uncore_sbox_0|event=0x14,umask=0x1|event=0x14 umask=0x1
uncore_wbox|event=0x14,umask=0x1|event=0x14 umask=0x1
uncore_wbox|clockticks|event=0xff
uncore_mbox_1|inc_sel=0x6|event=0x6
uncore_rbox_0|event=0x0,iperf_cfg=0x80000000|event=0 sub=0x80000000
uncore_rbox_1|event=0x6,iperf_cfg=0x80000000|event=0x6 sub=0x80000000
uncore_bbox_1|event=0x7,counter=1|event=0x7 counter=1
uncore_ubox|event=0x14|event=0x14"

evs=""
script=/tmp/inject.sh
: >$script
n=0
while IFS='|' read -r pmu terms inj; do
	evs="$evs,$pmu/$terms/"
	i=0
	while [ "$i" -lt 120 ]; do
		echo "echo 'pmu=$pmu socket=$((i % 2)) $inj count=$((big - i))' > $DBG/inject" >>$script
		i=$((i + 1))
	done
	n=$((n + 1))
done <<EOT
$boxes
EOT
# The expected total of each event on each socket.
want0=0
want1=0
i=0
while [ "$i" -lt 120 ]; do
	if [ $((i % 2)) = 0 ]; then want0=$((want0 + big - i)); else want1=$((want1 + big - i)); fi
	i=$((i + 1))
done
before=$(stat pmis_handled)
perf stat -a --per-socket -x, -e "${evs#,}" -- sh $script 2>/tmp/stat >/dev/null
bad=""
while IFS='|' read -r pmu terms inj; do
	# (Event names contain commas: match them whole.)
	got=$(awk -F, -v e=",$pmu/$terms/," 'index($0, e) { printf "%s:%s ", $1, $3 }' /tmp/stat)
	[ "$got" = "S0:$want0 S1:$want1 " ] || bad="$bad $pmu/$terms/=[$got]"
done <<EOT
$boxes
EOT
check_eq "exact totals of $n events over both sockets across their wraps" "$bad" ""
handled=$(( $(stat pmis_handled) - before ))
echo "# PMIs handled: $handled"
check "at least 1000 wraps, each handled through a PMI ($handled)" [ "$handled" -ge 1000 ]

# Simultaneous overflows in several boxes: one PMI, one walk, every box.
before=$(stat pmis_handled)
ev3="uncore_cbox_0/event=0x14,umask=0x2/,uncore_cbox_9/event=0x14,umask=0x2/,uncore_sbox_1/event=0x14,umask=0x2/"
[ "$(platform)" = nhmex ] && ev3="uncore_cbox_0/event=0x14,umask=0x2/,uncore_cbox_7/event=0x14,umask=0x2/,uncore_sbox_1/event=0x14,umask=0x2/"
list=$(echo "$ev3" | sed 's|/event=0x14,umask=0x2/||g')
got=$(total "$ev3" sh -c "
	echo 'pmu=$list socket=1 event=0x14 umask=0x2 count=$big' > $DBG/inject
	echo 'pmu=$list socket=1 event=0x14 umask=0x2 count=$big' > $DBG/inject")
check_eq "three boxes overflowing at once are all accounted" "$got" "$((2 * big))"
check_eq "... through one PMI" "$(( $(stat pmis_handled) - before ))" "1"

# An overflow while the collecting CPU goes offline: the PMI goes to the
# socket's new collector.
set -- $(for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ "$(cat "$c/topology/physical_package_id")" = 1 ] && echo "${c##*cpu}"; done | sort -n)
first=$1
before=$(stat pmis_handled)
got=$(count uncore_cbox_2/event=0x14,umask=0x4/ sh -c "
	echo 'pmu=uncore_cbox_2 socket=1 event=0x14 umask=0x4 count=$big' > $DBG/inject
	echo 0 > /sys/devices/system/cpu/cpu$first/online
	echo 'pmu=uncore_cbox_2 socket=1 event=0x14 umask=0x4 count=$big' > $DBG/inject
	echo 1 > /sys/devices/system/cpu/cpu$first/online" | tail -1)
check_eq "exact across an offlined collector" "$got" "S1 $((2 * big))"
check "... with the wrap handled by a PMI on the new collector" [ $(( $(stat pmis_handled) - before )) -ge 1 ]

# PMIs while the package's other CPUs take NMIs of other sources, once a
# PMI is raised and before its NMI reaches the collector: only the core
# pmi_core_sel names takes it (another CPU that took it would leave the
# collector's NMI unclaimed: "NMI received for unknown reason").
noise=$(stat noise_nmis)
got=$(total uncore_cbox_3/event=0x14,umask=0x8/ sh -c "
	for i in 1 2 3 4 5 6 7 8; do
		echo 'pmu=uncore_cbox_3 socket=0 event=0x14 umask=0x8 count=$big noise=1' > $DBG/inject
	done")
check_eq "exact totals while other CPUs take NMIs during PMIs" "$got" "$((8 * big))"
check "... which they took, one per wrap ($(( $(stat noise_nmis) - noise )))" [ $(( $(stat noise_nmis) - noise )) -ge 7 ]
check "... and no NMI went unclaimed" sh -c "! dmesg | grep -q 'NMI received for unknown reason'"

# NMIs of other sources: a backtrace NMI to every CPU.
pmis=$(stat pmi_nmis)
others=$(stat nmi_not_ours)
echo l >/proc/sysrq-trigger
# Every other online CPU takes one (bounded wait: 10 s).
want=$(( $(expand_list "$(cat /sys/devices/system/cpu/online)" | tr , '\n' | wc -l) - 1 ))
wait_until 200 sh -c "[ \$(awk '\$1 == \"nmi_not_ours\" { print \$2 }' $DBG/stats) -ge $((others + want)) ]"
check_eq "backtrace NMIs are not claimed as PMIs" "$(stat pmi_nmis)" "$pmis"
check "... though the handler saw them" [ "$(stat nmi_not_ours)" -gt "$others" ]

# A PMI that arrives while socket 1 parks: its last online CPU goes offline
# and is held (stall park) after the global control is cleared, with
# interrupts off; the pause begins with a late PMI (as by an overflow just
# before the park), its NMI sent to that CPU, and ends once that NMI took
# it (at most 5 s). The handler's work runs once the park is done and finds
# counting stopped: as after a PMI on these parts (frz_all), it would
# enable counting again, but the package is parked. (Before, the park
# cleared the global control and marked the package parked in two steps,
# and the PMI's handler ran in between: the parked package counted again.)
# The PMI is sent from inside the park, not by this shell: a CPU spinning
# with interrupts off holds up the rest of the guest (an IPI or a grace
# period that waits for it), so a shell's send could come after the park
# and find the CPU offline (the rt kernel's flake).
ctl1() { awk '$1 == "socket" && $2 == 1 && $3 == "global_ctl" { print $4 }' $DBG/regs; }
p1=""
for c in $(expand_list "$(cat /sys/devices/system/cpu/online)" | tr , ' '); do
	[ "$(cat /sys/devices/system/cpu/cpu$c/topology/physical_package_id)" = 1 ] && p1="$p1 $c"
done
last=${p1##* }
for c in $p1; do
	[ "$c" = "$last" ] || echo 0 >/sys/devices/system/cpu/cpu$c/online
done
check "socket 1 counts before the park (global_ctl $(ctl1))" [ "$(ctl1)" != 0x0 ]
n=$(stat stalls_taken)
expired=$(stat stalls_expired)
handled=$(stat pmis_handled)
seen=$(stat pmi_nmis)
echo 'park 5000 pmi' >$DBG/stall
echo 0 >/sys/devices/system/cpu/cpu$last/online
check_eq "socket 1's park was held (CPU $last going)" "$(stat stalls_taken)" "$((n + 1))"
check_eq "... until the PMI's NMI was taken there" "$(stat stalls_expired)" "$expired"
check "... as a PMI ($(stat pmi_nmis) PMI NMIs, $seen before)" [ "$(stat pmi_nmis)" -gt "$seen" ]
check "the PMI was handled on CPU $last" [ "$(stat pmis_handled)" -gt "$handled" ]
check_eq "socket 1's global control stays cleared" "$(ctl1)" 0x0
for c in $p1; do
	echo 1 >/sys/devices/system/cpu/cpu$c/online
done
check "socket 1 counts again once a CPU is back (global_ctl $(ctl1))" [ "$(ctl1)" != 0x0 ]
check "rmmod" unload
done_testing

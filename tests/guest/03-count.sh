#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Exact counts on every MSR PMU of every simulated platform: an event is
# counted with perf stat while occurrences are injected into socket 0 and
# socket 1; each socket reports exactly its own injections. Then several
# events in one box, a group, and more events than counters (multiplexing).
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock append=nopti sim=xeon7100:2 cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
# guest: kernel=stock sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

n=$(sockets)
# Every PMU at once: one perf run, one injection script.
i=0
evs=""
script=""
want=""
for pmu in $(pmus); do
	i=$((i + 1))
	spec=$(sample "$pmu")
	evs="$evs,$pmu/${spec%%|*}/"
	script="$script echo 'pmu=$pmu socket=0 ${spec#*|} count=$((1000 + i))' > $DBG/inject;"
	w="S0 $((1000 + i))"
	if [ "$n" -gt 1 ]; then
		script="$script echo 'pmu=$pmu socket=1 ${spec#*|} count=$((77 + i))' > $DBG/inject;"
		w="$w S1 $((77 + i))"
	fi
	want="$want$pmu $w
"
done
perf stat -a --per-socket -x, -e "${evs#,}" -- sh -c "$script" 2>/tmp/stat >/dev/null
for pmu in $(pmus); do
	got=$(awk -F, -v p=",$pmu/" 'index($0, p) { printf "%s %s ", $1, $3 }' /tmp/stat | sed 's/ $//')
	check_eq "$pmu counts each socket's injections" "$pmu $got" "$(printf '%s' "$want" | grep "^$pmu ")"
done

# The fixed counters count clockticks.
fixed=""
for pmu in $(pmus); do
	[ -e "$DEV/$pmu/events/clockticks" ] || continue
	case "$(cat "$DEV/$pmu/events/clockticks")" in event=0xff*) fixed="$fixed $pmu" ;; esac
done
for pmu in $fixed; do
	got=$(total "$pmu/clockticks/" sh -c "echo 'pmu=$pmu event=0xff count=123456' > $DBG/inject")
	check_eq "$pmu/clockticks/ (fixed counter)" "$got" "123456"
done

# Two events of one box as a group, with distinct injections; then more
# events than the box has counters: perf multiplexes them without errors.
IFS='|' read -r box ta ia tb ib over <<EOT
$(pair "$(platform)")
EOT
out=$(perf stat -a -x, -e "{$box/$ta/,$box/$tb/}" -- sh -c \
	"echo 'pmu=$box $ia count=300' > $DBG/inject; echo 'pmu=$box $ib count=40' > $DBG/inject" 2>&1 >/dev/null |
	awk -F, '{ print $1 }' | tr '\n' ' ' | sed 's/ $//')
check_eq "$box: a group of two events counts each exactly" "$out" "300 40"
evs=""
k=0
while [ "$k" -lt "$over" ]; do
	case "$box" in
	uncore_fsb) evs="$evs,$box/fsb_submask=$((1 << k))/" ;;
	*) evs="$evs,$box/event=0x14,umask=$((1 << k))/" ;;
	esac
	k=$((k + 1))
done
out=$(perf stat -a -x, -e "${evs#,}" -- sleep 1 2>&1 >/dev/null)
check "$box: $over events on fewer counters are multiplexed without errors" \
	sh -c "! printf '%s' '$out' | grep -qi 'not supported\|error\|not counted'"
check "rmmod" unload
done_testing

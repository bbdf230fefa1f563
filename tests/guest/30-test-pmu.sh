#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The test PMU module (tests/module/, rust_test_pmu.ko): a second module
# built on the kernel abstraction layer alone. It loads, registers its two
# PMUs with their sysfs files and perf's scope cpumask, counts with perf
# stat (per task, against perf's own task-clock, and CPU-wide per package),
# refuses an unknown event with a message, moves CPU events within a
# package and refuses to move them across packages (its debugfs file
# migrate, perf::Registration::migrate), drops and registers a PMU again
# while events of it are open (reregister: perf revokes them, or the drop
# waits for them), drops a timer from its own callback (timer self-drop:
# before, the drop waited for the callback it ran in, forever), and
# unloads.
#
# guest: noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

KO=/lib/modules/rust_test_pmu.ko
if [ ! -f "$KO" ]; then
	not_ok "the guest has $KO"
	done_testing
fi
check "insmod rust_test_pmu.ko" insmod "$KO"
for p in rust_test_clock rust_test_package; do
	check_eq "$p: format/event" "$(cat $DEV/$p/format/event 2>&1)" "config:0-7"
	check_eq "$p: events/ns" "$(cat $DEV/$p/events/ns 2>&1)" "event=0x00"
	check_eq "$p: events/ns.unit" "$(cat $DEV/$p/events/ns.unit 2>&1)" "ns"
done
check "rust_test_clock has no cpumask (no scope, none of its own)" [ ! -e $DEV/rust_test_clock/cpumask ]
# perf's package scope: one online CPU of each package (which one depends
# on the hotplug history of the boot: earlier scripts offline CPUs).
pkgs=$(cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id | sort -u | paste -sd, -)
# mask_cpus: the CPUs of the scope cpumask, one per line; mask_pkgs: the
# package of each, sorted.
mask_cpus() {
	tr , '\n' <$DEV/rust_test_package/cpumask | awk -F- '{ e = NF > 1 ? $2 : $1; for (i = $1; i <= e; i++) print i }'
}
not_in_mask() {
	! mask_cpus | grep -qx "$1"
}
mask_pkgs() {
	mask_cpus | while read -r c; do cat "/sys/devices/system/cpu/cpu$c/topology/physical_package_id"; done | sort | paste -sd, -
}
mask=$(cat $DEV/rust_test_package/cpumask 2>&1)
check_eq "rust_test_package/cpumask ($mask): one CPU per package" "$(mask_pkgs)" "$pkgs"
# Its CPU of the last package going offline: perf moves the scope to
# another CPU of that package.
c=$(mask_cpus | tail -1)
if [ "$c" != 0 ] && [ -w "/sys/devices/system/cpu/cpu$c/online" ]; then
	echo 0 >"/sys/devices/system/cpu/cpu$c/online"
	moved=$(cat $DEV/rust_test_package/cpumask)
	check_eq "CPU $c offline: the cpumask ($moved) keeps one CPU per package" "$(mask_pkgs)" "$pkgs"
	check "CPU $c offline: it left the cpumask" not_in_mask "$c"
	echo 1 >"/sys/devices/system/cpu/cpu$c/online"
else
	skip "no hotpluggable CPU in the cpumask"
fi

# pstat EVENTS CMD...: perf stat's CSV lines "count,unit,event,..."
pstat() {
	ev=$1
	shift
	perf stat -x, -e "$ev" -- "$@" 2>&1 >/dev/null
}

# Per task: the task's time on a CPU, as perf's own task-clock (both are
# scheduled in and out with the task).
out=$(pstat task-clock,rust_test_clock/ns/ sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done')
echo "$out" | sed 's/^/# /'
tc=$(echo "$out" | awk -F, '$3 ~ /^task-clock/ { printf "%d", $1 * 1000000 }')
ns=$(echo "$out" | awk -F, '$3 ~ /rust_test_clock/ { print $1 }')
check "per task: rust_test_clock/ns/ within 10% of task-clock ($ns ns, $tc ns)" \
	awk -v a="${ns:-0}" -v b="${tc:-0}" 'BEGIN { exit !(b > 0 && a >= 0.9 * b && a <= 1.1 * b) }'
# A sleeping task runs little: not wall time.
out=$(pstat rust_test_clock/ns/ sleep 1)
ns=$(echo "$out" | awk -F, '$3 ~ /rust_test_clock/ { print $1 }')
check "per task: sleep 1 runs well under 0.5 s ($ns ns)" \
	awk -v a="${ns:--1}" 'BEGIN { exit !(a > 0 && a < 500000000) }'

# CPU-wide per package: each package's clock runs the whole 0.5 s.
out=$(count rust_test_package/ns/ sleep 0.5)
echo "$out" | sed 's/^/# /'
n=$(echo "$out" | awk 'NF == 2' | wc -l)
check_eq "per package: one count per package" "$n" "$(echo "$pkgs" | tr , '\n' | wc -l)"
check "per package: each package counted 0.5-10 s" \
	sh -c "echo \"\$1\" | awk 'NF == 2 { if (\$2 < 500000000 || \$2 > 10000000000) bad = 1; n++ } END { exit bad || !n }'" sh "$out"

# perf_event_open(2) directly (tests/tools/perf_open.c): the errno of each
# refusal, from the PMU's event_init or from perf for its options.
po() { /tests/perf_open "$@" 2>&1 | head -1; }
check_eq "per task on rust_test_clock: opens" "$(po rust_test_clock 0 --task)" "ok"
check_eq "on CPU 1, rust_test_package: opens (moved to its package's CPU)" "$(po rust_test_package 0 --cpu 1)" "ok"
check_eq "an unknown event: EINVAL" "$(po rust_test_clock 1)" "EINVAL 0"
check "the refusal is explained in dmesg" sh -c 'dmesg | grep -q "rust_test_clock: event 0x1 refused"'
check_eq "sampling (no interrupts): EOPNOTSUPP" "$(po rust_test_clock 0 --sample 1000)" "EOPNOTSUPP 0"
check_eq "exclude_user (no exclusions): EINVAL" "$(po rust_test_clock 0 --exclude-user)" "EINVAL 0"
check_eq "per task on rust_test_package (no task context): EINVAL" "$(po rust_test_package 0 --task)" "EINVAL 0"
# The group walk: under the leader's context lock (asserted under lockdep)
# for rust_test_package, refused for a member on rust_test_clock, whose
# software context perf does not lock around event_init.
check_eq "a group of four on rust_test_package: opens" "$(po rust_test_package 0 --cpu 1 -- 0 0 0)" "ok"
check_eq "a group of five on rust_test_package: EINVAL" "$(po rust_test_package 0 --cpu 1 -- 0 0 0 0)" "EINVAL 4"
check_eq "a group member on rust_test_clock (software context): EINVAL" \
	"$(po rust_test_clock 0 --task -- 0)" "EINVAL 1"

# A timer dropped by its own callback (its handler owns it): the drop does
# not wait for itself, the timer stops, a start from the callback is
# refused, and nothing is left (kmemleak, after the scripts).
before=$(dmesg | wc -l)
check "a timer dropped from its own callback stops (timer self-drop)" \
	sh -c "echo self-drop > /sys/kernel/debug/rust_test_pmu/timer"
check "... with no warning" sh -c "! dmesg | tail -n +$((before + 1)) | grep -qE 'BUG:|WARNING:|Oops|lockup'"

# Registration::migrate: rust_test_clock's CPU events on CPU 0 move to
# another online CPU of its package and keep counting; to a CPU of another
# package they are refused (EINVAL: what the events were told of their
# package would be false).
M=/sys/kernel/debug/rust_test_pmu/migrate
pkg_of() { cat "/sys/devices/system/cpu/cpu$1/topology/physical_package_id"; }
mig() { if out=$(sh -c "echo '$1' >$M" 2>&1); then echo ok; else echo "$out" | sed 's/.*: //'; fi; }
same='' other=''
for c in $(expand_list "$(cat /sys/devices/system/cpu/online)" | tr , " "); do
	[ "$c" != 0 ] || continue
	if [ "$(pkg_of "$c")" = "$(pkg_of 0)" ]; then
		[ -n "$same" ] || same=$c
	else
		[ -n "$other" ] || other=$c
	fi
done
if [ -n "$same" ] && [ -n "$other" ]; then
	perf stat -C 0 -x, -e rust_test_clock/ns/ -- sleep 1 2>/tmp/mig.out >/dev/null &
	# Its event is open (at most 10 s).
	wait_until 200 has_events $!
	check_eq "migrate 0 -> $other (package $(pkg_of "$other")): EINVAL" "$(mig "0 $other")" "Invalid argument"
	check_eq "migrate 0 -> 0 (one CPU twice: perf would take its mutex twice): EINVAL" "$(mig "0 0")" "Invalid argument"
	check_eq "migrate 0 -> $same (package $(pkg_of 0)): done" "$(mig "0 $same")" "ok"
	wait
	ns=$(awk -F, '$3 ~ /rust_test_clock/ { print $1 }' /tmp/mig.out)
	check "the migrated CPU event counted its second (0.5-10 s: $ns ns)" \
		awk -v a="${ns:--1}" 'BEGIN { exit !(a >= 500000000 && a <= 10000000000) }'
	check_eq "migrate of an offline or unknown CPU: EINVAL" "$(mig "0 4096")" "Invalid argument"
else
	skip "no two online CPUs besides CPU 0, one in its package and one not"
fi

# Registration's drop with live events: the debugfs file reregister drops
# rust_test_clock's registration while perf stat holds CPU events of it
# open, then registers it again. A kernel whose perf_pmu_unregister
# revokes events does that; on one that does not (6.12) the drop refuses
# new events (ENODEV) and waits until perf has closed its events. Either
# way, nothing touches the freed PMU when the events are closed (the debug
# kernel has KASAN).
R=/sys/kernel/debug/rust_test_pmu/reregister
before=$(dmesg | wc -l)
perf stat -a -x, -e rust_test_clock/ns/ -- sleep 4 2>/tmp/rr.out >/dev/null &
perf_pid=$!
check "perf stat's events are open before the drop" wait_until 200 has_events "$perf_pid"
t0=$(cut -d" " -f1 /proc/uptime)
sh -c "echo 1 >$R" 2>/tmp/rr.err &
rr_pid=$!
sleep 0.5
if kill -0 "$rr_pid" 2>/dev/null; then
	waited=1
	check_eq "while the drop waits: a new event is refused (ENODEV)" "$(po rust_test_clock 0 --task)" "ENODEV 0"
else
	waited=0
fi
wait "$rr_pid"
rc=$?
t1=$(cut -d" " -f1 /proc/uptime)
wait "$perf_pid"
check_eq "reregister with live events: done ($(cat /tmp/rr.err))" "$rc" "0"
ms=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%d", (b - a) * 1000 }')
new=$(dmesg | tail -n +"$((before + 1))")
echo "# reregister took $ms ms (waited: $waited); perf stat printed: $(tr '\n' ' ' </tmp/rr.out)"
if [ "$waited" = 1 ]; then
	check "the drop waited until perf closed its events (>= 1 s: $ms ms) and said so" \
		sh -c "[ $ms -ge 1000 ] && echo \"\$1\" | grep -q 'rust_test_[a-z]*: waiting for [0-9]* event(s) to be closed'" sh "$new"
else
	# Revoked: the events stopped counting at the drop, well before the 4 s.
	total=$(awk -F, '$3 ~ /rust_test_clock/ { print $1 }' /tmp/rr.out)
	ncpu=$(grep -c ^processor /proc/cpuinfo)
	check "perf revoked the events: the drop did not wait (< 1 s: $ms ms), they stopped counting ($total ns on $ncpu CPUs)" \
		awk -v ms="$ms" -v t="${total:-0}" -v n="$ncpu" 'BEGIN { exit !(ms < 1000 && t > 0 && t < n * 3000000000) }'
fi
sleep 0.5
new=$(dmesg | tail -n +"$((before + 1))")
check "no KASAN report, BUG, oops or warning once the events were closed" \
	sh -c "! echo \"\$1\" | grep -qE 'KASAN|BUG:|Oops|general protection|WARNING:'" sh "$new"
echo "$new" | grep -E 'KASAN|BUG:|Oops|WARNING:' | head -5 | sed 's/^/# /'
out=$(pstat rust_test_clock/ns/ sh -c 'i=0; while [ $i -lt 10000 ]; do i=$((i + 1)); done')
ns=$(echo "$out" | awk -F, '$3 ~ /rust_test_clock/ { print $1 }')
check "rust_test_clock is registered again and counts ($ns ns)" \
	awk -v a="${ns:--1}" 'BEGIN { exit !(a > 0) }'

check "rmmod rust_test_pmu" rmmod rust_test_pmu
check "the PMUs are gone" sh -c "[ ! -e $DEV/rust_test_clock ] && [ ! -e $DEV/rust_test_package ]"
done_testing

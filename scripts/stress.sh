#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The long variants of the hardening tests (make stress), in QEMU guests on
# the debug kernel (lockdep, KASAN, kmemleak): per simulated platform one
# boot that runs
#   tests/guest/10-fuzz.sh          FUZZ_N attributes (default 100000, and a
#                                   third as many with a CPU offline)
#   tests/guest/11-churn.sh         CHURN_CYCLES load/unload cycles on the
#                                   simulation and as many on the hardware
#                                   path (default 100 each)
#   tests/guest/12-hotplug-churn.sh HOTPLUG_ROUNDS rounds (default 20)
#   tests/guest/13-concurrency.sh   HOTPLUG_ROUNDS rounds
# and one boot of 10-fuzz on the hardware path (Westmere-EX). Ends with a
# summary: attributes fuzzed and their errno histogram, load/unload
# cycles, hotplug operations, lost counts (must be 0), kernel checker
# reports in the console logs (oops, BUG, WARNING, lockdep, KASAN, UBSAN,
# kmemleak; must be 0), and the failed checks. Exits non-zero on any
# failure. Takes tens of minutes per boot under TCG.
#
# Usage: scripts/stress.sh [PLATFORM...]   (default: all; e.g. snbep skl hw)
# Environment: FUZZ_N, CHURN_CYCLES, HOTPLUG_ROUNDS (above);
#   STRESS_KERNEL (debug or nodebug; default debug);
#   STRESS_JOBS (boots side by side; default 1);
#   STRESS_LOGS (directory to keep every boot's output; default a
#   temporary one, removed at the end).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$REPO_DIR"

export FUZZ_N=${FUZZ_N:-100000}
export CHURN_CYCLES=${CHURN_CYCLES:-100}
export HOTPLUG_ROUNDS=${HOTPLUG_ROUNDS:-20}
kernel=${STRESS_KERNEL:-debug}
jobs=${STRESS_JOBS:-1}
if [ "$jobs" -gt 1 ]; then
	export TCG_OPTS=${TCG_OPTS-thread=single}
fi

# The boots: NAME|CPU|SMP|LOAD|MODARGS|TESTS
all="snbep|SandyBridge,model=45,-hypervisor|4,sockets=2,cores=2|1|sim=snbep:2|10 11 12 13
ivbep|IvyBridge,model=62,-hypervisor|4,sockets=2,cores=2|1|sim=ivbep:2|10 11 12 13
wsmex|Westmere,model=47,-hypervisor|4,sockets=2,cores=2|1|sim=wsmex:2|10 11 12 13
nhmex|Nehalem,model=46,-hypervisor|4,sockets=2,cores=2|1|sim=nhmex:2|10 11 12 13
skl|Skylake-Client,-hypervisor|4,sockets=1,cores=4|1|sim=skl|10 11 12 13
xeon7100|qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor|2,sockets=2,cores=1|1|sim=xeon7100:2|10 11 12 13
xeon7400|Penryn,model=29,-hypervisor|4,sockets=4,cores=1|1|sim=xeon7400:4|10 11 12 13
hw|Westmere,model=47,-hypervisor|4,sockets=2,cores=2|0||10"
boots=$all
if [ $# -gt 0 ]; then
	boots=$(for want in "$@"; do printf '%s\n' "$all" | grep "^$want|" || { echo "stress: unknown platform $want" >&2; exit 2; }; done) || exit 2
fi

echo "== stress: FUZZ_N=$FUZZ_N CHURN_CYCLES=$CHURN_CYCLES HOTPLUG_ROUNDS=$HOTPLUG_ROUNDS, $kernel kernel, $jobs at a time"
echo "== building the module and the guest tools"
"$here/build-module.sh" "$kernel" >/dev/null || { echo "stress: the module did not build" >&2; exit 1; }
mkdir -p "$CACHE_DIR/guest-tools"
for c in tests/tools/*.c; do
	gcc -static -O2 -Wall -Werror -o "$CACHE_DIR/guest-tools/$(basename "$c" .c)" "$c" ||
		{ echo "stress: $c did not build" >&2; exit 1; }
done

if [ -n "${STRESS_LOGS:-}" ]; then
	work=$STRESS_LOGS
	mkdir -p "$work"
else
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
fi

# The wrappers: the long settings, then the test itself (by its path in
# the guest, so that it can run itself again).
declare -A file=([10]=10-fuzz.sh [11]=11-churn.sh [12]=12-hotplug-churn.sh [13]=13-concurrency.sh)
for t in "${!file[@]}"; do
	cat >"$work/run-$t.sh" <<EOF
#!/bin/sh
export FUZZ_N=$FUZZ_N CHURN_CYCLES=$CHURN_CYCLES HOTPLUG_ROUNDS=$HOTPLUG_ROUNDS
exec sh /tests/${file[$t]}
EOF
done

# Generous limits: per test, by its size.
limit() {
	case "$1" in
	10) echo $((300 + FUZZ_N / 50)) ;;
	11) echo $((300 + CHURN_CYCLES * 20)) ;;
	12 | 13) echo $((300 + HOTPLUG_ROUNDS * 60)) ;;
	esac
}

start=$SECONDS
while IFS='|' read -r name cpu smp load margs tests; do
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	: >"$work/$name.list"
	tl=120
	for t in $tests; do
		printf '%s|%s|%s\n' "$load" "$margs" "$work/run-$t.sh" >>"$work/$name.list"
		tl=$((tl + $(limit "$t")))
	done
	echo "== boot $name: tests $tests (limit ${tl} s)"
	(
		t0=$SECONDS
		"$here/guest.sh" --quiet --kernel "$kernel" --cpu "$cpu" --smp "$smp" --timeout "$tl" \
			--batch "$work/$name.list" --outdir "$work/$name.out" >"$work/$name.log" 2>&1
		echo $? >"$work/$name.rc"
		echo $((SECONDS - t0)) >"$work/$name.time"
		echo "== boot $name done: $((SECONDS - t0)) s"
	) &
done <<<"$boots"
wait

# The summary.
problems='Oops|BUG:|WARNING:|Kernel panic|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|KASAN|UBSAN|general protection fault|sleeping function called from invalid context|scheduling while atomic|unreferenced object|kmemleak: [0-9]+ new suspected'
tot_attrs=0 tot_cycles=0 tot_hp=0 tot_lost=0 tot_chk=0 tot_fail=0 tot_ok=0
declare -A errno=()
failures=()
echo
echo "== stress summary ($((SECONDS - start)) s)"
printf '%-9s %7s %9s %7s %8s %5s %8s %6s %7s  %s\n' boot time attrs cycles hotplug lost checker ok "not ok" status
while IFS='|' read -r name cpu smp load margs tests; do
	out=$work/$name.out
	attrs=0 cycles=0 hp=0 lost=0 okn=0 failn=0
	status=ok
	rc=$(cat "$work/$name.rc" 2>/dev/null || echo "?")
	i=0
	for t in $tests; do
		i=$((i + 1))
		f=$out/$i.out
		if [ ! -f "$f" ]; then
			status="no output"
			failures+=("$name: ${file[$t]}: no output (runner: $(tail -1 "$work/$name.log" 2>/dev/null))")
			continue
		fi
		s() { awk -v k="$1" '$1 == "#" && $2 == "stat:" && $3 == k { n += $4 } END { print n + 0 }' "$f"; }
		attrs=$((attrs + $(s attrs)))
		cycles=$((cycles + $(s cycles)))
		hp=$((hp + $(s hotplug)))
		lost=$((lost + $(s lost)))
		while read -r k v; do
			errno[$k]=$((${errno[$k]:-0} + v))
		done < <(awk '$1 == "#" && $2 == "stat:" && $3 ~ /^errno-[A-Z0-9]+$/ && $4 ~ /^[0-9]+$/ { sub(/^errno-/, "", $3); print $3, $4 }' "$f")
		okn=$((okn + $(grep -cE '^ok [0-9]+' "$f")))
		nf=$(grep -cE '^not ok [0-9]+' "$f")
		failn=$((failn + nf))
		while IFS= read -r l; do failures+=("$name: ${file[$t]}: $l"); done < <(grep -E '^not ok [0-9]+' "$f")
		st=$(cat "$out/$i.status" 2>/dev/null || echo "?")
		if [ "$st" != 0 ] && [ "$nf" = 0 ]; then
			failures+=("$name: ${file[$t]}: exit status $st: $(grep '^guest:' "$f" | head -3 | tr '\n' ' ')")
			status="exit $st"
		fi
	done
	chk=0
	if [ -f "$out/console.log" ]; then
		chk=$(grep -cE "$problems" "$out/console.log")
		if [ "$chk" != 0 ]; then
			while IFS= read -r l; do failures+=("$name: kernel: $l"); done < <(grep -E "$problems" "$out/console.log" | sort -u | head -10)
		fi
	fi
	[ "$rc" = 0 ] || { [ "$status" = ok ] && status="runner $rc: $(head -1 "$out/boot.err" 2>/dev/null)"; }
	[ "$failn" = 0 ] || [ "$status" != ok ] || status=failed
	[ "$lost" = 0 ] || [ "$status" != ok ] || status=failed
	[ "$chk" = 0 ] || [ "$status" != ok ] || status=failed
	printf '%-9s %6ss %9s %7s %8s %5s %8s %6s %7s  %s\n' "$name" "$(cat "$work/$name.time" 2>/dev/null || echo ?)" \
		"$attrs" "$cycles" "$hp" "$lost" "$chk" "$okn" "$failn" "$status"
	tot_attrs=$((tot_attrs + attrs)) tot_cycles=$((tot_cycles + cycles)) tot_hp=$((tot_hp + hp))
	tot_lost=$((tot_lost + lost)) tot_chk=$((tot_chk + chk)) tot_ok=$((tot_ok + okn)) tot_fail=$((tot_fail + failn))
	[ "$status" = ok ] || bad_boot=1
done <<<"$boots"
printf '%-9s %7s %9s %7s %8s %5s %8s %6s %7s\n' total "" "$tot_attrs" "$tot_cycles" "$tot_hp" "$tot_lost" "$tot_chk" "$tot_ok" "$tot_fail"
echo
echo "perf_event_open errno histogram (all boots):"
for k in "${!errno[@]}"; do printf '  %-12s %10s\n' "$k" "${errno[$k]}"; done | sort -k2 -rn
echo
echo "attributes fuzzed:     $tot_attrs"
echo "load/unload cycles:    $tot_cycles"
echo "hotplug operations:    $tot_hp"
echo "lost counts:           $tot_lost (must be 0)"
echo "checker reports:       $tot_chk (must be 0)"
if [ ${#failures[@]} -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
[ -z "${STRESS_LOGS:-}" ] || echo "logs: $work"
[ "$tot_fail" = 0 ] && [ "$tot_lost" = 0 ] && [ "$tot_chk" = 0 ] && [ -z "${bad_boot:-}" ]

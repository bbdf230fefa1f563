#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rust_uncore selftests: check the loaded module against the machine it
# runs on, in kselftest TAP. On real hardware they measure real traffic; in
# a simulated platform (the module loaded with sim=) the simulation's clock
# and workload hook stand in for the hardware's clocks and for memory and
# cache traffic. Whatever cannot run on the machine at hand is skipped with
# its reason; nothing passes that did not run.
#
#  1. every PMU the platform has is there, each cpumask one CPU per package;
#  2. every alias of every PMU opens (and, simulated, counts exactly);
#  3. clockticks over one second give a frequency in the platform's range;
#  4. IMC CAS counts rise by at least the bytes read / 64 during a memcpy;
#  5. LLC lookups rise with a cache-thrashing loop;
#  6. (Nehalem-EX, Westmere-EX) two counters of one event agree, across
#     counter wraps signalled by PMIs where the simulation can force them.
#
# Usage: uncore_test.sh   (as root; TOOLS= the directory of alias_check,
#                          memcpy_bw and llc_thrash, default this one's;
#                          SKIP_ALIASES=1 skips check 2, for a caller that
#                          runs alias_check itself)
# Exit status: 0 all passed or skipped, 1 a failure, 4 nothing could run.

DEV=/sys/bus/event_source/devices
DBG=/sys/kernel/debug/rust_uncore
TOOLS=${TOOLS:-$(cd "$(dirname "$0")" && pwd)}
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
finish() { echo "1..$n"; exit $failed; }

echo "TAP version 13"
if grep -qs '^rust_uncore_sim ' /proc/modules; then
	mod=rust_uncore_sim
elif grep -qs '^rust_uncore ' /proc/modules; then
	mod=rust_uncore
else
	echo "1..0 # SKIP rust_uncore is not loaded (insmod rust_uncore.ko first, or rust_uncore_sim.ko sim=<platform>)"
	exit 4
fi
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (system-wide uncore events and, simulated, debugfs)"
	exit 4
fi
command -v perf >/dev/null || { echo "1..0 # SKIP perf is not installed"; exit 4; }

sim=$(cat /sys/module/$mod/parameters/sim 2>/dev/null)
case "$sim" in "" | "(null)") sim="" ;; esac
if [ -n "$sim" ]; then
	p=${sim%%:*}
else
	fam=$(awk '/^cpu family/ { print $4; exit }' /proc/cpuinfo)
	mod=$(awk '/^model\t/ { print $3; exit }' /proc/cpuinfo)
	case "$fam:$mod" in
	6:45) p=snbep ;;
	6:62) p=ivbep ;;
	6:46) p=nhmex ;;
	6:47) p=wsmex ;;
	6:78 | 6:94 | 6:142 | 6:158 | 6:165 | 6:166) p=skl ;;
	15:6) p=xeon7100 ;;
	6:29) p=xeon7400 ;;
	*) p=unknown ;;
	esac
fi
echo "# platform: $p${sim:+ (simulated: sim=$sim)}"

pmus() { ls $DEV | grep '^uncore_' | sort; }
packages() { cat /sys/devices/system/cpu/cpu[0-9]*/topology/physical_package_id 2>/dev/null | sort -u | wc -l; }
pkg_of() { cat /sys/devices/system/cpu/cpu$1/topology/physical_package_id; }
# expand LIST: "0,2-3" as "0 2 3".
expand() { echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do [ -n "$a" ] && seq "$a" "${b:-$a}"; done | tr '\n' ' '; }
# total EVENT... -- CMD...: perf stat -a of the events while CMD runs;
# prints the sum of their counts.
total() {
	evs=""
	while [ "$1" != -- ]; do evs="$evs -e $1"; shift; done
	shift
	perf stat -a -x, $evs -- "$@" 2>&1 >/dev/null |
		awk -F, '$1 ~ /^[0-9]+$/ { s += $1 } END { printf "%d\n", s }'
}
# each PMU-PREFIX TERMS: "PMU/TERMS/" for every PMU whose name starts so.
each() { for q in $(pmus | grep "^$1"); do printf '%s/%s/ ' "$q" "$2"; done; }

# 1. The PMUs and their cpumasks.
case "$p" in
snbep | ivbep) types="uncore_cbox_0 uncore_pcu uncore_ubox" ;;
nhmex | wsmex) types="uncore_bbox_0 uncore_bbox_1 uncore_cbox_0 uncore_mbox_0 uncore_mbox_1 uncore_rbox_0 uncore_rbox_1 uncore_sbox_0 uncore_sbox_1 uncore_ubox uncore_wbox" ;;
skl) types="uncore_arb uncore_cbox_0" ;;
xeon7100 | xeon7400) types="uncore_fsb uncore_gbsq uncore_gsnpq" ;;
*) types="" ;;
esac
if [ -z "$types" ]; then
	skip "PMUs of the platform: unknown CPU (family:model ${fam:-?}:${mod:-?})"
else
	missing=""
	for t in $types; do [ -d "$DEV/$t" ] || missing="$missing $t"; done
	check "every MSR PMU of $p is registered${missing:+ (missing:$missing)}" [ -z "$missing" ]
fi
np=$(packages)
bad=""
for q in $(pmus); do
	seen=""
	for c in $(expand "$(cat $DEV/$q/cpumask)"); do
		k=$(pkg_of "$c")
		case " $seen " in *" $k "*) bad="$bad $q(two CPUs of package $k)" ;; esac
		seen="$seen $k"
	done
	[ -n "$seen" ] || bad="$bad $q(empty)"
	case "$q" in uncore_imc* | uncore_ha* | uncore_qpi* | uncore_r2pcie | uncore_r3qpi* | uncore_irp) ;;
	*) [ "$(echo $seen | wc -w)" = "$np" ] || bad="$bad $q($(echo $seen | wc -w) of $np packages)" ;;
	esac
done
check "every cpumask holds one CPU per package (where the box is)${bad:+:$bad}" [ -z "$bad" ]

# 2. Every alias.
if [ -n "${SKIP_ALIASES:-}" ]; then
	skip "aliases: the caller checks them (SKIP_ALIASES)"
elif [ ! -x "$TOOLS/alias_check" ]; then
	skip "aliases: $TOOLS/alias_check is not built"
elif [ -n "$sim" ]; then
	out=$("$TOOLS/alias_check" -n 77)
	printf '%s\n' "$out" | grep '^# ' | grep -v 'aliases checked' | head -20
	nok=$(printf '%s\n' "$out" | grep -c '^not ok')
	na=$(printf '%s\n' "$out" | sed -n 's/^# \([0-9]*\) aliases checked/\1/p')
	check "every alias of every PMU opens and counts exactly ($na aliases)" [ "$nok" = 0 -a "${na:-0}" -gt 0 ]
else
	out=$("$TOOLS/alias_check" -o)
	printf '%s\n' "$out" | grep '^# ' | grep -v 'aliases checked' | head -20
	nok=$(printf '%s\n' "$out" | grep -c '^not ok')
	na=$(printf '%s\n' "$out" | sed -n 's/^# \([0-9]*\) aliases checked/\1/p')
	check "every alias of every PMU opens ($na aliases)" [ "$nok" = 0 -a "${na:-0}" -gt 0 ]
fi

# 3. clockticks over one second: the frequency of the clock it counts.
case "$p" in
snbep | ivbep) clk="uncore_imc_0/clockticks/" lo=300 hi=1600 what="iMC DCLK" ;;
nhmex | wsmex) clk="uncore_wbox/clockticks/" lo=1000 hi=3500 what="uncore clock" ;;
skl) clk="uncore_cbox_0/clockticks/" lo=400 hi=5000 what="uncore clock" ;;
*) clk="" ;;
esac
if [ -z "$clk" ] || [ ! -d "$DEV/${clk%%/*}" ]; then
	skip "clockticks: $p has no fixed clock counter here"
else
	[ -z "$sim" ] || echo 1 >$DBG/clock
	# The count over the time it ran (perf's fourth CSV field, in ns).
	mhz=$(perf stat -a -x, -e "$clk" -- sleep 1 2>&1 >/dev/null |
		awk -F, '$1 ~ /^[0-9]+$/ && $4 > 0 { printf "%d\n", $1 * 1000 / $4 }')
	[ -z "$sim" ] || echo 0 >$DBG/clock
	check "$clk for about 1 s: ${mhz:-?} MHz, a $what in [$lo, $hi] MHz" [ "${mhz:-0}" -ge "$lo" -a "${mhz:-0}" -le "$hi" ]
fi

# 4. IMC CAS counts during a memcpy of known size.
case "$p" in
snbep | ivbep) cas=$(each uncore_imc_ "event=0x4,umask=0x3") ;;
skl) cas=$(each uncore_imc "event=0x1") ;;
*) cas="" ;;
esac
if [ -z "$cas" ]; then
	skip "IMC CAS: $p has no CAS-count event here"
elif [ -n "$sim" ]; then
	bytes=$((256 << 20))
	got=$(total $cas -- sh -c "echo 'memcpy $bytes' > $DBG/workload")
	check "IMC CAS reads rose by $got, at least $bytes / 64 (simulated memcpy)" [ "$got" -ge $((bytes / 64)) ]
elif [ ! -x "$TOOLS/memcpy_bw" ]; then
	skip "IMC CAS: $TOOLS/memcpy_bw is not built"
else
	bytes=$((256 << 20))
	got=$(total $cas -- "$TOOLS/memcpy_bw" 256)
	check "IMC CAS reads rose by $got, at least $bytes / 64 (memcpy of 256 MiB)" [ "$got" -ge $((bytes / 64)) ]
fi

# 5. LLC lookups with a cache-thrashing loop.
case "$p" in
snbep | ivbep) llc=$(each uncore_cbox_ "llc_lookup.data_read") ;;
skl) llc=$(each uncore_cbox_ "cache_lookup.any_mesi") ;;
nhmex | wsmex) llc=$(each uncore_cbox_ "llc_misses.all") ;;
*) llc="" ;;
esac
lines=$((4 * (256 << 20) / 64))
if [ -z "$llc" ]; then
	skip "LLC lookups: $p has no lookup event here"
elif [ -n "$sim" ]; then
	got=$(total $llc -- sh -c "echo 'llc $lines' > $DBG/workload")
	check "LLC lookups rose by $got, at least $lines (simulated thrashing)" [ "$got" -ge "$lines" ]
elif [ ! -x "$TOOLS/llc_thrash" ]; then
	skip "LLC lookups: $TOOLS/llc_thrash is not built"
else
	got=$(total $llc -- "$TOOLS/llc_thrash" 4)
	check "LLC lookups rose by $got, at least a quarter of the $lines lines touched" [ "$got" -ge $((lines / 4)) ]
fi

# 6. Two counters of one event agree, PMIs or not.
case "$p" in
nhmex | wsmex)
	ev="uncore_cbox_0/event=0x14,umask=0x7/"
	if [ -n "$sim" ]; then
		big=281474976710000
		before=$(awk '$1 == "pmis_handled" { print $2 }' $DBG/stats)
		out=$(perf stat -a -x, -e "{$ev}" -e "{$ev}" -- sh -c "
			for i in 1 2 3; do echo 'pmu=uncore_cbox_0 socket=0 programmed=1 count=$big' > $DBG/inject; done" 2>&1 >/dev/null |
			awk -F, '$1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' ')
		pmis=$(($(awk '$1 == "pmis_handled" { print $2 }' $DBG/stats) - before))
		check "two counters of one event agree across $pmis PMI-signalled wraps: $out" [ "$out" = "$((3 * big)) $((3 * big)) " -a "$pmis" -ge 3 ]
	else
		out=$(perf stat -a -x, -e "{$ev}" -e "{$ev}" -- "$TOOLS/llc_thrash" 2 2>&1 >/dev/null |
			awk -F, '$1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' ')
		set -- $out
		d=$(( ${1:-0} > ${2:-0} ? ${1:-0} - ${2:-0} : ${2:-0} - ${1:-0} ))
		check "two counters of one event agree within 0.1%: $out" [ -n "${2:-}" -a $((d * 1000)) -le "${1:-0}" ]
	fi
	;;
*) skip "PMI and polling totals: only Nehalem-EX and Westmere-EX raise uncore PMIs" ;;
esac
finish

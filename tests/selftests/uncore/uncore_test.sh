#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# rust_uncore selftests: check the loaded module against the machine it
# runs on, in kselftest TAP, and end with a summary table (platform, CPU,
# kernel, module, each check's figure and bounds) for a report. On real
# hardware they measure real traffic of known size (uncore_load); in a
# simulated platform (the module loaded with sim=) the same checks run
# against the same traffic injected into the simulation (its debugfs
# inject file) and its clock. A check skips only where the platform has no
# such box or counter at all, with the reason; a box whose PCI device or
# MSR block the machine has and whose PMU is missing fails.
#
#  1. every MSR PMU of the platform is registered; every uncore PCI device
#     the machine has (pci-devices.tsv) has its box's PMU, whose cpumask
#     holds one CPU per device (socket), and no PMU is there without one;
#  2. every other cpumask holds one CPU per package;
#  3. every alias of every PMU opens (and, simulated, counts exactly);
#  4. the uncore clock, on each socket, over the time perf counted it;
#  5. IMC CAS reads and writes while memory is read, then written
#     (non-temporal stores), each against the lines moved;
#  6. LLC lookups (NHM-EX, WSM-EX: misses) against a pattern that misses
#     every cache level below the LLC;
#  7. on two sockets (SNB-EP, IVB-EP), QPI data flits while one socket
#     reads the other's memory;
#  8. (Nehalem-EX, Westmere-EX) two counters of one event agree, across
#     counter wraps signalled by PMIs where the simulation can force them;
#  9. with --ab, the same events counted by this module and then by the
#     kernel's intel_uncore (rmmod one, load the other), compared.
#
# Counts are taken as the difference of two runs, one with 1 + 4 passes
# over the buffer and one with 1, so that the allocation and first write
# of the buffer cancel: the expected figure is 4 passes' worth. Every count
# check has a lower and an upper bound: a count off by a counter's wrap
# (2^44, 2^48) is millions of times the expected figure and fails.
#
# Usage: uncore_test.sh [--report FILE] [--ab]   (as root)
#   --report FILE  also write the whole output (TAP and summary) to FILE:
#                  the file to attach to a report
#   --ab           A/B mode (check 9): needs rust_uncore loaded on the
#                  hardware, and intel_uncore as a module
#   --help         this text
# Environment: TOOLS the directory of uncore_load and alias_check (default
# this one's); MIB the buffer size (default 512); SKIP_ALIASES=1 skips
# check 3 (for a caller that runs alias_check itself); AB_RUST_LOAD and
# AB_C_LOAD the commands that load each driver for --ab (default modprobe
# rust_uncore, modprobe intel_uncore); AB_TOLERANCE (default 0.10).
# Exit status: 0 all passed or skipped, 1 a failure, 4 nothing could run.

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/lib.sh"
report=""
ab=0
while [ $# -gt 0 ]; do
	case "$1" in
	--report) [ $# -ge 2 ] || { echo "uncore_test: --report needs a file" >&2; exit 2; }; report=$2; shift 2 ;;
	--ab) ab=1; shift ;;
	-h | --help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "uncore_test: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done

DEV=/sys/bus/event_source/devices
DBG=/sys/kernel/debug/rust_uncore
TOOLS=${TOOLS:-$HERE}
MIB=${MIB:-512}
# Passes of the longer run beyond the shorter one's.
K=4
n=0
failed=0

ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); failed=1; echo "not ok $n $*"; }
skip() { n=$((n + 1)); echo "ok $n # SKIP $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
# tap LINE: a TAP line that ok, not_ok, skip or check made in a command
# substitution (whose counts are lost): prints it, counts it, keeps it as
# $last for row.
tap() {
	last=$1
	echo "$1"
	n=$((n + 1))
	case "$1" in "not ok"*) failed=1 ;; esac
}
# row CHECK FIGURE BOUNDS: a line of the summary table, with the result of
# the last TAP line.
row() {
	case "$last" in "not ok"*) r=FAIL ;; *"# SKIP"*) r=skip ;; *) r=pass ;; esac
	printf '%s|%s|%s|%s\n' "$1" "$2" "$3" "$r" >>"$tmp/rows"
}
# bounded CHECK GOT EXPECTED LO HI WHAT: one count check, GOT within [LO,
# HI] x EXPECTED, with its row.
bounded() {
	_r=$(ratio "$2" "$3")
	last=$(check "$1: $2 $6, $_r x the expected $3, within [$4, $5]" within "$2" "$3" "$4" "$5")
	tap "$last"
	row "$1" "$2 ($_r x $3)" "[$4, $5] x $3"
}

main() {
echo "TAP version 13"
if grep -qs '^rust_uncore_sim ' /proc/modules; then
	mod=rust_uncore_sim
elif grep -qs '^rust_uncore ' /proc/modules; then
	mod=rust_uncore
else
	echo "1..0 # SKIP rust_uncore is not loaded (modprobe rust_uncore, or insmod rust_uncore_sim.ko sim=<platform>)"
	return 4
fi
if [ "$(id -u)" != 0 ]; then
	echo "1..0 # SKIP needs root (system-wide uncore events and, simulated, debugfs)"
	return 4
fi
command -v perf >/dev/null || { echo "1..0 # SKIP perf is not installed"; return 4; }
tmp=$(mktemp -d)
: >"$tmp/rows"

sim=$(cat /sys/module/$mod/parameters/sim 2>/dev/null)
case "$sim" in "" | "(null)") sim="" ;; esac
fam=$(awk '/^cpu family/ { print $4; exit }' /proc/cpuinfo)
model=$(awk '/^model\t/ { print $3; exit }' /proc/cpuinfo)
stepping=$(awk '/^stepping/ { print $3; exit }' /proc/cpuinfo)
if [ -n "$sim" ]; then
	p=${sim%%:*}
else
	case "$fam:$model" in
	6:45) p=snbep ;;
	6:62) p=ivbep ;;
	6:63) p=hsx ;;
	6:79) p=bdx ;;
	6:86) p=bdxde ;;
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
first_cpu() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$c/topology/physical_package_id" 2>/dev/null)" = "$1" ] && echo "${c##*cpu}"
	done | sort -n | head -1
}
# expand LIST: "0,2-3" as "0 2 3".
expand() { echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do [ -n "$a" ] && seq "$a" "${b:-$a}"; done | tr '\n' ' '; }
# each PMU-PREFIX TERMS: "PMU/TERMS/" for every PMU whose name starts so.
each() { for q in $(pmus | grep "^$1"); do printf '%s/%s/ ' "$q" "$2"; done; }
np=$(packages)

# The machine's PCI functions as "ADDRESS VENDOR:DEVICE" lines: the
# simulation's under sim= (its devices file), else the PCI bus's.
devices() {
	if [ -n "$sim" ]; then
		cat $DBG/devices
	else
		for d in /sys/bus/pci/devices/*; do
			[ -r "$d/device" ] || continue
			echo "${d##*/} $(sed 's/^0x//' "$d/vendor"):$(sed 's/^0x//' "$d/device")"
		done
	fi
}

# 1. The PMUs: the MSR ones of the platform, and the PCI ones for every
# device the machine has.
case "$p" in
snbep | ivbep) types="uncore_cbox_0 uncore_pcu uncore_ubox" ;;
hsx) types="uncore_cbox_0 uncore_pcu uncore_sbox_0 uncore_sbox_1 uncore_ubox" ;;
# Broadwell-EP parts may have no S-box (PCU CAPID4), Broadwell-DE has none.
bdx | bdxde) types="uncore_cbox_0 uncore_pcu uncore_ubox" ;;
nhmex | wsmex) types="uncore_bbox_0 uncore_bbox_1 uncore_cbox_0 uncore_mbox_0 uncore_mbox_1 uncore_rbox_0 uncore_rbox_1 uncore_sbox_0 uncore_sbox_1 uncore_ubox uncore_wbox" ;;
skl) types="uncore_arb uncore_cbox_0" ;;
xeon7100 | xeon7400) types="uncore_fsb uncore_gbsq uncore_gsnpq" ;;
*) types="" ;;
esac
if [ -z "$types" ]; then
	tap "$(skip "PMUs of the platform: unknown CPU (family $fam, model $model)")"
	row "MSR PMUs" "unknown CPU" "-"
else
	missing=""
	for t in $types; do [ -d "$DEV/$t" ] || missing="$missing $t"; done
	last=$(check "every MSR PMU of $p is registered${missing:+ (missing:$missing)}" [ -z "$missing" ]); tap "$last"
	row "MSR PMUs" "$(($(echo $types | wc -w) - $(echo $missing | wc -w))) of $(echo $types | wc -w)" "all"
fi
devices >"$tmp/devices"
# "PMU DEVICES" for each PCI PMU of the platform: how many of its
# functions the machine has.
awk -v p="$p" 'FILENAME == ARGV[1] { split($2, v, ":"); if (v[1] == "8086") have[v[2]]++; next }
	/^#/ || $1 != p { next }
	{ n[$3] += have[$2]; if (!($3 in seen)) { seen[$3] = 1; order[++k] = $3 } }
	END { for (i = 1; i <= k; i++) print order[i], n[order[i]] + 0 }' "$tmp/devices" "$HERE/pci-devices.tsv" >"$tmp/pcipmus"
if [ ! -s "$tmp/pcipmus" ]; then
	tap "$(skip "PCI boxes: $p has none")"
	row "PCI PMUs" "none on $p" "-"
else
	bad=""
	ndev=0
	npmu=0
	while read -r q k; do
		ndev=$((ndev + k))
		if [ "$k" = 0 ]; then
			[ ! -d "$DEV/$q" ] || bad="$bad $q(registered, no device)"
			continue
		fi
		npmu=$((npmu + 1))
		if [ ! -d "$DEV/$q" ]; then
			bad="$bad $q(missing; the machine has $k of its device)"
			continue
		fi
		c=$(expand "$(cat "$DEV/$q/cpumask")" | wc -w)
		[ "$c" = "$k" ] || bad="$bad $q($c CPUs in its cpumask for $k devices)"
	done <"$tmp/pcipmus"
	last=$(check "every uncore PCI device has its PMU, one cpumask CPU per device ($ndev devices)${bad:+:$bad}" [ -z "$bad" ]); tap "$last"
	row "PCI PMUs" "$ndev devices, $npmu boxes${bad:+,$bad}" "a PMU per box"
fi

# devs_of PREFIX: how many devices the machine has of the PCI PMUs whose
# name starts with PREFIX.
devs_of() { awk -v q="$1" 'index($1, q) == 1 { s += $2 } END { print s + 0 }' "$tmp/pcipmus"; }

# 2. The cpumasks of the other PMUs.
bad=""
for q in $(pmus); do
	awk -v q="$q" '$1 == q { f = 1 } END { exit !f }' "$tmp/pcipmus" && continue
	seen=""
	for c in $(expand "$(cat $DEV/$q/cpumask)"); do
		k=$(pkg_of "$c")
		case " $seen " in *" $k "*) bad="$bad $q(two CPUs of package $k)" ;; esac
		seen="$seen $k"
	done
	[ "$(echo $seen | wc -w)" = "$np" ] || bad="$bad $q($(echo $seen | wc -w) of $np packages)"
done
last=$(check "every other cpumask holds one CPU per package${bad:+:$bad}" [ -z "$bad" ]); tap "$last"
row "cpumasks" "$np packages" "one CPU each"

# 3. Every alias.
if [ -n "${SKIP_ALIASES:-}" ]; then
	last=$(skip "aliases: the caller checks them (SKIP_ALIASES)")
elif [ ! -x "$TOOLS/alias_check" ]; then
	last=$(not_ok "aliases: $TOOLS/alias_check is not built (run_tests.sh builds it with cc)")
else
	if [ -n "$sim" ]; then out=$("$TOOLS/alias_check" -n 77); else out=$("$TOOLS/alias_check" -o); fi
	printf '%s\n' "$out" | grep '^# ' | grep -v 'aliases checked' | head -20
	nok=$(printf '%s\n' "$out" | grep -c '^not ok')
	na=$(printf '%s\n' "$out" | sed -n 's/^# \([0-9]*\) aliases checked/\1/p')
	last=$(check "every alias of every PMU opens${sim:+ and counts exactly} (${na:-0} aliases, $nok failed)" [ "$nok" = 0 -a "${na:-0}" -gt 0 ])
fi
tap "$last"
row "aliases" "${na:--} opened, ${nok:--} failed" "all open"

# The traffic: load MODE PASSES writes $tmp/load.sh, what perf runs. On
# hardware, uncore_load; simulated, the same lines moved injected as the
# events they make (spread over the boxes of socket 0, or for remote
# reads over socket 1's QPI ports, which send the data).
load() {
	lines=$(($2 * MIB * 16384))
	if [ -z "$sim" ]; then
		if [ "$1" = remote ]; then
			echo "exec '$TOOLS/uncore_load' remote $MIB $2 $(first_cpu 1) $(first_cpu 0)" >"$tmp/load.sh"
		else
			echo "exec '$TOOLS/uncore_load' $1 $MIB $2" >"$tmp/load.sh"
		fi
		return
	fi
	case "$p:$1" in
	snbep:read | ivbep:read | hsx:read | bdx:read | bdxde:read) set -- "$(pmus | grep '^uncore_imc_')" 0 "event=0x4 umask=0x1" "$lines" ;;
	snbep:write | ivbep:write | hsx:write | bdx:write | bdxde:write) set -- "$(pmus | grep '^uncore_imc_')" 0 "event=0x4 umask=0x4" "$lines" ;;
	skl:read) set -- uncore_imc 0 "event=0x1" "$lines" ;;
	skl:write) set -- uncore_imc 0 "event=0x2" "$lines" ;;
	snbep:thrash | ivbep:thrash | hsx:thrash | bdx:thrash | bdxde:thrash) set -- "$(pmus | grep '^uncore_cbox_')" 0 "event=0x34 umask=0x1 state=0" "$lines" ;;
	skl:thrash) set -- "$(pmus | grep '^uncore_cbox_')" 0 "event=0x34 umask=0x8" "$lines" ;;
	nhmex:thrash | wsmex:thrash) set -- "$(pmus | grep '^uncore_cbox_')" 0 "event=0x14 umask=0x4" "$lines" ;;
	*:remote) set -- "$(pmus | grep '^uncore_qpi_')" 1 "event=0x0 umask=0x2" $((lines * 8)) ;;
	esac
	k=$(echo $1 | wc -w)
	i=0
	for q in $1; do
		c=$(($4 / k))
		[ "$i" != 0 ] || c=$((c + $4 % k))
		[ "$c" = 0 ] || echo "pmu=$q socket=$2 $3 count=$c"
		i=$((i + 1))
	done >"$tmp/inj"
	echo "cat '$tmp/inj' > $DBG/inject" >"$tmp/load.sh"
}
# measure EVENT...: perf stat -a of the events while $tmp/load.sh runs,
# as "EVENT COUNT" lines.
measure() {
	perf stat -a -x';' $(for e in "$@"; do printf ' -e %s' "$e"; done) -- sh "$tmp/load.sh" 2>&1 >/dev/null | csv_counts
}
# delta MODE EVENT...: the counts of the events in a run of 1 + K passes,
# less those of a run of 1 pass ("EVENT COUNT" lines in $tmp/b, $tmp/a).
delta() {
	m=$1
	shift
	load "$m" 1
	measure "$@" >"$tmp/a"
	load "$m" $((1 + K))
	measure "$@" >"$tmp/b"
}
# grown PATTERN: the growth, from $tmp/a to $tmp/b, of the events whose
# name has PATTERN ("-" if either run has no count).
grown() {
	a=$(sum_of "$1" <"$tmp/a")
	b=$(sum_of "$1" <"$tmp/b")
	case "$a$b" in *-*) echo - ;; *) awk -v a="$a" -v b="$b" 'BEGIN { printf "%.0f\n", b - a }' ;; esac
}
need_tools() { [ -n "$sim" ] || [ -x "$TOOLS/uncore_load" ]; }
no_tools="$TOOLS/uncore_load is not built (run_tests.sh builds it with cc)"
expected=$((K * MIB * 16384))

# 4. The uncore clock, per socket, over the time perf counted it.
case "$p" in
snbep | ivbep) clk="uncore_imc_0/event=0xff,umask=0x0/" lo=380 hi=980
	why="the iMC DCLK, half the DDR3 data rate: DDR3-800 to DDR3-1866 is 400 to 933 MHz, 5% margin" ;;
hsx | bdx | bdxde) clk="uncore_imc_0/event=0xff,umask=0x0/" lo=760 hi=1260
	why="the iMC DCLK, half the DDR4 data rate: DDR4-1600 to DDR4-2400 is 800 to 1200 MHz, 5% margin" ;;
nhmex | wsmex) clk="uncore_wbox/event=0xff,umask=0x0/" lo=1000 hi=3500
	why="the W-box counts the uncore clock: a plausible uncore frequency" ;;
skl) clk="uncore_cbox_0/event=0xff,umask=0x0/" lo=400 hi=5000
	why="C-box 0's fixed counter counts the ring (UCLK): 0.4 to 5 GHz on these client parts" ;;
*) clk="" ;;
esac
if [ -z "$clk" ]; then
	last=$(skip "uncore clock: $p has no fixed clock counter")
	fig="-" bnd="-"
elif [ ! -d "$DEV/${clk%%/*}" ] && [ "$(devs_of "${clk%%/*}")" = 0 ]; then
	last=$(skip "uncore clock: the machine has no device of ${clk%%/*} (a virtual machine?)")
	fig="no device" bnd="-"
elif [ ! -d "$DEV/${clk%%/*}" ]; then
	last=$(not_ok "uncore clock: ${clk%%/*} is not registered")
	fig="no ${clk%%/*}" bnd="[$lo, $hi] MHz"
elif ! need_tools; then
	last=$(not_ok "uncore clock: $no_tools")
	fig="-" bnd="[$lo, $hi] MHz"
else
	if [ -n "$sim" ]; then
		echo "sleep 1" >"$tmp/load.sh"
		echo 1 >$DBG/clock
	else
		load read 2
	fi
	# Per socket: count x 1000 / the time counted (ns) = MHz.
	mhz=$(perf stat -a --per-socket -x';' -e "$clk" -- sh "$tmp/load.sh" 2>&1 >/dev/null |
		awk -F';' '$1 ~ /^S[0-9]/ { printf "%s%s=%s", sep, $1, ($3 ~ /^[0-9]+$/ && $6 > 0) ? int($3 * 1000 / $6) : "-"; sep = " " }')
	[ -z "$sim" ] || echo 0 >$DBG/clock
	bad=$(echo "$mhz" | tr ' ' '\n' | awk -F= -v lo="$lo" -v hi="$hi" -v np="$np" '
		/=/ { k++; if ($2 !~ /^[0-9]+$/ || $2 < lo || $2 > hi) b = b " " $1 } END { if (k != np) b = b " (" k + 0 " of " np " sockets)"; print b }')
	last=$(check "$clk on each socket: ${mhz:-none} MHz, within [$lo, $hi] ($why)" [ -z "$bad" ])
	fig="${mhz:-none} MHz" bnd="[$lo, $hi] MHz"
fi
tap "$last"
row "uncore clock" "$fig" "$bnd"

# 5. IMC CAS counts, reading and then writing a buffer of known size.
case "$p" in
snbep | ivbep | hsx | bdx | bdxde) rd=$(each uncore_imc_ "event=0x4,umask=0x3") wr=$(each uncore_imc_ "event=0x4,umask=0xc") prd="umask=0x3/" pwr="umask=0xc/" ;;
skl) rd="uncore_imc/event=0x1/" wr="uncore_imc/event=0x2/" prd="event=0x1/" pwr="event=0x2/" ;;
*) rd="" prd="" ;;
esac
imc_dev=$(devs_of uncore_imc)
if [ -z "$prd" ]; then
	tap "$(skip "IMC CAS counts: $p has no CAS-count event")"
	row "IMC reads" "-" "-"
elif [ -z "$(pmus | grep '^uncore_imc')" ] && [ "$imc_dev" = 0 ]; then
	tap "$(skip "IMC CAS counts: the machine has no IMC device (a virtual machine?)")"
	row "IMC reads and writes" "no device" "-"
elif [ -z "$(pmus | grep '^uncore_imc')" ]; then
	tap "$(not_ok "IMC CAS counts: no uncore_imc PMU, and the machine has $imc_dev IMC devices")"
	row "IMC reads and writes" "no PMU" "-"
elif ! need_tools; then
	tap "$(not_ok "IMC CAS counts: $no_tools")"
	row "IMC reads and writes" "-" "-"
else
	delta read $rd $wr
	bounded "IMC CAS reads while reading $K x $MIB MiB" "$(grown "$prd")" "$expected" 0.85 1.30 "lines"
	bounded "IMC CAS writes meanwhile" "$(grown "$pwr")" "$expected" 0 0.10 "lines"
	delta write $rd $wr
	bounded "IMC CAS writes while writing $K x $MIB MiB (non-temporal)" "$(grown "$pwr")" "$expected" 0.95 1.30 "lines"
	bounded "IMC CAS reads meanwhile" "$(grown "$prd")" "$expected" 0 0.10 "lines"
	echo "# IMC bounds: each line of a buffer at least 13 times the largest LLC (37.5 MiB) is read from DRAM once"
	echo "# per pass, except what the LLC keeps across passes (under 8%: lower bound 0.85); non-temporal stores"
	echo "# write every line once and read none (0.95); the upper bounds leave room for an idle machine's own"
	echo "# traffic and the prefetchers' overrun (1.30, and 0.10 for the other direction)"
fi

# 6. LLC lookups against a pattern that misses L1 and L2 on every access.
case "$p" in
snbep) llc=$(each uncore_cbox_ "event=0x34,umask=0x3,filter_state=0x1f") what="LLC_LOOKUP.DATA_READ" lo=0.95 ;;
ivbep) llc=$(each uncore_cbox_ "event=0x34,umask=0x3,filter_state=0x3f") what="LLC_LOOKUP.DATA_READ" lo=0.95 ;;
hsx | bdx | bdxde) llc=$(each uncore_cbox_ "event=0x34,umask=0x3,filter_state=0x7f") what="LLC_LOOKUP.DATA_READ" lo=0.95 ;;
skl) llc=$(each uncore_cbox_ "event=0x34,umask=0x8f") what="CACHE_LOOKUP.ANY_MESI" lo=0.95 ;;
nhmex | wsmex) llc=$(each uncore_cbox_ "event=0x14,umask=0x7") what="LLC misses" lo=0.85 ;;
*) llc="" what="" ;;
esac
if [ -z "$what" ]; then
	tap "$(skip "LLC lookups: $p has no C-box lookup event")"
	row "LLC lookups" "-" "-"
elif [ -z "$llc" ]; then
	tap "$(not_ok "LLC lookups: no uncore_cbox PMU")"
	row "LLC lookups" "no PMU" "-"
elif ! need_tools; then
	tap "$(not_ok "LLC lookups: $no_tools")"
	row "LLC lookups" "-" "-"
else
	delta thrash $llc
	bounded "$what in all C-boxes, $K passes touching every line of $MIB MiB" "$(grown "uncore_cbox_")" "$expected" "$lo" 3.5 "lookups"
	echo "# LLC bounds: every access is to a line not touched for a whole pass, so it misses L1 and L2 and looks"
	echo "# up the LLC (NHM-EX/WSM-EX: misses it, but for what the LLC keeps across passes: 0.85); each access"
	echo "# is in another 4 KiB page, so a page walk's load and the L2's prefetch of the adjacent line may add"
	echo "# up to two lookups more (Intel: lookups include prefetches and repeats): 3.5"
fi

# 7. QPI data flits while socket 0 reads socket 1's memory.
case "$p" in snbep | ivbep | hsx | bdx) qpi=$(each uncore_qpi_ "event=0x0,umask=0x2") ;; *) qpi="" ;; esac
if [ -z "$qpi" ] && [ "$(devs_of uncore_qpi)" != 0 ]; then
	tap "$(not_ok "QPI remote reads: no uncore_qpi PMU, and the machine has $(devs_of uncore_qpi) QPI devices")"
	row "QPI data flits" "no PMU" "-"
elif [ -z "$qpi" ] || [ "$np" -lt 2 ]; then
	tap "$(skip "QPI remote reads: needs QPI PMUs ($p: ${qpi:+yes}${qpi:-none}) and two sockets ($np)")"
	row "QPI data flits" "-" "-"
elif ! need_tools; then
	tap "$(not_ok "QPI remote reads: $no_tools")"
	row "QPI data flits" "-" "-"
else
	delta remote $qpi
	bounded "QPI TxL data flits while CPU $(first_cpu 0) reads $K x $MIB MiB of socket 1's memory" \
		"$(grown "uncore_qpi_")" $((expected * 8)) 0.85 1.50 "flits"
	echo "# QPI bounds: a 64-byte line crosses QPI as 8 data flits (Intel: data flits x 8 bytes is the data"
	echo "# bandwidth); the local LLC may keep a few remote lines across passes (0.85); snoop and other traffic"
	echo "# of an idle machine (1.50). Automatic NUMA balancing may move pages during the run: turn it off"
	echo "# (sysctl kernel.numa_balancing=0) if this check fails low"
fi

# 8. Two counters of one event agree, PMIs or not.
case "$p" in
nhmex | wsmex)
	ev="uncore_cbox_0/event=0x14,umask=0x7/"
	if [ -n "$sim" ]; then
		big=281474976710000
		before=$(awk '$1 == "pmis_handled" { print $2 }' $DBG/stats)
		out=$(perf stat -a -x';' -e "{$ev}" -e "{$ev}" -- sh -c "
			for i in 1 2 3; do echo 'pmu=uncore_cbox_0 socket=0 programmed=1 count=$big' > $DBG/inject; done" 2>&1 >/dev/null |
			awk -F';' '$1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' ')
		pmis=$(($(awk '$1 == "pmis_handled" { print $2 }' $DBG/stats) - before))
		last=$(check "two counters of one event agree across $pmis PMI-signalled wraps: $out" [ "$out" = "$((3 * big)) $((3 * big)) " -a "$pmis" -ge 3 ])
		name="two counters, PMIs" fig="$out" bnd="both $((3 * big))"
	elif ! need_tools; then
		last=$(not_ok "two counters of one event: $no_tools")
		name="two counters" fig="-" bnd="-"
	else
		load thrash 2
		out=$(perf stat -a -x';' -e "{$ev}" -e "{$ev}" -- sh "$tmp/load.sh" 2>&1 >/dev/null |
			awk -F';' '$1 ~ /^[0-9]+$/ { print $1 }' | tr '\n' ' ')
		set -- $out
		d=$((${1:-0} > ${2:-0} ? ${1:-0} - ${2:-0} : ${2:-0} - ${1:-0}))
		last=$(check "two counters of one event agree within 0.1%: $out" [ -n "${2:-}" -a $((d * 1000)) -le "${1:-0}" ])
		name="two counters" fig="$out" bnd="within 0.1%"
	fi
	;;
*) last=$(skip "PMI and polling totals: only Nehalem-EX and Westmere-EX raise uncore PMIs"); name="two counters" fig="-" bnd="-" ;;
esac
tap "$last"
row "$name" "$fig" "$bnd"

# 9. A/B: this module, then intel_uncore.
[ "$ab" = 0 ] || ab_mode

summary
echo "1..$n"
rm -rf "$tmp"
return $failed
}

# ab_counts: the A/B events' figures with the driver loaded now, as
# "NAME VALUE" lines: the clock in MHz (all sockets), the other events'
# totals over one run of 2 passes of their traffic.
ab_counts() {
	if [ -n "$clk" ]; then
		load read 2
		perf stat -a -x';' -e "$clk" -- sh "$tmp/load.sh" 2>&1 >/dev/null |
			awk -F';' 'NF >= 4 { v = ($1 ~ /^[0-9]+$/ && $4 > 0) ? int($1 * 1000 / $4) : "-"; print "clock_mhz", v }'
	fi
	if [ -n "$rd" ]; then
		load read 2
		measure $rd $wr >"$tmp/m"
		echo "imc_reads $(sum_of "$prd" <"$tmp/m")"
		echo "imc_writes $(sum_of "$pwr" <"$tmp/m")"
	fi
	if [ -n "$llc" ]; then
		load thrash 2
		echo "llc $(measure $llc | sum_of uncore_cbox_)"
	fi
}

ab_mode() {
	tol=${AB_TOLERANCE:-0.10}
	if [ -n "$sim" ]; then
		tap "$(skip "A/B: compares this module with intel_uncore on the hardware; the simulation module is loaded")"
	elif ! need_tools; then
		tap "$(not_ok "A/B: $no_tools")"
	elif [ -z "$clk$rd$llc" ]; then
		tap "$(skip "A/B: $p has no event of the checks to compare")"
	elif ! ab_counts >"$tmp/ab.rust" || ! rmmod rust_uncore; then
		tap "$(not_ok "A/B: rmmod rust_uncore (perf still holding its events?)")"
	else
		if ! msg=$(${AB_C_LOAD:-modprobe intel_uncore} 2>&1); then
			tap "$(skip "A/B: intel_uncore could not be loaded: $msg")"
		elif [ -z "$(pmus)" ]; then
			tap "$(skip "A/B: intel_uncore registered no PMU")"
		else
			ab_counts >"$tmp/ab.c"
		fi
		rmmod intel_uncore 2>/dev/null
		${AB_RUST_LOAD:-modprobe rust_uncore}
		tap "$(check "A/B: rust_uncore is loaded again ($(pmus | wc -l) PMUs)" grep -q '^rust_uncore ' /proc/modules)"
		row "A/B: reload" "-" "-"
		[ -f "$tmp/ab.c" ] || { row "A/B" "-" "-"; return; }
		ab_compare "$tmp/ab.rust" "$tmp/ab.c" "$tol" >"$tmp/ab"
		while read -r e a b r v; do
			case "$v" in
			ok) tap "$(ok "A/B $e: rust_uncore $a, intel_uncore $b, ratio $r, within 1 +/- $tol")" ;;
			missing) tap "$(skip "A/B $e: intel_uncore could not count it (rust_uncore $a)")" ;;
			*) tap "$(not_ok "A/B $e: rust_uncore $a, intel_uncore $b, ratio $r, beyond 1 +/- $tol")" ;;
			esac
			row "A/B $e" "$a vs $b (ratio $r)" "1 +/- $tol"
		done <"$tmp/ab"
		echo "# A/B tolerance: two runs of the same traffic on an idle machine agree within a few percent; a"
		echo "# wrong encoding, a filter not applied or a wrap counted twice is off by far more"
		return
	fi
	row "A/B" "-" "-"
}

# The summary table: what a report needs besides the TAP lines.
summary() {
	version=$(cat /sys/module/$mod/version 2>/dev/null || modinfo -F version $mod 2>/dev/null)
	srcv=$(cat /sys/module/$mod/srcversion 2>/dev/null)
	echo "# ---- summary (attach this output to a report on the project's issue tracker) ----"
	echo "# platform: $p${sim:+ (simulated: sim=$sim)}, $np socket(s)"
	printf '# cpu: %s family 0x%x model 0x%x stepping %s: %s\n' \
		"$(awk -F': ' '/^vendor_id/ { print $2; exit }' /proc/cpuinfo)" "${fam:-0}" "${model:-0}" "${stepping:-?}" \
		"$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)"
	echo "# kernel: $(uname -r) ($(uname -v))"
	echo "# module: $mod${version:+ version $version}${srcv:+ srcversion $srcv}"
	echo "# perf: $(perf version 2>/dev/null)"
	echo "# buffer: $MIB MiB, $K passes counted (the difference of a 1 + $K and a 1 pass run)"
	awk -F'|' 'BEGIN { printf "# %-58s %-38s %-26s %s\n", "check", "figure", "bounds", "result" }
		{ printf "# %-58s %-38s %-26s %s\n", $1, $2, $3, $4 }' "$tmp/rows"
}

if [ -n "$report" ]; then
	st=$(mktemp)
	{ (main); echo $? >"$st"; } 2>&1 | tee "$report"
	rc=$(cat "$st")
	rm -f "$st"
	exit "$rc"
fi
main
exit $?

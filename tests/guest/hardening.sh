# SPDX-License-Identifier: GPL-2.0
#
# Helpers of the hardening tests (10-fuzz .. 14-permissions), sourced after
# lib.sh. Not a test itself (check.sh runs tests/guest/[0-9]*.sh).
#
# The long variants (scripts/stress.sh) set these in the environment:
#   FUZZ_N           attributes fuzzed per run of 10-fuzz (default 500)
#   FUZZ_SEED        base seed of 10-fuzz (default: from the platform)
#   CHURN_CYCLES     load/unload cycles per path in 11-churn (default 2)
#   HOTPLUG_ROUNDS   rounds of 12-hotplug-churn and 13-concurrency
#                    (default 1)
# Every test prints "# stat: NAME VALUE" lines that stress.sh adds up.

CPUS=/sys/devices/system/cpu

# stat_line NAME VALUE: a figure for the stress summary.
stat_line() {
	echo "# stat: $1 $2"
}

# uptime_s: seconds since boot (one decimal).
uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# elapsed T0: seconds since T0 (an uptime_s value).
elapsed() {
	awk -v t0="$1" '{ printf "%.1f", $1 - t0 }' /proc/uptime
}

# The package of every CPU, taken while every CPU is online (the guest
# runner brings them all back before each script): an offline CPU has no
# topology directory. PKG_MAP lines: "CPU PKG".
PKG_MAP=/tmp/hardening-pkgmap
if [ ! -s "$PKG_MAP" ] || [ "$(wc -l <"$PKG_MAP")" != "$(ls -d "$CPUS"/cpu[0-9]* | wc -l)" ]; then
	for _c in "$CPUS"/cpu[0-9]*; do
		echo "${_c##*cpu} $(cat "$_c/topology/physical_package_id")"
	done | sort -n >"$PKG_MAP"
fi

# pkg_of CPU: the package of CPU.
pkg_of() {
	awk -v c="$1" '$1 == c { print $2 }' "$PKG_MAP"
}

# cpus_of_pkg PKG: the CPUs of package PKG, ascending, space separated.
cpus_of_pkg() {
	awk -v k="$1" '$2 == k { printf "%s%s", s, $1; s = " " }' "$PKG_MAP"
}

# online_list: the online CPUs, comma separated.
online_list() {
	expand_list "$(cat "$CPUS/online")"
}

# is_online CPU
is_online() {
	case ",$(online_list)," in *",$1,"*) return 0 ;; esac
	return 1
}

# hotpluggable CPU: whether CPU can go offline (CPU 0 cannot on x86).
hotpluggable() {
	[ -w "$CPUS/cpu$1/online" ]
}

# set_online CPU 0|1: hotplugs CPU; counts the operation in HOTPLUG_OPS.
HOTPLUG_OPS=0
set_online() {
	echo "$2" >"$CPUS/cpu$1/online" || return 1
	HOTPLUG_OPS=$((HOTPLUG_OPS + 1))
}

# online_pkgs: the packages that have an online CPU, space separated.
online_pkgs() {
	read -r _l <"$CPUS/online"
	awk -v l="$_l" 'BEGIN { n = split(l, a, ","); for (i = 1; i <= n; i++) { r = split(a[i], b, "-")
			if (r == 1) b[2] = b[1]; for (c = b[1] + 0; c <= b[2] + 0; c++) on[c] = 1 } }
		($1 in on) && !($2 in seen) { seen[$2] = 1; printf "%s%s", s, $2; s = " " }' "$PKG_MAP"
}

# collector PMU PKG: the CPU of PKG in PMU's cpumask (empty if none).
collector() {
	for _c in $(expand_list "$(cat "$DEV/$1/cpumask")" | tr ',' ' '); do
		[ "$(pkg_of "$_c")" = "$2" ] && echo "$_c"
	done | head -1
}

# ABSENT: "PMU:PKG" words of boxes known to be gone (unplugged).
ABSENT=""

# cpumask_problems: every PMU's cpumask against the online CPUs: exactly one
# online CPU per package that has an online CPU and the box, none of other
# packages. Prints one line per problem (nothing when all is well).
cpumask_problems() {
	{
		read -r _l <"$CPUS/online"
		echo "online $_l"
		sed 's/^/pkg /' "$PKG_MAP"
		echo "absent $ABSENT"
		for _p in $(pmus); do
			_m=MISSING
			read -r _m <"$DEV/$_p/cpumask" 2>/dev/null
			echo "mask $_p ${_m:-EMPTY}"
		done
	} | awk '
	function expand(list, set,   n, parts, i, r, a, k) {
		n = split(list, parts, ",")
		for (i = 1; i <= n; i++) {
			if (parts[i] == "" || parts[i] == "EMPTY") continue
			r = split(parts[i], a, "-")
			if (r == 1) a[2] = a[1]
			for (k = a[1] + 0; k <= a[2] + 0; k++) set[k] = 1
		}
	}
	$1 == "online" { expand($2, on); for (c in on) haspkg[c] = 1 }
	$1 == "pkg" { pkg[$2] = $3 }
	$1 == "absent" { for (i = 2; i <= NF; i++) absent[$i] = 1 }
	$1 == "mask" {
		p = $2; m = $3
		if (m == "MISSING") { print p ": no cpumask file"; next }
		split("", set); split("", seen)
		expand(m, set)
		for (c in set) {
			if (!(c in on)) { print p ": cpumask [" m "] holds offline CPU " c; continue }
			k = pkg[c]
			if (k in seen) print p ": cpumask [" m "] holds two CPUs of package " k
			seen[k] = 1
			if ((p ":" k) in absent) print p ": cpumask [" m "] holds CPU " c " of package " k ", which has no such box"
		}
		split("", want)
		for (c in on) want[pkg[c]] = 1
		for (k in want) {
			if ((p ":" k) in absent) continue
			if (!(k in seen)) print p ": cpumask [" m "] has no CPU of package " k
		}
	}'
}

# modref: the module's reference count (open events hold one each), or
# "-" when it is not loaded.
modref() {
	awk '$1 == "rust_uncore" || $1 == "rust_uncore_sim" { print $3; found = 1 } END { if (!found) print "-" }' /proc/modules
}

# wait_modref N [SECONDS]: waits until the module's reference count is at
# least N (default limit 60 s); fails on the limit.
wait_modref() {
	_w=0
	_lim=$((${2:-60} * 10))
	while :; do
		_r=$(modref)
		[ "$_r" != "-" ] && [ "$_r" -ge "$1" ] && return 0
		_w=$((_w + 1))
		[ "$_w" -lt "$_lim" ] || return 1
		sleep 0.1
	done
}

# wait_file FILE [SECONDS]: waits until FILE is non-empty.
wait_file() {
	_w=0
	_lim=$((${2:-60} * 10))
	while [ ! -s "$1" ]; do
		_w=$((_w + 1))
		[ "$_w" -lt "$_lim" ] || return 1
		sleep 0.1
	done
}

# loaded: whether the driver (rust_uncore or rust_uncore_sim) is loaded.
loaded() {
	[ -n "$(loaded_module)" ]
}

# meminfo_detail: the /proc/meminfo figures that tell where memory went,
# as "KEY VALUE" lines; meminfo_change OLD NEW: their changes, on one line.
meminfo_detail() {
	awk '$1 ~ /^(MemFree|Cached|Shmem|AnonPages|Percpu|KernelStack|PageTables|SReclaimable|SUnreclaim|VmallocUsed):$/ { sub(":", "", $1); print $1, $2 }' /proc/meminfo
	echo "PerCPULists $(pcp_kb)"
}
meminfo_change() {
	printf '%s\n%s\n' "$1" "$2" | awk '
		{ if ($1 in v) { d[$1] = $2 - v[$1] } else { v[$1] = $2; o[++n] = $1 } }
		END { for (i = 1; i <= n; i++) printf "%s %+d ", o[i], d[o[i]]; print "" }'
}

# pcp_kb: the free pages the per-CPU page lists hold, in kB (MemFree does
# not count them, and with a few CPUs they move it by megabytes).
pcp_kb() {
	awk '$1 == "count:" { n += $2 } END { print n * 4 }' /proc/zoneinfo
}

# meminfo KEY: a /proc/meminfo value in kB.
meminfo() {
	awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo
}

# settle: frees what can be freed before a memory reading.
settle() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	sleep 0.2
}

# pmu_types: one PMU per box type and the last of each type (e.g.
# uncore_cbox_0 uncore_cbox_7 uncore_ha uncore_imc_0 uncore_imc_3 ...).
pmu_types() {
	for _p in $(pmus); do echo "${_p%_[0-9]*} $_p"; done | awk '
		{ n = split($2, a, "_"); idx = (a[n] ~ /^[0-9]+$/) ? a[n] + 0 : -1 }
		!($1 in first) { first[$1] = $2; fi[$1] = idx; order[++k] = $1 }
		{ if (!($1 in last) || idx > li[$1]) { last[$1] = $2; li[$1] = idx } }
		END { for (i = 1; i <= k; i++) { t = order[i]; print first[t]; if (last[t] != first[t]) print last[t] } }'
}

# overcommit_terms BOX K: the terms of the K-th distinct event of BOX (as in
# 03-count's multiplexing test) and its injection, "TERMS|INJECT".
overcommit_terms() {
	case "$1" in
	uncore_fsb) echo "fsb_submask=$((1 << $2))|event=0 sub=$(((1 << $2) << 32))" ;;
	*) echo "event=0x14,umask=$((1 << $2))|event=0x14 umask=$((1 << $2))" ;;
	esac
}

# stat_field FILE PMU [SOCKET]: the counts of PMU's event in a perf stat -x,
# output (with --per-socket: of SOCKET, e.g. S1), space separated.
stat_field() {
	if [ -n "${3:-}" ]; then
		awk -F, -v p=",$2/" -v s="$3" 'index($0, p) && $1 == s { print $3 }' "$1"
	else
		awk -F, -v p="$2/" 'index($0, p) == 1 || index($0, "," p) { print $1 }' "$1"
	fi
}

# problems_in FILE: perf stat output lines that report an error.
problems_in() {
	grep -iE 'not counted|not supported|error|failed|invalid|cannot|unable' "$1"
}

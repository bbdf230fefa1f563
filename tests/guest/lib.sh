# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers of the guest tests (sourced). Output is TAP version 13 with
# the plan at the end, as kselftest prints it; a script exits non-zero when
# any of its tests failed.

TESTS_DIR=/tests
DBG=/sys/kernel/debug/rust_uncore
DEV=/sys/bus/event_source/devices
tap_n=0
tap_failed=0

echo "TAP version 13"

ok() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n $*"
}

not_ok() {
	tap_n=$((tap_n + 1))
	tap_failed=$((tap_failed + 1))
	echo "not ok $tap_n $*"
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $*"
}

# check DESCRIPTION COMMAND...: one test, passing when COMMAND succeeds.
check() {
	desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# check_eq DESCRIPTION GOT WANT
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		echo "# got:  '$2'"
		echo "# want: '$3'"
	fi
}

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" -eq 0 ]
	exit $?
}

# wait_until TRIES CMD...: runs CMD every 50 ms until it succeeds, at most
# TRIES times; succeeds when CMD did. A test waits for the guest-side event
# it needs this way (bounded), never for a fixed time: a loaded host runs
# the guest late.
wait_until() {
	_w=$1
	shift
	while ! "$@"; do
		_w=$((_w - 1))
		[ "$_w" -gt 0 ] || return 1
		sleep 0.05
	done
}

# has_events PID: whether process PID holds perf_event files (perf's
# events are open).
has_events() {
	ls -l "/proc/$1/fd" 2>/dev/null | grep -q perf_event
}

# module_for [ARGS...]: the module ARGS are for: rust_uncore_sim with a
# sim= argument, else rust_uncore (the hardware only).
module_for() {
	for _a in "$@"; do
		case $_a in sim=*) echo rust_uncore_sim; return ;; esac
	done
	echo rust_uncore
}

# load [ARGS...]: insmod the module ARGS are for (quietly); fails like
# insmod.
load() {
	insmod "/lib/modules/$(module_for "$@").ko" "$@"
}

# loaded_module: the driver module loaded (rust_uncore or
# rust_uncore_sim), or nothing.
loaded_module() {
	awk '$1 == "rust_uncore" || $1 == "rust_uncore_sim" { print $1 }' /proc/modules
}

# log_refusals: where the kernel has dynamic debug (the stock kernels),
# the loaded driver's refusals are logged from now on: they are debug
# messages, off by default (the admin guide's command). Elsewhere they are
# logged, rate-limited, anyway.
log_refusals() {
	[ -e /proc/dynamic_debug/control ] || return 0
	echo "module $(loaded_module) +p" >/proc/dynamic_debug/control
}

# unload: rmmod the driver module loaded.
unload() {
	rmmod "$(loaded_module)"
}

# inject LINE...: one occurrence per argument into the simulation.
inject() {
	for l in "$@"; do
		echo "$l" >"$DBG/inject" || return 1
	done
}

# count EVENT [CMD...]: perf stat -a of EVENT while CMD runs (default: a
# short sleep); prints the counts, one per socket, as "S<n> <count>".
count() {
	ev=$1
	shift
	[ $# -gt 0 ] || set -- sleep 0.1
	perf stat -a --per-socket -x, -e "$ev" -- "$@" 2>&1 >/dev/null |
		awk -F, '/^S[0-9]/ { print $1, $3 }'
}

# total EVENT [CMD...]: the count over all sockets.
total() {
	ev=$1
	shift
	[ $# -gt 0 ] || set -- sleep 0.1
	perf stat -a -x, -e "$ev" -- "$@" 2>&1 >/dev/null | awk -F, 'NF > 2 && $1 ~ /^[0-9.]+$/ { print $1; exit }'
}

# pmus: the uncore PMUs registered, sorted, space separated.
pmus() {
	ls "$DEV" | grep '^uncore_' | sort | tr '\n' ' ' | sed 's/ $//'
}

# one_per_type: the first PMU of each uncore box type, one per line.
one_per_type() {
	for _p in $(ls -d $DEV/uncore_* 2>/dev/null | sort -V); do
		_p=${_p##*/}
		echo "${_p%_[0-9]*} $_p"
	done | awk '!($1 in seen) { seen[$1] = 1; print $2 }'
}

# sockets: the number of packages.
sockets() {
	cat /sys/devices/system/cpu/cpu*/topology/physical_package_id | sort -u | wc -l
}

# platform: the platform under test: sim=<name> from MODARGS, else the
# platform of the CPU (by CPUID family and model).
platform() {
	case " $MODARGS " in
	*" sim="*)
		echo "$MODARGS" | sed 's/.*sim=\([a-z0-9]*\).*/\1/'
		return ;;
	esac
	fam=$(awk '/^cpu family/ { print $4; exit }' /proc/cpuinfo)
	mod=$(awk '/^model\t/ { print $3; exit }' /proc/cpuinfo)
	case "$fam:$mod" in
	6:45) echo snbep ;;
	6:62) echo ivbep ;;
	6:63) echo hsx ;;
	6:79) echo bdx ;;
	6:86) echo bdxde ;;
	6:46) echo nhmex ;;
	6:47) echo wsmex ;;
	6:78 | 6:94 | 6:142 | 6:158 | 6:165 | 6:166) echo skl ;;
	15:6) echo xeon7100 ;;
	6:29) echo xeon7400 ;;
	*) echo unknown ;;
	esac
}

# seq_names PREFIX N: PREFIX_0 .. PREFIX_{N-1}
seq_names() {
	i=0
	while [ "$i" -lt "$2" ]; do
		printf '%s_%s\n' "$1" "$i"
		i=$((i + 1))
	done
}

# expected_msr_pmus PLATFORM CBOXES: the MSR-based PMUs, sorted.
expected_msr_pmus() {
	{
		case "$1" in
		snbep | ivbep) seq_names uncore_cbox "$2"; echo uncore_pcu; echo uncore_ubox ;;
		hsx | bdx) seq_names uncore_cbox "$2"; echo uncore_pcu; seq_names uncore_sbox 4; echo uncore_ubox ;;
		bdxde) seq_names uncore_cbox "$2"; echo uncore_pcu; echo uncore_ubox ;;
		nhmex | wsmex)
			seq_names uncore_bbox 2; seq_names uncore_cbox "$2"; seq_names uncore_mbox 2
			seq_names uncore_rbox 2; seq_names uncore_sbox 2; echo uncore_ubox; echo uncore_wbox ;;
		skl) echo uncore_arb; seq_names uncore_cbox "$2" ;;
		xeon7100 | xeon7400) echo uncore_fsb; echo uncore_gbsq; echo uncore_gsnpq ;;
		esac
	} | sort | tr '\n' ' ' | sed 's/ $//'
}

# expected_pci_pmus PLATFORM: the PCI and MMIO PMUs of the simulated part, sorted.
expected_pci_pmus() {
	{
		case "$1" in
		snbep) echo uncore_ha; seq_names uncore_imc 4; seq_names uncore_qpi 2; echo uncore_r2pcie; seq_names uncore_r3qpi 2 ;;
		ivbep | hsx | bdx) seq_names uncore_ha 2; seq_names uncore_imc 8; echo uncore_irp; seq_names uncore_qpi 3
			echo uncore_r2pcie; seq_names uncore_r3qpi 3 ;;
		bdxde) seq_names uncore_ha 2; seq_names uncore_imc 8; echo uncore_irp; echo uncore_r2pcie ;;
		skl) echo uncore_imc ;;
		esac
	} | sort | tr '\n' ' ' | sed 's/ $//'
}

# expected_sim_pmus PLATFORM: every PMU of the simulated part, sorted.
expected_sim_pmus() {
	echo "$(expected_msr_pmus "$1" "$(full_cboxes "$1")") $(expected_pci_pmus "$1")" | tr ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//'
}

# full_cboxes PLATFORM: the C-box count of the simulated part.
full_cboxes() {
	case "$1" in
	snbep | nhmex) echo 8 ;;
	ivbep) echo 15 ;;
	hsx) echo 18 ;;
	bdx | bdxde) echo 24 ;;
	wsmex) echo 10 ;;
	skl) echo 4 ;;
	*) echo 0 ;;
	esac
}

# sample PMU: "EVENT-TERMS|INJECT-ARGS" of an event the PMU's box counts.
sample() {
	case "$1" in
	uncore_pcu | uncore_ubox)
		if [ -e "$DEV/$1/format/umask" ]; then echo "event=0x14,umask=0x1|event=0x14 umask=0x1"; else echo "event=0x14|event=0x14"; fi ;;
	uncore_bbox_*) echo "event=0x7,counter=1|event=0x7 counter=1" ;;
	uncore_mbox_*) echo "inc_sel=0x6|event=0x6" ;;
	uncore_rbox_*) echo "event=0x0,iperf_cfg=0x80000000|event=0 sub=0x80000000" ;;
	uncore_gbsq | uncore_gsnpq) echo "agent_select=0x1|event=0 sub=0x100000000" ;;
	uncore_fsb) echo "fsb_submask=0x1|event=0 sub=0x100000000" ;;
	uncore_imc) echo "event=0x1|event=0x1" ;;
	*) echo "event=0x14,umask=0x1|event=0x14 umask=0x1" ;;
	esac
}

# expand_list LIST: a CPU list like 0-2,5 as 0,1,2,5.
expand_list() {
	echo "$1" | tr ',' '\n' | while IFS=- read -r a b; do
		[ -n "$a" ] || continue
		seq "$a" "${b:-$a}"
	done | tr '\n' ',' | sed 's/,$//'
}

# collectors PMU: the PMU's cpumask as an expanded list.
collectors() { expand_list "$(cat "$DEV/$1/cpumask")"; }

# pair PLATFORM: "BOX|TERMS-A|INJECT-A|TERMS-B|INJECT-B|N" for group tests:
# two events of one box and how many distinct events overcommit it.
pair() {
	case "$1" in
	snbep | ivbep | hsx | bdx | bdxde) echo "uncore_cbox_1|event=0x14,umask=0x1|event=0x14 umask=0x1|event=0x14,umask=0x2|event=0x14 umask=0x2|5" ;;
	skl) echo "uncore_cbox_1|event=0x14,umask=0x1|event=0x14 umask=0x1|event=0x14,umask=0x2|event=0x14 umask=0x2|3" ;;
	nhmex | wsmex) echo "uncore_cbox_1|event=0x14,umask=0x1|event=0x14 umask=0x1|event=0x14,umask=0x2|event=0x14 umask=0x2|7" ;;
	xeon7100 | xeon7400) echo "uncore_fsb|fsb_submask=0x1|event=0 sub=0x100000000|fsb_submask=0x2|event=0 sub=0x200000000|5" ;;
	esac
}

# readme_commands: every perf stat command of README.md, as written (in a
# fenced block or an indented one, with or without a "$ " prompt), one per
# line, each once.
readme_commands() {
	sed -n 's/^ *\(\$ \)\{0,1\}\(perf stat .*\)$/\2/p' "$TESTS_DIR/README.md" | awk '!seen[$0]++'
}

# readme_lists: every "$ perf list" command of README.md with the output
# lines it shows under it (up to the next prompt or blank line; "..." left
# out), as "cmd COMMAND" then "out LINE" lines, spaces squeezed.
readme_lists() {
	awk '/^ *\$ / { inlist = 0 }
	/^ *\$ perf list/ { c = $0; sub(/^ *\$ /, "", c); print "cmd " c; inlist = 1; next }
	/^ *$/ { inlist = 0 }
	inlist && $1 != "..." { l = $0; gsub(/ +/, " ", l); sub(/^ /, "", l); print "out " l }' "$TESTS_DIR/README.md"
}

# readme_sets PLATFORM COMMAND: the traffic that README COMMAND is run
# against under sim=PLATFORM, in sets: "set DESCRIPTION", then "inject
# LINE" for each occurrence injected while the command counts, then "want
# EVENT COUNT" for each event the command prints (the sum over the lines
# perf prints for it: sockets, intervals). Each command has traffic its
# events count (each count is the amount injected) and traffic they must
# not count (0). Fails for a command of another platform or one not here:
# a command added to the README needs its traffic here.
readme_sets() {
	case "$2" in
	"perf stat -a -e uncore_cbox_0/llc_lookup.data_read/ -- sleep 1")
		# UNC_C_LLC_LOOKUP (jaketown, ivytown uncore-cache.json): umask
		# bit 1 data reads, bit 2 writes; state= is the bit of the
		# line's state in filter_state (0 I .. 4 F on both parts).
		case $1 in snbep | ivbep) ;; *) return 1 ;; esac
		e=uncore_cbox_0/llc_lookup.data_read/
		echo "set data read lookups of lines in the states I, S and F, on both sockets"
		echo "inject pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x2 state=0 count=300"
		echo "inject pmu=uncore_cbox_0 socket=$(($(sockets) - 1)) event=0x34 umask=0x2 state=1 count=250"
		echo "inject pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x2 state=4 count=150"
		echo "want $e 700"
		echo "set write lookups in C-box 0, data read lookups in C-box 1"
		echo "inject pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x4 state=0 count=300"
		echo "inject pmu=uncore_cbox_1 socket=0 event=0x34 umask=0x2 state=0 count=200"
		echo "want $e 0" ;;
	"perf stat -a --per-socket -I 1000 -e uncore_imc/cas_count_read/,uncore_imc/cas_count_write/ -- sleep 5")
		# UNC_M_CAS_COUNT (jaketown, ivytown uncore-memory.json): umask
		# 0x3 reads (RD_REG, RD_UNDERFILL), 0xc writes (WR_WMM,
		# WR_RMM); 16384 CAS commands of 64 bytes are 1 MiB.
		case $1 in snbep | ivbep) ;; *) return 1 ;; esac
		r=uncore_imc/cas_count_read/ w=uncore_imc/cas_count_write/
		echo "set reads on two channels of each socket"
		echo "inject pmu=uncore_imc_0 socket=0 event=0x4 umask=0x1 count=16384"
		echo "inject pmu=uncore_imc_3 socket=0 event=0x4 umask=0x2 count=32768"
		echo "inject pmu=uncore_imc_1 socket=1 event=0x4 umask=0x1 count=8192"
		echo "want $r 3.50"
		echo "want $w 0"
		echo "set writes on two channels"
		echo "inject pmu=uncore_imc_2 socket=1 event=0x4 umask=0x4 count=16384"
		echo "inject pmu=uncore_imc_0 socket=0 event=0x4 umask=0x8 count=16384"
		echo "want $r 0"
		echo "want $w 2.00" ;;
	"perf stat -a -e uncore_cbox_0/llc_hits.all/ -- sleep 1")
		# LLC_HITS (325294 section 2.4.6): umask bits M, E, S, F;
		# LLC_MISSES (event 0x14) are not hits.
		case $1 in nhmex | wsmex) ;; *) return 1 ;; esac
		e=uncore_cbox_0/llc_hits.all/
		echo "set hits of lines in the states M, E, S and F, on both sockets"
		echo "inject pmu=uncore_cbox_0 socket=0 event=0x15 umask=0x1 count=100"
		echo "inject pmu=uncore_cbox_0 socket=1 event=0x15 umask=0x2 count=200"
		echo "inject pmu=uncore_cbox_0 socket=0 event=0x15 umask=0x4 count=300"
		echo "inject pmu=uncore_cbox_0 socket=1 event=0x15 umask=0x8 count=400"
		echo "want $e 1000"
		echo "set misses in C-box 0, hits in C-box 1"
		echo "inject pmu=uncore_cbox_0 socket=0 event=0x14 umask=0x7 count=500"
		echo "inject pmu=uncore_cbox_1 socket=0 event=0x15 umask=0xf count=500"
		echo "want $e 0" ;;
	"perf stat -a -e uncore_cbox_0/cache_lookup.any_mesi/ -- sleep 1")
		# UNC_CBO_CACHE_LOOKUP (skylake uncore-cache.json): umask bits
		# 0-3 the line's state (M, E, S, I), bits 4-7 the request
		# (read, write, ..., any 0x80).
		case $1 in skl) ;; *) return 1 ;; esac
		e=uncore_cbox_0/cache_lookup.any_mesi/
		echo "set reads and writes of lines in the states M, E, S and I"
		echo "inject pmu=uncore_cbox_0 event=0x34 umask=0x11 count=100"
		echo "inject pmu=uncore_cbox_0 event=0x34 umask=0x22 count=200"
		echo "inject pmu=uncore_cbox_0 event=0x34 umask=0x14 count=300"
		echo "inject pmu=uncore_cbox_0 event=0x34 umask=0x18 count=400"
		echo "want $e 1000"
		echo "set snoop responses in C-box 0, lookups in C-box 1"
		echo "inject pmu=uncore_cbox_0 event=0x22 umask=0x41 count=500"
		echo "inject pmu=uncore_cbox_1 event=0x34 umask=0x11 count=500"
		echo "want $e 0" ;;
	"perf stat -a -e UNC_M_CAS_COUNT.RD,UNC_M_CAS_COUNT.WR -- sleep 1")
		# perf's own names (jaketown, ivytown uncore-memory.json):
		# UNC_M_CAS_COUNT.RD umask 0x3 (RD_REG 0x1, RD_UNDERFILL 0x2),
		# .WR umask 0xc (WR_WMM 0x4, WR_RMM 0x8), over every iMC PMU.
		case $1 in snbep | ivbep) ;; *) return 1 ;; esac
		echo "set reads and writes of each kind on both sockets"
		echo "inject pmu=uncore_imc_0 socket=0 event=0x4 umask=0x1 count=16384"
		echo "inject pmu=uncore_imc_1 socket=$(($(sockets) - 1)) event=0x4 umask=0x2 count=8192"
		echo "inject pmu=uncore_imc_2 socket=0 event=0x4 umask=0x4 count=4096"
		echo "inject pmu=uncore_imc_3 socket=$(($(sockets) - 1)) event=0x4 umask=0x8 count=2048"
		echo "want UNC_M_CAS_COUNT.RD 24576"
		echo "want UNC_M_CAS_COUNT.WR 6144"
		echo "arm imc_[0-9]+"
		echo "set activates (UNC_M_ACT_COUNT), no CAS command"
		echo "inject pmu=uncore_imc_0 socket=0 event=0x1 umask=0x0 count=5000"
		echo "want UNC_M_CAS_COUNT.RD 0"
		echo "want UNC_M_CAS_COUNT.WR 0"
		echo "arm imc_[0-9]+" ;;
	"perf stat -a -M DRAM_BW_Use -- sleep 1")
		# perf's metric (jaketown, ivytown metrics json, perf 6.1):
		# 64 * (cas_count_read + cas_count_write) / 1e9 / duration_time,
		# over the raw CAS counts (perf prints the events in MiB).
		case $1 in snbep | ivbep) ;; *) return 1 ;; esac
		r=uncore_imc/cas_count_read/ w=uncore_imc/cas_count_write/
		echo "set 1.5 GiB read and 256 MiB written"
		echo "inject pmu=uncore_imc_0 socket=0 event=0x4 umask=0x1 count=16777216"
		echo "inject pmu=uncore_imc_3 socket=$(($(sockets) - 1)) event=0x4 umask=0x2 count=8388608"
		echo "inject pmu=uncore_imc_1 socket=0 event=0x4 umask=0x4 count=4194304"
		echo "want $r 1536"
		echo "want $w 256"
		echo "metric DRAM_BW_Use $(awk 'BEGIN { printf "%.9f\n", 64 * 29360128 / 1e9 }')"
		echo "set activates, no CAS command"
		echo "inject pmu=uncore_imc_0 socket=0 event=0x1 umask=0x0 count=5000"
		echo "want $r 0"
		echo "want $w 0"
		echo "metric DRAM_BW_Use 0" ;;
	*) return 1 ;;
	esac
}

# readme_count EVENT: the sum of EVENT's counts in perf stat's output
# (stdin), over every line that names it (sockets, intervals), with two
# decimals ("-" when a line has no count, or none names it).
readme_count() {
	awk -v ev="$1" '{
		for (i = 2; i <= NF; i++) if ($i == ev) {
			j = i - 1
			if ($j !~ /^[0-9][0-9,.]*$/) j--
			v = $j; gsub(/,/, "", v)
			if (v !~ /^[0-9]+(\.[0-9]+)?$/) bad = 1; else s += v
			n++
		}
	} END { if (!n || bad) print "-"; else printf "%.2f\n", s }'
}

# readme_armed BOX...: whether, on every socket, every simulated box whose
# name (in the regs file: cbox_0, imc_2) matches one of the extended
# patterns BOX has a counter enabled (its control's bit 22, or on
# Nehalem-EX and Westmere-EX, whose disabled counters have a zero
# control, any bit).
readme_armed() {
	awk -v pats="$*" -v nz="$(case $(platform) in nhmex | wsmex) echo 1 ;; *) echo 0 ;; esac)" '
	function hex(s,  v, k) {
		s = tolower(s); sub(/^0x/, "", s); v = 0
		for (k = 1; k <= length(s); k++) v = v * 16 + index("0123456789abcdef", substr(s, k, 1)) - 1
		return v
	}
	BEGIN { np = split(pats, p, " ") }
	$1 == "socket" && $4 == "box_ctl" {
		for (k = 1; k <= np; k++) if ($3 ~ ("^" p[k] "$")) {
			seen++; on = 0
			for (i = 8; i <= NF && $i != "fixed"; i++) {
				c = hex(substr($i, 1, index($i, ":") - 1))
				if (nz ? c != 0 : int(c / 4194304) % 2 == 1) on = 1
			}
			if (!on) off = 1
		}
	} END { exit !(seen && !off) }' "$DBG/regs"
}

# readme_run PLATFORM COMMAND: README COMMAND run as written under the
# simulation of PLATFORM (loaded), once per traffic set of readme_sets:
# once perf has enabled its counters, the set's occurrences are injected
# (while the command's own sleep runs), and each count perf prints must be
# the set's. Fails when readme_sets has no traffic for it.
readme_run() {
	readme_sets "$1" "$2" >/tmp/readme.sets || return 1
	readme_play "$2"
}

# readme_play COMMAND: COMMAND run once per traffic set of /tmp/readme.sets
# (in readme_sets' form, with "metric" and "arm" lines too: readme_set).
readme_play() {
	echo "set -" >>/tmp/readme.sets
	_desc=""
	while read -r _k _rest; do
		case $_k in
		set)
			if [ -n "$_desc" ]; then readme_set "$1" "$_desc"; fi
			_desc=$_rest
			: >/tmp/readme.inject
			: >/tmp/readme.want
			: >/tmp/readme.metric
			: >/tmp/readme.arm ;;
		inject) echo "$_rest" >>/tmp/readme.inject ;;
		want) echo "$_rest" >>/tmp/readme.want ;;
		metric) echo "$_rest" >>/tmp/readme.metric ;;
		arm) echo "$_rest" >>/tmp/readme.arm ;;
		esac
	done </tmp/readme.sets
}

# readme_set COMMAND DESCRIPTION: one set of readme_run (its injections in
# /tmp/readme.inject, its counts in /tmp/readme.want, its metrics in
# /tmp/readme.metric: "NAME AMOUNT", the value perf prints for metric NAME
# must be AMOUNT per second of the duration_time perf prints, to the two
# decimals perf prints; the boxes perf must have armed before the
# injections, when the counts' event names do not say them, in
# /tmp/readme.arm: imc_[0-9]+).
readme_set() {
	_boxes=$(cat /tmp/readme.arm 2>/dev/null)
	[ -n "$_boxes" ] || _boxes=$(awk '{ b = $1; sub(/\/.*/, "", b); sub(/^uncore_/, "", b)
		if (b !~ /_[0-9]+$/) b = b "_[0-9]+"; print b }' /tmp/readme.want | sort -u | tr '\n' ' ')
	sh -c "$1" >/tmp/readme.out 2>&1 &
	_pid=$!
	if wait_until 400 readme_armed $_boxes; then
		_ok=1
		while read -r _l; do inject "$_l" || _ok=0; done </tmp/readme.inject
		check_eq "$1, $2: perf had enabled its counters, the injections were taken" "$_ok" 1
	else
		not_ok "$1, $2: perf enabled its counters ($_boxes) within 20 s"
	fi
	wait "$_pid"
	_rc=$?
	sed 's/^/# /' /tmp/readme.out
	check_eq "$1, $2: perf's exit status" "$_rc" 0
	while read -r _e _n; do
		check_eq "$1, $2: $_e" "$(readme_count "$_e" </tmp/readme.out)" "$(awk -v n="$_n" 'BEGIN { printf "%.2f\n", n }')"
	done </tmp/readme.want
	[ -s /tmp/readme.metric ] || return 0
	_ns=$(readme_count duration_time </tmp/readme.out)
	while read -r _m _a; do
		_got=$(readme_count "$_m" </tmp/readme.out)
		_want=$(awk -v a="$_a" -v ns="$_ns" 'BEGIN { if (ns + 0 > 0) printf "%.4f\n", a / (ns / 1e9); else print "-" }')
		if awk -v g="$_got" -v w="$_want" 'BEGIN { d = g - w; exit !(g ~ /^[0-9.]+$/ && w != "-" && d <= 0.0051 && d >= -0.0051) }'; then
			ok "$1, $2: metric $_m $_got ($_a / $_ns ns = $_want)"
		else
			not_ok "$1, $2: metric $_m"
			echo "# got:  '$_got'"
			echo "# want: '$_want' ($_a / $_ns ns)"
		fi
	done </tmp/readme.metric
}

# stock_load: README.md's stock-load block, run as a user types it (a
# command that fails does not stop the next), and what it must do:
# modprobe loads rust_uncore with the C driver blacklisted, the PMUs are
# listed, perf counts the README's event: 0 on the hardware path, whose
# counters read 0 in QEMU; then rmmod. Where the simulation module is
# there, the block's perf command runs again under the simulation of the
# CPU model (readme_run): it counts traffic its event selects exactly, and
# traffic it does not select not at all.
stock_load() {
	sed -n '/^<!-- stock-load:/,/^<!-- \/stock-load -->/p' "$TESTS_DIR/README.md" |
		sed -n '/^```/,/^```/p' | sed '/^```/d' >/tmp/load.sh
	check "README.md has a stock-load block" [ -s /tmp/load.sh ]
	mkdir -p /etc/modprobe.d
	out=$(sh /tmp/load.sh 2>&1)
	echo "$out" | sed 's/^/# /'
	check "modprobe loaded rust_uncore" grep -q '^rust_uncore ' /proc/modules
	check "the blacklist file is written" grep -qx 'blacklist intel_uncore' /etc/modprobe.d/rust-uncore.conf
	check "the PMUs are listed" sh -c "echo \"\$1\" | grep -qx uncore_cbox_0" sh "$out"
	_cmd=$(sed -n 's/^\(perf stat .*\)$/\1/p' /tmp/load.sh)
	check_eq "the block has one perf stat command" "$(echo "$_cmd" | grep -c .)" 1
	_p=$(platform)
	if readme_sets "$_p" "$_cmd" >/tmp/load.sets; then
		for _e in $(awk '$1 == "want" { print $2 }' /tmp/load.sets | sort -u); do
			check_eq "perf counts the README's $_e: 0, as QEMU's registers read" \
				"$(echo "$out" | readme_count "$_e")" 0.00
		done
	else
		not_ok "the block's perf command is one of 43-readme-commands.sh's, for $_p: $_cmd"
	fi
	check "rmmod" rmmod rust_uncore
	if [ -f /lib/modules/rust_uncore_sim.ko ]; then
		if load "sim=$_p:$(sockets)"; then
			readme_run "$_p" "$_cmd"
			check "rmmod rust_uncore_sim" unload
		else
			not_ok "insmod rust_uncore_sim.ko sim=$_p:$(sockets)"
		fi
	fi
}

# pmi_wraps N SOCKET: the total perf counts of uncore_cbox_1's event 0x14
# umask 0x1 while N injections of $PMI_BIG (2^48 - 656) occurrences each
# reach socket SOCKET's C-box 1: each after the first wraps its 48-bit
# counter (the PMI tests).
PMI_BIG=281474976710000
pmi_wraps() {
	: >/tmp/wraps.sh
	_i=0
	while [ "$_i" -lt "$1" ]; do
		echo "echo 'pmu=uncore_cbox_1 socket=$2 event=0x14 umask=0x1 count=$PMI_BIG' > $DBG/inject" >>/tmp/wraps.sh
		_i=$((_i + 1))
	done
	total uncore_cbox_1/event=0x14,umask=0x1/ sh /tmp/wraps.sh
}

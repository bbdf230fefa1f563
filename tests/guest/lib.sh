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
		ivbep) seq_names uncore_ha 2; seq_names uncore_imc 8; echo uncore_irp; seq_names uncore_qpi 3
			echo uncore_r2pcie; seq_names uncore_r3qpi 3 ;;
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
	snbep | ivbep) echo "uncore_cbox_1|event=0x14,umask=0x1|event=0x14 umask=0x1|event=0x14,umask=0x2|event=0x14 umask=0x2|5" ;;
	skl) echo "uncore_cbox_1|event=0x14,umask=0x1|event=0x14 umask=0x1|event=0x14,umask=0x2|event=0x14 umask=0x2|3" ;;
	nhmex | wsmex) echo "uncore_cbox_1|event=0x14,umask=0x1|event=0x14 umask=0x1|event=0x14,umask=0x2|event=0x14 umask=0x2|7" ;;
	xeon7100 | xeon7400) echo "uncore_fsb|fsb_submask=0x1|event=0 sub=0x100000000|fsb_submask=0x2|event=0 sub=0x200000000|5" ;;
	esac
}

# stock_load: README.md's stock-load block, run as a user types it (a
# command that fails does not stop the next), and what it must do:
# modprobe loads rust_uncore with the C driver blacklisted, the PMUs are
# listed, perf counts the README's event; then rmmod.
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
	check "perf counts the README's event" \
		sh -c "echo \"\$1\" | grep -qE '^ +[0-9,]+ +uncore_cbox_0/event=0x34,umask=0x8f/'" sh "$out"
	check "rmmod" rmmod rust_uncore
}

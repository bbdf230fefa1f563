#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The benchmarks (make bench; not part of make check). Prints, under a
# header with the date, the commit, the machine kind and the tool versions:
#   timing   the host timing benchmark of the core (benches/bench.rs, the
#            uncore-bench binary): median, minimum and maximum time per
#            operation; these figures vary from run to run
#   table 3  the host cost of the pure core: instructions per operation,
#            counted by callgrind (benches/callgrind.rs, the
#            uncore-callgrind binary), which repeat exactly for one build
#   table 4  its footprint part: the size of rust_uncore.ko and of the
#            kernel's C driver intel-uncore.ko, built for the same test
#            kernel, on the nodebug kernel (production-like) and the debug
#            one (KASAN and lockdep instrument both)
#   table 1  register accesses per perf operation, in one QEMU guest per
#            platform on the debug kernel (benches/guest/ops.sh): MSR
#            accesses from the msr tracepoints, given to the callback on
#            their stack trace, ours and the C driver's; and under sim= the
#            register model's counts for every box type (PCI and MMIO too)
#   table 2  read latency in the guest, ours and the C driver's, alternating
#            in one boot (benches/guest/latency.sh), on the nodebug, debug
#            and Debian stock kernels, where the C driver registers in QEMU
#   table 4  its polling part, from the same guests (every platform on the
#            nodebug kernel): the poll timer's interval and wakeups per hour
#            per active box, ours and the C driver's; and the
#            insmod-to-PMUs-registered time
#
# Tables 1, 2 and 4 are the figures of Documentation/developer.rst
# ("Register accesses per perf operation", "Read latency, polling and load
# time", "Module size"), which are updated from this output by hand.
#
# It installs what is missing (scripts/install-deps.sh) and builds (or
# reuses) the nodebug and debug kernels and the stock kernel's tree (as
# make check does) and the module for them; that
# progress goes to standard error, the tables to standard output. A table
# that cannot be made is reported and the others are still printed; the
# exit status is then 1.
#
# Usage: scripts/bench.sh [timing|1|2|3|4]...   (default: all of them)
# Environment: CALLGRIND_N, the runs of each operation under callgrind
#   (default 1000; the figures do not depend on it).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$REPO_DIR"

VALGRIND=/usr/bin/valgrind
CALLGRIND_N=${CALLGRIND_N:-1000}
# The kernels of table 4.
FOOTPRINT_KERNELS=(nodebug debug)

parts=()
for a in "$@"; do
	case "$a" in
	timing|1|2|3|4) parts+=("$a") ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "bench: unknown argument '$a' (see --help)" >&2; exit 2 ;;
	esac
done
[ ${#parts[@]} -gt 0 ] || parts=(timing 1 2 3 4)
# wants PART: whether PART is to be printed.
wants() {
	local p
	for p in "${parts[@]}"; do [ "$p" != "$1" ] || return 0; done
	return 1
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# build_bin NAME ARGS...: builds the binary NAME of the crate with cargo
# (offline first: the dependencies are usually there already) and prints
# its path; cargo's messages go to standard error on a failure.
build_bin() {
	local name=$1 out
	shift
	out=$(cargo build --bin "$name" "$@" --message-format=json-render-diagnostics --offline 2>"$tmp/cargo.log" ||
		cargo build --bin "$name" "$@" --message-format=json-render-diagnostics 2>"$tmp/cargo.log") || {
		cat "$tmp/cargo.log" >&2
		return 1
	}
	out=$(printf '%s\n' "$out" | grep -o "\"executable\":\"[^\"]*/$name\"" | tail -1 | cut -d'"' -f4)
	[ -x "$out" ] || { echo "bench: cargo built no $name binary" >&2; return 1; }
	echo "$out"
}

# The header: date, commit, machine kind, tools.
header() {
	local cpu virt os mem commit
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
	if command -v systemd-detect-virt >/dev/null 2>&1 && virt=$(systemd-detect-virt 2>/dev/null); then
		virt="virtual machine or container ($virt)"
	elif grep -qw hypervisor /proc/cpuinfo; then
		virt="virtual machine"
	else
		virt="bare metal"
	fi
	os=$(. /etc/os-release 2>/dev/null && echo "${PRETTY_NAME:-}")
	mem=$(awk '/^MemTotal:/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
	commit=$(git describe --always --dirty 2>/dev/null || echo "not a git checkout")
	echo "rust_uncore benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit"
	echo "machine: $(uname -m), ${cpu:-unknown CPU}, $(nproc) CPUs, $mem, $virt"
	echo "system: ${os:-unknown}, Linux $(uname -r)"
	echo "tools: $("$RUSTC" --version), $("$VALGRIND" --version 2>/dev/null || echo "no valgrind")"
	echo "made by this script: the timing benchmark and tables 1 to 4"
}

# Timing: benches/bench.rs (release build).
table_timing() {
	echo "Host timing benchmark of the core (benches/bench.rs; wall-clock time, varies between runs)"
	local bin
	bin=$(build_bin uncore-bench --release)
	"$bin"
}

# Table 1: register accesses per perf operation (event_init, add, start,
# read, stop, del, one poll tick, one PMI) for each box kind of each
# platform, counted in the guest (msr tracepoints, register model), next to
# the minimum and to the C driver's count. A guest measurement: not made yet.
# The platforms of the guest tables: name, QEMU CPU model, topology,
# simulation arguments.
GUEST_PLATFORMS=(
	"snbep|SandyBridge,model=45,-hypervisor|4,sockets=2,cores=2|sim=snbep:2"
	"ivbep|IvyBridge,model=62,-hypervisor|4,sockets=2,cores=2|sim=ivbep:2"
	"nhmex|Nehalem,model=46,-hypervisor|4,sockets=2,cores=2|sim=nhmex:2"
	"wsmex|Westmere,model=47,-hypervisor|4,sockets=2,cores=2|sim=wsmex:2"
	"skl|Skylake-Client,-hypervisor|4,sockets=1,cores=4|sim=skl"
	"xeon7100|qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor|2,sockets=2,cores=1|sim=xeon7100:2"
	"xeon7400|Penryn,model=29,-hypervisor|4,sockets=4,cores=1|sim=xeon7400:4"
)
# Reads per measured event in table 1 (benches/guest/ops.sh's default).
BENCH_READS=100

# Table 1: register accesses per perf operation, from the guest
# (benches/guest/ops.sh) on the debug kernel (its ORC unwinder gives the
# stack traces that attribute each MSR access to a callback).
table_1() {
	local line name cpu smp sim
	prepare_kernel debug
	for line in "${GUEST_PLATFORMS[@]}"; do
		IFS='|' read -r name cpu smp sim <<<"$line"
		echo "bench: table 1: $name guest" >&2
		"$here/guest.sh" --quiet --kernel debug --no-load --cpu "$cpu" --smp "$smp" --modargs "$sim" \
			--timeout 1200 --script "$REPO_DIR/benches/guest/ops.sh" >"$tmp/ops.$name" 2>&1 || true
	done
	echo "Table 1. Register accesses per perf operation (r = reads, w = writes), one event of"
	echo "         each box type (its clockticks alias, else its first), in a QEMU guest, debug kernel"
	echo "Hardware path (MSR boxes, both drivers where the C one registers the box): every access"
	echo "counted from the msr:read_msr/write_msr tracepoints and given to the callback on its stack"
	echo "trace; read is per call ($BENCH_READS calls); pmu_dis/en: the pmu_disable/pmu_enable pairs"
	echo "perf wraps around event installation, add and del (three pairs)."
	printf '%-9s %-16s %-6s %10s %6s %6s %6s %6s %6s %9s %6s\n' platform pmu driver \
		event_init add start read stop del pmu_dis/en other
	for line in "${GUEST_PLATFORMS[@]}"; do
		IFS='|' read -r name _ <<<"$line"
		awk -v plat="$name" -v reads="$BENCH_READS" -f "$here/../benches/table1-hw.awk" "$tmp/ops.$name"
	done
	echo
	echo "Simulation (sim=, every box type, PCI and MMIO ones too): the accesses the driver made,"
	echo "counted by the register model, per system call (enable = pmu_dis/en + add + start;"
	echo "disable = pmu_dis/en + stop + del); read per call; poll = one tick of the polling;"
	echo "PMI = an overflow's NMI walk (NHM-EX/WSM-EX: a wrapping injection, less its poll tick)."
	echo "mr/mw = MSR read/write, cr/cw = PCI configuration dword read/write, or = MMIO dword read."
	printf '%-9s %-18s %8s %10s %8s %10s %8s %8s %12s\n' platform pmu open enable read disable close poll PMI
	for line in "${GUEST_PLATFORMS[@]}"; do
		IFS='|' read -r name _ <<<"$line"
		awk -v plat="$name" -v reads="$BENCH_READS" -f "$here/../benches/table1-sim.awk" "$tmp/ops.$name"
		grep -E '^# .*(FAIL|failed|bad alias|no alias)' "$tmp/ops.$name" | sed "s/^# /  ($name) /" | head -5 || true
	done
}

# The guests of table 2 and of table 4's polling part
# (benches/guest/latency.sh): every platform on the nodebug kernel, the
# ones where the C driver registers in QEMU (table 2's) on the debug one
# and on Debian's stock kernel too. All vCPUs in one QEMU thread
# (thread=single): the measured vCPU then never waits for a host core
# behind the others.
LATENCY_PLATFORMS=(wsmex snbep skl)
LATENCY_KERNELS=(nodebug debug stock)
latency_guests() {
	local v line name cpu smp sim
	[ ! -f "$tmp/latency.done" ] || return 0
	for v in "${LATENCY_KERNELS[@]}"; do
		prepare_kernel "$v"
		for line in "${GUEST_PLATFORMS[@]}"; do
			IFS='|' read -r name cpu smp sim <<<"$line"
			if [ "$v" != nodebug ] && [[ " ${LATENCY_PLATFORMS[*]} " != *" $name "* ]]; then
				continue
			fi
			echo "bench: tables 2 and 4: $name guest, $v kernel" >&2
			TCG_OPTS=thread=single "$here/guest.sh" --quiet --kernel "$v" --no-load --cpu "$cpu" \
				--smp "$smp" --modargs "$sim" --timeout 1200 \
				--script "$REPO_DIR/benches/guest/latency.sh" >"$tmp/lat.$v.$name" 2>&1 || true
		done
	done
	touch "$tmp/latency.done"
}

# Table 2: read latency in the guest, ours and the C driver's, with the
# ratio, on the nodebug, debug and stock kernels.
table_2() {
	local v name
	latency_guests
	echo "Table 2. Read latency in the guest: ns per read() of one counting uncore_cbox_0 event (1000"
	echo "         reads per round; rounds alternate the drivers, each loaded afresh), hardware path."
	echo "         Under TCG a round's median depends on where the module lands (QEMU's software TLB):"
	echo "         rounds fall in steps of about 1.2 us for both drivers, so the lowest round median"
	echo "         compares the code paths; the median of the rounds also carries that luck."
	printf '%-8s %-9s %6s %9s %9s %6s %9s %9s %6s
' kernel platform rounds ours-low C-low ratio \
		ours-med C-med ratio
	for v in "${LATENCY_KERNELS[@]}"; do
		for name in "${LATENCY_PLATFORMS[@]}"; do
			awk -v kernel="$v" -v plat="$name" -f "$here/../benches/table2.awk" "$tmp/lat.$v.$name"
		done
	done
}

# Table 3: instructions per operation of the pure core under callgrind.
# Each operation of uncore-callgrind --list runs CALLGRIND_N times; only
# what runs inside its marker function is counted, so the total divided by
# CALLGRIND_N is one operation's count.
table_3() {
	local bin op what total
	[ -x "$VALGRIND" ] || {
		echo "bench: $VALGRIND is missing (Debian package valgrind; scripts/install-deps.sh installs it)" >&2
		return 1
	}
	bin=$(build_bin uncore-callgrind --profile callgrind)
	echo "Table 3. Host cost of the pure core: instructions per operation (callgrind, x86-64 host build:"
	echo "         opt-level 2, overflow checks, panic=abort, as a distribution kernel builds Rust;"
	echo "         register reads are replayed values, not counted as MSR accesses)"
	printf '%-52s %12s\n' "operation" "instructions"
	"$bin" --list >"$tmp/ops"
	while IFS=$'\t' read -r op what; do
		"$VALGRIND" --tool=callgrind --collect-atstart=no \
			--toggle-collect='*callgrind_measured*' \
			--callgrind-out-file="$tmp/callgrind.out" \
			"$bin" "$op" "$CALLGRIND_N" >"$tmp/valgrind.log" 2>&1 || {
			cat "$tmp/valgrind.log" >&2
			return 1
		}
		total=$(sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$tmp/callgrind.out")
		[ -n "$total" ] || { echo "bench: no totals from callgrind for $op" >&2; return 1; }
		awk -v w="$what" -v t="$total" -v n="$CALLGRIND_N" 'BEGIN {
			v = t / n
			if (v == int(v)) printf "%-52s %12d\n", w, v
			else printf "%-52s %12.1f\n", w, v
		}'
	done <"$tmp/ops"
}

# prepare_kernel V: builds (or reuses) kernel V and the module for it;
# sets KO (ours) and C_KO (the kernel's intel-uncore.ko, the one the guest
# gets: scripts/mkinitramfs.sh).
prepare_kernel() {
	local v=$1
	"$here/build-kernel.sh" --variant "$v" >&2
	KO=$("$here/build-module.sh" "$v" | tail -1)
	C_KO=$("$here/build-kernel.sh" --variant "$v" --print-boot)/intel-uncore.ko
	[ -f "$KO" ] || { echo "bench: no rust_uncore.ko for the $v kernel" >&2; return 1; }
	[ -f "$C_KO" ] || { echo "bench: $C_KO is missing" >&2; return 1; }
}

# sections KO: "code init rodata data bss total" in bytes, over the
# sections the module loader places in memory (SHF_ALLOC): code is the
# executable ones, init the .init.* ones among all (freed after the
# module's init), rodata the other read-only ones, data the writable ones,
# bss the zero-filled ones.
sections() {
	readelf -S -W "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk '
		function hex(s,   i, v) {
			v = 0
			s = tolower(s)
			for (i = 1; i <= length(s); i++)
				v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v
		}
		NF == 10 && $7 ~ /A/ {
			n = hex($5)
			if ($1 ~ /^\.init\./) init += n
			if ($7 ~ /X/) code += n
			else if ($2 == "NOBITS") bss += n
			else if ($7 ~ /W/) data += n
			else rodata += n
		}
		END { printf "%d %d %d %d %d %d\n", code, init, rodata, data, bss, code + rodata + data + bss }'
}

# Table 4, footprint: our module against the C driver on each kernel of
# FOOTPRINT_KERNELS.
table_4_footprint() {
	local v ours c
	for v in "${FOOTPRINT_KERNELS[@]}"; do
		prepare_kernel "$v"
		sections "$KO" >"$tmp/ours.$v"
		sections "$C_KO" >"$tmp/c.$v"
		size "$KO" | awk 'NR == 2 { print $1, $2, $3 }' >"$tmp/ours-size.$v"
		size "$C_KO" | awk 'NR == 2 { print $1, $2, $3 }' >"$tmp/c-size.$v"
	done
	echo "Table 4 (footprint). Module size in bytes: the sections loaded into the kernel (SHF_ALLOC,"
	echo "         readelf -S); init = the .init.* sections among them, freed after loading"
	printf '%-8s %-16s %9s %8s %9s %9s %6s %9s\n' kernel module code init rodata data bss total
	for v in "${FOOTPRINT_KERNELS[@]}"; do
		read -r -a ours <"$tmp/ours.$v"
		read -r -a c <"$tmp/c.$v"
		printf '%-8s %-16s %9d %8d %9d %9d %6d %9d\n' "$v" rust_uncore.ko "${ours[@]}"
		printf '%-8s %-16s %9d %8d %9d %9d %6d %9d\n' "$v" intel-uncore.ko "${c[@]}"
		awk -v v="$v" -v o="${ours[*]}" -v c="${c[*]}" 'BEGIN {
			split(o, a, " "); split(c, b, " ")
			printf "%-8s %-16s", v, "ours/C"
			for (i = 1; i <= 6; i++) {
				w = (i == 2) ? 8 : (i == 5) ? 6 : 9
				if (b[i] > 0) printf " %*.2f", w, a[i] / b[i]
				else printf " %*s", w, "-"
			}
			printf "\n"
		}'
	done
	echo "size(1) (its text counts the read-only data too):"
	printf '%-8s %-16s %9s %9s %6s\n' kernel module text data bss
	for v in "${FOOTPRINT_KERNELS[@]}"; do
		read -r -a ours <"$tmp/ours-size.$v"
		read -r -a c <"$tmp/c-size.$v"
		printf '%-8s %-16s %9d %9d %6d\n' "$v" rust_uncore.ko "${ours[@]}"
		printf '%-8s %-16s %9d %9d %6d\n' "$v" intel-uncore.ko "${c[@]}"
	done
	echo "rust_uncore.ko is the module users load (the hardware only); the simulation the tests" \
		"drive is rust_uncore_sim.ko, not measured here"
	echo "intel-uncore.ko drives the uncore of Intel's client and server CPUs from Nehalem on;" \
		"rust_uncore.ko seven platforms"
}

# Table 4, polling: poll wakeups per hour per active box, ours and the C
# driver's, and the insmod-to-PMUs-registered time (the guests of
# latency_guests).
table_4_polling() {
	local v line name
	latency_guests
	echo "Table 4 (polling). The poll timer's interval with one event counting (timer:hrtimer_start"
	echo "         in the guest, nodebug kernel: expiry less the time it was set) and the wakeups per"
	echo "         hour of one active box that follow; hardware path, or sim= for box types QEMU lacks"
	printf '%-9s %-20s %10s %9s %10s %9s %7s\n' platform box ours-s ours-/h C-s C-/h ours/C
	for line in "${GUEST_PLATFORMS[@]}"; do
		IFS='|' read -r name _ <<<"$line"
		awk -v plat="$name" -f "$here/../benches/table4-polling.awk" "$tmp/lat.nodebug.$name"
	done
	echo
	echo "Table 4 (load time). insmod until it returns with every PMU registered (ms, median of the"
	echo "         rounds), and the uncore PMUs registered then, hardware path"
	printf '%-8s %-9s %6s %9s %5s %9s %5s\n' kernel platform rounds ours-ms pmus C-ms pmus
	for v in "${LATENCY_KERNELS[@]}"; do
		for line in "${GUEST_PLATFORMS[@]}"; do
			IFS='|' read -r name _ <<<"$line"
			[ -f "$tmp/lat.$v.$name" ] || continue
			awk -v kernel="$v" -v plat="$name" -f "$here/../benches/table4-insmod.awk" "$tmp/lat.$v.$name"
		done
	done
}

# run NAME FUNCTION: runs one table, with errexit; a failure is reported
# and remembered, and the next table still runs.
failed=()
run() {
	local rc
	echo
	set +e
	(
		set -e
		"$2"
	)
	rc=$?
	set -e
	if [ "$rc" -ne 0 ]; then
		echo "bench: $1 failed (status $rc)" >&2
		echo "$1: failed (see the messages above)"
		failed+=("$1")
	fi
}

"$here/install-deps.sh" >&2
header
wants timing && run "timing benchmark" table_timing
wants 1 && run "table 1" table_1
wants 2 && run "table 2" table_2
wants 3 && run "table 3" table_3
wants 4 && run "table 4 (footprint)" table_4_footprint
wants 4 && run "table 4 (polling)" table_4_polling
if [ ${#failed[@]} -gt 0 ]; then
	echo "bench: failed: ${failed[*]}" >&2
	exit 1
fi

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The register accesses of each perf operation (make bench, table 1), in a
# guest booted by scripts/bench.sh: one event of each box type of the
# platform goes through open, enable, BENCH_READS reads, disable and close
# (tests/tools/uncore_ops.c), on the first PMU of each type with its
# "clockticks" alias (else its first alias; else a raw event it accepts).
#
# First on the hardware path: the msr:read_msr and msr:write_msr
# tracepoints record every MSR access with a stack trace, which names the
# callback it came from (an innermost pmu callback or poll timer of either
# driver); this module is measured, then the kernel's C driver where it
# registers the same PMU. Lines: "hw DRIVER PMU STEP OP reads writes".
#
# Then, with sim= in MODARGS, the simulation counts what the driver
# accesses in each step (its access_* figures); an injection during the
# hold gives one poll tick, and on NHM-EX/WSM-EX two more give a counter
# wrap (its PMI and a poll tick). Lines: "sim PMU STEP msr_read=N msr_write=N cfg_read=N
# cfg_write=N mmio_read=N".
#
# scripts/bench.sh boots the guests (with --no-load; this is no make
# check test).
. /tests/lib.sh

T=/sys/kernel/tracing
DBG=/sys/kernel/debug/rust_uncore
READS=${BENCH_READS:-100}

# alias_config PMU ALIAS: the attr words "config:config1:config2" of an
# alias, made with the PMU's format/ files as the perf tool makes them.
alias_config() {
	_c0=0 _c1=0 _c2=0
	for _t in $(tr ',' ' ' <"$DEV/$1/events/$2"); do
		_n=${_t%%=*}
		_v=1
		[ "$_n" = "$_t" ] || _v=$((${_t#*=}))
		_f=$(cat "$DEV/$1/format/$_n") || return 1
		_w=${_f%%:*}
		for _r in $(echo "${_f#*:}" | tr ',' ' '); do
			_lo=${_r%-*} _hi=${_r#*-}
			_b=$_lo
			while [ "$_b" -le "$_hi" ]; do
				if [ $((_v & 1)) -eq 1 ]; then
					case $_w in
					config) _c0=$((_c0 | (1 << _b))) ;;
					config1) _c1=$((_c1 | (1 << _b))) ;;
					config2) _c2=$((_c2 | (1 << _b))) ;;
					esac
				fi
				_v=$((_v >> 1))
				_b=$((_b + 1))
			done
		done
	done
	printf '0x%x:0x%x:0x%x\n' "$_c0" "$_c1" "$_c2"
}

# first_alias PMU: "clockticks" if the PMU has it, else its first alias.
first_alias() {
	if [ -f "$DEV/$1/events/clockticks" ]; then
		echo clockticks
		return
	fi
	ls "$DEV/$1/events" 2>/dev/null | grep -Ev '\.(scale|unit|per-pkg|snapshot)$' | head -1
}

# event_config PMU: the attr words of the PMU's first alias (see
# first_alias), or for a PMU without aliases the first of a few raw
# configurations that it accepts.
event_config() {
	_a=$(first_alias "$1")
	if [ -n "$_a" ]; then
		echo "# $1: alias $_a" >&2
		alias_config "$1" "$_a"
		return
	fi
	for _c in 0x181 0x101 0x1 0x0; do
		if [ "$(/tests/perf_open "$1" "$_c" --cpu "$(cut -d, -f1 "$DEV/$1/cpumask" | cut -d- -f1)")" = ok ]; then
			echo "# $1: no alias, raw config $_c" >&2
			echo "$_c"
			return
		fi
	done
	return 1
}

# summarise DRIVER PMU: one line per (step, op) of the trace, with its MSR
# reads and writes, attributing each access to the innermost callback on
# its stack.
summarise() {
	awk -v drv="$1" -v pmu="$2" '
	function flush() {
		if (op == "" && guess != "") op = guess
		if (kind != "" && step != "" && step != "end") {
			k = step " " (op == "" ? "other" : op)
			if (!(k in r)) { order[++n] = k; r[k] = 0; w[k] = 0 }
			if (kind == "read_msr:") r[k]++; else w[k]++
		}
		kind = ""; op = ""; guess = ""
	}
	/tracing_mark_write: uncore_ops: / { flush(); step = $NF; next }
	/ (read_msr|write_msr): / {
		flush()
		for (i = 1; i <= NF; i++) if ($i ~ /_msr:$/) kind = $i
		# MSRs the kernel itself touches (FS base on a task switch) are
		# no uncore accesses.
		if ($0 ~ /_msr: c0000100,/) kind = ""
		next
	}
	# The C driver tail-calls its box operations from pmu_enable,
	# pmu_disable and read, which leaves those frames off the stack: a box
	# operation names the callback unless a caller further down does.
	/^ => / && kind != "" && op == "" {
		s = $2
		if (s ~ /_enable_box$/ && guess == "") guess = "pmu_enable"
		else if (s ~ /_disable_box$/ && guess == "") guess = "pmu_disable"
		else if (s ~ /^uncore_perf_event_update$/ && guess == "") guess = "read"
		# The pmu_enable/pmu_disable of this module are named by their
		# trampolines, or, where those tail-call it, by the helper both
		# share (set_disabled; table 1 adds the two up anyway).
		if (s ~ /9start_one|PmuOps5start|uncore_pmu_event_start/) op = "start"
		else if (s ~ /8stop_one|PmuOps4stop|uncore_pmu_event_stop/) op = "stop"
		else if (s ~ /PmuOps10event_init|uncore_pmu_event_init/) op = "event_init"
		else if (s ~ /PmuOps3add|uncore_pmu_event_add/) op = "add"
		else if (s ~ /PmuOps3del|uncore_pmu_event_del/) op = "del"
		else if (s ~ /PmuOps4read|uncore_pmu_event_read/) op = "read"
		else if (s ~ /PmuOps6enable|15enable_callback|12set_disabled|uncore_pmu_enable/) op = "pmu_enable"
		else if (s ~ /PmuOps7disable|16disable_callback|uncore_pmu_disable/) op = "pmu_disable"
		else if (s ~ /TimerHandler4fire|uncore_pmu_hrtimer/) op = "poll"
		else if (s ~ /^(ctx_resched|__perf_event_read|event_function|__perf_install_in_context)$/ && guess != "") op = guess
		next
	}
	END {
		flush()
		for (i = 1; i <= n; i++) print "hw", drv, pmu, order[i], r[order[i]], w[order[i]]
	}' $T/trace
}

# trace_run DRIVER PMU CONFIG: the traced run of one event.
trace_run() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/options/stacktrace
	echo 1 >$T/events/msr/read_msr/enable
	echo 1 >$T/events/msr/write_msr/enable
	echo 1 >$T/tracing_on
	_out=$(/tests/uncore_ops "$2" "$3" --reads "$READS" --marker $T/trace_marker 2>&1)
	echo 0 >$T/tracing_on
	echo 0 >$T/options/stacktrace
	echo 0 >$T/events/msr/read_msr/enable
	echo 0 >$T/events/msr/write_msr/enable
	case $_out in
	*ok*) summarise "$1" "$2" ;;
	*) echo "# $1 $2 $3: $_out" ;;
	esac
}

echo "# reads $READS"
# The hardware path: this module, then the C driver.
grep -q "^rust_uncore " /proc/modules && rmmod rust_uncore
: >/tmp/chosen
if insmod /lib/modules/rust_uncore.ko; then
	for p in $(one_per_type); do
		c=$(event_config "$p" 2>&1) || {
			echo "# $p: no event to measure"
			continue
		}
		echo "$c" | grep '^#'
		c=$(echo "$c" | grep -v '^#')
		echo "# $p ($c)"
		echo "$p $c" >>/tmp/chosen
		trace_run ours "$p" "$c"
	done
	rmmod rust_uncore
else
	echo "# insmod failed (hardware path)"
fi
if insmod /lib/modules/intel-uncore.ko 2>/dev/null; then
	while read -r p c; do
		[ -d "$DEV/$p" ] && trace_run c "$p" "$c"
	done </tmp/chosen
	rmmod intel_uncore
else
	echo "# the C driver does not load here"
fi

# The simulation (MODARGS): every box type, PCI and MMIO ones included.
case "$MODARGS" in
*sim=*) ;;
*) exit 0 ;;
esac
# shellcheck disable=SC2086
insmod /lib/modules/rust_uncore_sim.ko $MODARGS || { echo "# insmod $MODARGS failed"; exit 0; }
# On NHM-EX/WSM-EX, two injections of 2^48 - 656 more: the second wraps
# the (48-bit) counter, raising a PMI.
wrap=""
case "$MODARGS" in
*sim=nhmex* | *sim=wsmex*) wrap=281474976710000 ;;
esac
for p in $(one_per_type); do
	c=$(event_config "$p" 2>/dev/null) || { echo "# $p: no event to measure"; continue; }
	# One poll tick (an injection stands for time passing: the collector
	# polls); then the wrapping ones (a PMI and a poll tick).
	set -- --inject "pmu=$p programmed=1 count=1"
	[ -z "$wrap" ] || set -- "$@" --inject "pmu=$p programmed=1 count=$wrap" \
		--inject "pmu=$p programmed=1 count=$wrap"
	out=$(/tests/uncore_ops "$p" "$c" --reads "$READS" --tally $DBG/stats "$@" 2>&1)
	echo "# $p ($c)"
	echo "$out" | awk -v pmu="$p" '$1 == "tally" { $1 = "sim " pmu; print } $1 == "FAIL" { print "# " pmu ": " $0 }'
done
rmmod rust_uncore_sim

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Read latency, load time and polling of this module and of the kernel's C
# driver, in one guest booted by scripts/bench.sh (make bench, table 2 and
# the polling part of table 4). Everything runs on the hardware path (no
# sim=) unless said otherwise.
#
# Rounds: BENCH_ROUNDS times (default 20), the two drivers in turn (this
# module first in odd rounds, the C driver first in even ones), each one
# loaded (timed: tests/tools/elapsed.c), its uncore_cbox_0 event read
# BENCH_READS times (default 1000; tests/tools/uncore_ops.c --time) and
# unloaded. Lines: "insmod DRIVER ROUND NS PMUS" (PMUS: the uncore PMUs
# registered when insmod returned), "lat DRIVER ROUND MEDIAN MIN MAX" (ns
# per read()).
#
# Polling: with each driver loaded, one event of each box type counts for
# BENCH_HOLD_MS (default 2000) while the timer tracepoints record the poll
# timer's starts (trace clock: mono, so "expires" less the time stamp is the
# interval it was set to) and expiries. Lines: "poll DRIVER PMU INTERVAL_NS
# FIRED HOLD_MS". With sim= in MODARGS this module is measured again on the
# simulated platform, for the box types the hardware path lacks (PCI, MMIO):
# "poll sim PMU ...".
#
# scripts/bench.sh boots the guests (with --no-load; this is no make check
# test).
. /tests/lib.sh

T=/sys/kernel/tracing
ROUNDS=${BENCH_ROUNDS:-20}
READS=${BENCH_READS:-1000}
HOLD_MS=${BENCH_HOLD_MS:-2000}
PMU=uncore_cbox_0
OURS=/lib/modules/rust_uncore.ko
SIM=/lib/modules/rust_uncore_sim.ko
C_KO=/lib/modules/intel-uncore.ko

# load_driver DRIVER [ARGS...]: loads it; unload_driver DRIVER: unloads it.
load_driver() {
	_d=$1
	shift
	case $_d in
	ours) insmod $OURS "$@" ;;
	sim) insmod $SIM "$@" ;;
	c) insmod $C_KO ;;
	esac
}
unload_driver() {
	case $1 in
	ours) rmmod rust_uncore ;;
	sim) rmmod rust_uncore_sim ;;
	c) rmmod intel_uncore ;;
	esac
}

# raw_config PMU: the first of a few raw configurations the PMU accepts on
# the first CPU of its cpumask.
raw_config() {
	for _c in 0x0 0x1 0x101 0x181 0x2 0x3; do
		if [ "$(/tests/perf_open "$1" "$_c" --cpu "$(first_cpu "$1")")" = ok ]; then
			echo "$_c"
			return 0
		fi
	done
	return 1
}

first_cpu() {
	cut -d, -f1 "$DEV/$1/cpumask" | cut -d- -f1
}

grep -q "^rust_uncore " /proc/modules && rmmod rust_uncore
drivers=ours
if load_driver c 2>/dev/null; then
	[ -d $DEV/$PMU ] && drivers="ours c"
	unload_driver c
fi
echo "# drivers: $drivers"

# The event: a raw configuration both drivers accept.
cfg=""
if load_driver ours; then
	cfg=$(raw_config $PMU) || cfg=""
	unload_driver ours
fi
if [ -n "$cfg" ] && [ "$drivers" = "ours c" ] && load_driver c; then
	[ "$(/tests/perf_open $PMU "$cfg" --cpu "$(first_cpu $PMU)")" = ok ] || drivers=ours
	unload_driver c
fi
echo "# $PMU config ${cfg:-none}"

# Rounds: load time and read latency, the drivers alternating.
r=1
while [ "$r" -le "$ROUNDS" ]; do
	order=$drivers
	[ $((r % 2)) -eq 0 ] && [ "$drivers" = "ours c" ] && order="c ours"
	for d in $order; do
		case $d in
		ours) out=$(/tests/elapsed insmod $OURS) ;;
		c) out=$(/tests/elapsed insmod $C_KO) ;;
		esac
		n=$(ls -d $DEV/uncore_* 2>/dev/null | wc -l)
		echo "$out" | awk -v d="$d" -v r="$r" -v n="$n" '$1 == "elapsed_ns" && $4 == 0 { print "insmod", d, r, $2, n }'
		# Let the loading's deferred work (RCU callbacks, workqueues) settle.
		sleep 1
		if [ -n "$cfg" ]; then
			/tests/uncore_ops $PMU "$cfg" --cpu "$(first_cpu $PMU)" --reads "$READS" --time |
				awk -v d="$d" -v r="$r" '$1 == "read_ns" { print "lat", d, r, $2, $3, $4 }'
		fi
		unload_driver "$d"
	done
	r=$((r + 1))
done

# poll_run DRIVER PMU CONFIG: the poll timer of one counting event.
poll_run() {
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo mono >$T/trace_clock
	echo 1 >$T/events/timer/hrtimer_start/enable
	echo 1 >$T/events/timer/hrtimer_expire_entry/enable
	echo 1 >$T/tracing_on
	_out=$(/tests/uncore_ops "$2" "$3" --cpu "$(first_cpu "$2")" --reads 1 --hold "$HOLD_MS" 2>&1)
	echo 0 >$T/tracing_on
	echo 0 >$T/events/timer/hrtimer_start/enable
	echo 0 >$T/events/timer/hrtimer_expire_entry/enable
	case $_out in
	*ok*) ;;
	*)
		echo "# poll $1 $2 $3: $_out"
		return
		;;
	esac
	# The poll timers: the C driver's uncore_pmu_hrtimer, this module's
	# ru_hrtimer_function (the one C function of its timers, which calls
	# the Rust handler; the simulation's clock, the module's other timer,
	# is off).
	awk -v d="$1" -v p="$2" -v hold="$HOLD_MS" '
	/function=(uncore_pmu_hrtimer|ru_hrtimer_function)[ +]/ {
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = substr($i, 1, length($i) - 1)
		if ($0 ~ /hrtimer_expire_entry:/) { fired++; next }
		for (i = 1; i <= NF; i++) if ($i ~ /^expires=/) e = substr($i, 9)
		if (interval == "") interval = e - ts * 1e9
	}
	END {
		if (interval == "") print "# poll", d, p, "no poll timer started"
		else printf "poll %s %s %.0f %d %d\n", d, p, interval, fired, hold
	}' $T/trace
	echo local >$T/trace_clock
}

# Polling, on the hardware path.
: >/tmp/measured
for d in $drivers; do
	load_driver "$d" || continue
	for p in $(one_per_type); do
		c=$(raw_config "$p") || { echo "# $d $p: no raw event it accepts"; continue; }
		poll_run "$d" "$p" "$c"
		echo "${p%_[0-9]*}" >>/tmp/measured
	done
	unload_driver "$d"
done

# Polling under sim= for the box types the hardware path lacks.
case "$MODARGS" in
*sim=*) ;;
*) exit 0 ;;
esac
# shellcheck disable=SC2086
load_driver sim $MODARGS || { echo "# insmod $MODARGS failed"; exit 0; }
for p in $(one_per_type); do
	grep -qx "${p%_[0-9]*}" /tmp/measured && continue
	c=$(raw_config "$p") || { echo "# sim $p: no raw event it accepts"; continue; }
	poll_run sim "$p" "$c"
done
unload_driver sim

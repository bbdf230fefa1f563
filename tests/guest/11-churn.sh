#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Load/unload churn, on the simulation (the guest line's sim=) and on the
# hardware path of the guest's CPU model: CHURN_CYCLES cycles each (default
# 2). Every insmod registers the same PMUs; every other cycle an event is
# held open (uncore_fuzz -e ... -H) and rmmod must be refused while it is,
# and work once it is closed; once per path the holder is a perf stat -a
# session. After every rmmod no PMU (and no debugfs directory) is left; on
# the hardware path of platforms with a global control register, rmmod
# leaves it written 0 on every package (the uncore disabled). Slab, vmalloc
# and available memory (MemAvailable plus the free pages on the per-CPU
# page lists, which it leaves out) end where they started, within a tolerance
# (CHURN_SLAB_TOL_KB, default 2048, under KASAN 2048 plus the 1/32 of
# memory its quarantine of freed objects may hold; CHURN_MEM_TOL_KB, default 8192;
# CHURN_VMALLOC_TOL_KB, default 256).
#
# make check runs it with its small defaults on every simulated platform:
# on the debug kernel (lockdep, KASAN, kmemleak) in the first boots below,
# on Debian's stock kernel in the others; make stress (scripts/stress.sh)
# runs the long variants on the debug kernel.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock append=nopti sim=xeon7100:2 cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
# guest: kernel=stock sim=xeon7400:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
. /tests/lib.sh
. /tests/hardening.sh

n=${CHURN_CYCLES:-2}
simargs=$MODARGS
p=$(platform)
T=/sys/kernel/tracing
# The hardware path's platform: the CPU model's.
hwp=$(MODARGS="" platform)
case "$hwp" in
nhmex | wsmex) gctl=c00 ;;
skl) gctl=e01 ;;
*) gctl="" ;;
esac
cycles=0

# last_global_writes: per package, the last value written to the global
# control during the trace ("PKG:VALUE" words; "PKG:none" when none).
last_global_writes() {
	awk 'FNR == NR { pkg[$1] = $2; pk[$2] = 1; next }
		/write_msr:/ && match($0, /\[[0-9]+\]/) { last[pkg[substr($0, RSTART + 1, RLENGTH - 2) + 0]] = $NF }
		END { for (k in pk) printf "%s:%s\n", k, (k in last) ? last[k] : "none" }' "$PKG_MAP" $T/trace |
		sort | tr '\n' ' ' | sed 's/ $//'
}

# churn LABEL N ARGS...: N load/unload cycles with module ARGS; reports its
# checks unless REPORT=0. Sets FAILED (the number of failed checks).
churn() {
	label=$1
	cn=$2
	shift 2
	args="$*"
	gctl_first=""
	fails_load=0 fails_pmus=0 fails_hold=0 fails_refuse=0 fails_kept=0 fails_rmmod=0 fails_gone=0 fails_gctl=0
	first=""
	want=""
	i=0
	while [ "$i" -lt "$cn" ]; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		if ! out=$(load $args 2>&1); then
			fails_load=$((fails_load + 1))
			[ -n "$first" ] || first="cycle $i: insmod: $out"
			continue
		fi
		cycles=$((cycles + 1))
		got=$(pmus)
		[ -n "$want" ] || want=${WANT_PMUS:-$got}
		if [ "$got" != "$want" ] || [ -z "$got" ]; then
			fails_pmus=$((fails_pmus + 1))
			[ -n "$first" ] || first="cycle $i: PMUs '$got', want '$want'"
		fi
		if [ $((i % 2)) = 1 ] && [ -n "$got" ]; then
			# An event held open: the (i/2)-th PMU, on the last CPU.
			set -- $got
			k=$(((i / 2) % $# + 1))
			eval "pmu=\${$k}"
			spec=$(sample "$pmu")
			cpu=$(($(grep -c ^processor /proc/cpuinfo) - 1))
			rm -f /tmp/hold.out /tmp/stop
			if [ "$i" = 1 ]; then
				# The first time, perf stat -a holds it.
				perf stat -a -x, -e "$pmu/${spec%%|*}/" -o /tmp/hold.stat -- \
					sh -c 'while [ ! -e /tmp/stop ]; do sleep 0.1; done' >/dev/null 2>&1 &
				h=$!
				wait_modref 1 && echo holding >/tmp/hold.out
			else
				/tests/uncore_fuzz -e "$pmu/${spec%%|*}/" -c "$cpu" -H -1 >/tmp/hold.out 2>&1 &
				h=$!
				wait_file /tmp/hold.out
			fi
			if [ "$(cat /tmp/hold.out 2>/dev/null)" != holding ]; then
				fails_hold=$((fails_hold + 1))
				[ -n "$first" ] || first="cycle $i: holding $pmu/${spec%%|*}/ failed: $(cat /tmp/hold.out 2>/dev/null)"
			elif unload 2>/dev/null; then
				fails_refuse=$((fails_refuse + 1))
				[ -n "$first" ] || first="cycle $i: rmmod succeeded while $pmu had an open event"
			elif [ "$(pmus)" != "$got" ]; then
				fails_kept=$((fails_kept + 1))
				[ -n "$first" ] || first="cycle $i: the refused rmmod changed the PMUs: '$(pmus)'"
			fi
			touch /tmp/stop
			kill "$h" 2>/dev/null
			wait "$h" 2>/dev/null
		fi
		tracing=0
		if [ -n "$gctl" ]; then
			case "$args" in *sim=*) ;; *)
			echo >$T/trace
			echo "msr == 0x$gctl" >$T/events/msr/write_msr/filter
			echo 1 >$T/events/msr/write_msr/enable
			tracing=1 ;;
			esac
		fi
		if ! out=$(unload 2>&1); then
			fails_rmmod=$((fails_rmmod + 1))
			[ -n "$first" ] || first="cycle $i: rmmod: $out"
			# Try again, so the next cycle can load.
			sleep 1
			unload 2>/dev/null
		fi
		if [ "$tracing" = 1 ]; then
			echo 0 >$T/events/msr/write_msr/enable
			echo 0 >$T/events/msr/write_msr/filter
			w=$(last_global_writes)
			bad=$(echo "$w" | tr ' ' '\n' | grep -v ':0$')
			if [ -n "$bad" ]; then
				fails_gctl=$((fails_gctl + 1))
				[ -n "$gctl_first" ] || gctl_first="cycle $i: last write to MSR 0x$gctl per package: $w"
			fi
		fi
		if [ -n "$(pmus)" ] || [ -d "$DBG" ]; then
			fails_gone=$((fails_gone + 1))
			[ -n "$first" ] || first="cycle $i: after rmmod: PMUs '$(pmus)', debugfs $(ls -d "$DBG" 2>/dev/null)"
		fi
	done
	FAILED=0
	for f in $fails_load $fails_pmus $fails_hold $fails_refuse $fails_kept $fails_rmmod $fails_gone; do
		[ "$f" = 0 ] || FAILED=$((FAILED + 1))
	done
	if [ "${REPORT:-1}" = 0 ]; then
		[ -z "$first" ] || echo "# $label: first failure: $first"
		return
	fi
	check_eq "$label: $cn cycles: every insmod works" "$fails_load" 0
	check_eq "$label: every insmod registers the same PMUs" "$fails_pmus" 0
	check_eq "$label: an event can be held open ($(((cn + 1) / 2)) cycles)" "$fails_hold" 0
	check_eq "$label: rmmod is refused while an event is open" "$fails_refuse" 0
	check_eq "$label: a refused rmmod leaves the PMUs in place" "$fails_kept" 0
	check_eq "$label: rmmod works once the event is closed, and otherwise" "$fails_rmmod" 0
	check_eq "$label: no PMU or debugfs directory after rmmod" "$fails_gone" 0
	if [ "$label" = hardware ]; then
		if [ -n "$gctl" ]; then
			check_eq "$label: rmmod leaves the global control (MSR 0x$gctl) 0 on every package" "$fails_gctl" 0
		else
			skip "$label: the driver programs no global control register on $hwp"
		fi
	fi
	[ -z "$first" ] || echo "# first failure: $first"
	[ -z "${gctl_first:-}" ] || echo "# $gctl_first"
}

# Warm-up: two cycles on each path (the first of each with perf stat
# holding an event, and the msr tracepoint on the hardware path), so that
# what the first use allocates (trace buffers, caches) is in the baseline.
if loaded; then
	check "rmmod after the runner's insmod" unload
fi
warm=0
REPORT=0
WANT_PMUS=$(expected_sim_pmus "$p")
# shellcheck disable=SC2086
churn "warm-up (simulation)" 2 $simargs
warm=$((warm + FAILED))
WANT_PMUS=""
churn "warm-up (hardware)" 2
warm=$((warm + FAILED))
REPORT=1
check_eq "warm-up: 2 cycles on each path pass every check" "$warm" 0
settle
slab0=$(meminfo SUnreclaim)
avail0=$(($(meminfo MemAvailable) + $(pcp_kb)))
vm0=$(meminfo VmallocUsed)
detail0=$(meminfo_detail)
echo "# baseline: SUnreclaim $slab0 kB, MemAvailable with per-CPU lists $avail0 kB, VmallocUsed $vm0 kB"

WANT_PMUS=$(expected_sim_pmus "$p")
# shellcheck disable=SC2086
churn "simulation ($simargs)" "$n" $simargs
WANT_PMUS=""
churn hardware "$n"

settle
slab1=$(meminfo SUnreclaim)
avail1=$(($(meminfo MemAvailable) + $(pcp_kb)))
vm1=$(meminfo VmallocUsed)
echo "# after $cycles cycles: SUnreclaim $slab1 kB, MemAvailable with per-CPU lists $avail1 kB, VmallocUsed $vm1 kB"
echo "# changes (kB): $(meminfo_change "$detail0" "$(meminfo_detail)")"
stat_line cycles "$cycles"
# KASAN's quarantine keeps freed objects in SUnreclaim for a while, so on a
# KASAN kernel the figure moves by a few MB either way between two
# readings; there kmemleak's scan at the end of the boot is the leak check.
# (A KASAN kernel has the __asan_* entry points; the runner clears the
# kernel log between scripts, so its boot line may be gone.)
# The quarantine holds at most 1/32 of the memory.
if grep -q ' __asan_load8$' /proc/kallsyms 2>/dev/null; then
	tol_slab=${CHURN_SLAB_TOL_KB:-$(($(meminfo MemTotal) / 32 + 2048))}
else
	tol_slab=${CHURN_SLAB_TOL_KB:-2048}
fi
tol_mem=${CHURN_MEM_TOL_KB:-8192}
tol_vm=${CHURN_VMALLOC_TOL_KB:-256}
check "unreclaimable slab grew by $((slab1 - slab0)) kB (at most $tol_slab)" [ $((slab1 - slab0)) -le "$tol_slab" ]
check "available memory fell by $((avail0 - avail1)) kB (at most $tol_mem)" [ $((avail0 - avail1)) -le "$tol_mem" ]
check "vmalloc use grew by $((vm1 - vm0)) kB (at most $tol_vm)" [ $((vm1 - vm0)) -le "$tol_vm" ]
check_eq "no PMU left" "$(pmus)" ""
done_testing

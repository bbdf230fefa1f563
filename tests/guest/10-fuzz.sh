#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf_event_open fuzzing (tests/tools/uncore_fuzz.c): thousands of random
# attributes against every uncore PMU (random configs, flags, sampling,
# read formats, CPUs including an offline and out-of-range ones, per-task,
# mixed and oversized groups), with every CPU online and again with one
# offline. Only the documented errnos may come back, and every event that
# opens must enable, read, disable and close. Afterwards every PMU still
# counts exactly, and a full group fits the box (no counter or filter
# register leaked). On every simulated platform, and on the hardware path
# of Westmere-EX. (Kernel reports — oops, WARNING, lockdep, KASAN,
# kmemleak — fail the run in the guest runner.)
#
# FUZZ_N (default 500) attributes per run, FUZZ_SEED the base seed.
#
# make check runs it with its small defaults on every simulated platform:
# on the debug kernel (lockdep, KASAN, kmemleak) in the first boots below,
# on Debian's stock kernel in the others; make stress (scripts/stress.sh)
# runs the long variants on the debug kernel.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock append=nopti sim=xeon7100:2 cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
# guest: kernel=stock sim=xeon7400:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
. /tests/lib.sh
. /tests/hardening.sh

n=${FUZZ_N:-500}
p=$(platform)
sim=0
case " $MODARGS " in *" sim="*) sim=1 ;; esac
if ! loaded; then
	check "insmod on the hardware path ($p)" load
fi
loaded || { not_ok "rust_uncore is loaded"; done_testing; }
[ "$sim" = 1 ] && path=sim || path=hardware
# A seed per platform and path, unless given.
seed=${FUZZ_SEED:-$((0x$(printf '%s' "$p$path" | md5sum | cut -c1-6)))}
before=$(pmus)

# fuzz SEED N LABEL: one run; its histogram as # lines.
fuzz() {
	t0=$(uptime_s)
	/tests/uncore_fuzz -n "$2" -s "$1" >/tmp/fuzz.out 2>&1
	rc=$?
	sed 's/^/# /' /tmp/fuzz.out
	echo "# $3: $(elapsed "$t0") s"
	check_eq "$3: uncore_fuzz -n $2 -s $1 exits 0 (only documented errnos, no read/ioctl failure)" "$rc" "0"
	opened=$(awk '$1 == "open" && $2 == "0" { print $3 }' /tmp/fuzz.out)
	check "$3: some attributes opened (${opened:-0})" [ "${opened:-0}" -gt 0 ]
	a=$(awk '$1 == "attrs" { print $2 }' /tmp/fuzz.out)
	stat_line attrs "${a:-0}"
	awk '$1 == "open" && NF == 3 { print "# stat: errno-" $2, $3 }' /tmp/fuzz.out
}

fuzz "$seed" "$n" "$p $path, every CPU online"

# Again with one CPU offline: socket 1's collector where the socket has a
# second CPU (the collector moves), else the last CPU (its socket parks).
last=$(($(sockets) - 1))
set -- $(cpus_of_pkg "$last")
off=""
if [ $# -ge 2 ]; then
	off=$(collector "$(pmus | cut -d' ' -f1)" "$last")
else
	eval "off=\${$#}"
fi
if [ -n "$off" ] && hotpluggable "$off"; then
	set_online "$off" 0
	fuzz $((seed + 1)) $((n / 3 + 1)) "$p $path, CPU $off offline"
	set_online "$off" 1
else
	skip "no CPU to take offline"
fi
check_eq "$p: the PMUs are unchanged" "$(pmus)" "$before"
check_eq "every cpumask: one online CPU per package" "$(cpumask_problems)" ""

# Every PMU still counts: exactly what is injected (simulation), zero on
# the hardware path (its MSRs read 0 under QEMU), never "not counted".
evs=""
script=""
want=""
i=0
for pmu in $(pmus); do
	i=$((i + 1))
	spec=$(sample "$pmu")
	evs="$evs,$pmu/${spec%%|*}/"
	if [ "$sim" = 1 ]; then
		script="$script echo 'pmu=$pmu ${spec#*|} count=$((500 + i))' > $DBG/inject;"
		want="$want$pmu $((500 + i))
"
	else
		want="$want$pmu 0
"
	fi
done
perf stat -a -x, -e "${evs#,}" -- sh -c "${script:-true}" 2>/tmp/stat >/dev/null
bad=""
for pmu in $(pmus); do
	got=$(stat_field /tmp/stat "$pmu" | tr '\n' ' ' | sed 's/ $//')
	w=$(printf '%s' "$want" | awk -v p="$pmu" '$1 == p { print $2 }')
	[ "$got" = "$w" ] || bad="$bad $pmu=[$got, want $w]"
done
check_eq "after the fuzz every PMU counts exactly" "$bad" ""
[ -z "$bad" ] || sed 's/^/# /' /tmp/stat

# A full group (as many events as the box has counters) still fits and
# counts: no counter or shared register was leaked by the fuzz.
IFS='|' read -r box ta ia tb ib over <<EOT
$(pair "$p")
EOT
if [ -e "$DEV/$box" ]; then
	k=0
	grp=""
	script=""
	want=""
	while [ "$k" -lt $((over - 1)) ]; do
		t=$(overcommit_terms "$box" "$k")
		grp="$grp,$box/${t%%|*}/"
		if [ "$sim" = 1 ]; then
			script="$script echo 'pmu=$box ${t#*|} count=$((10 + k))' > $DBG/inject;"
			want="$want $((10 + k))"
		else
			want="$want 0"
		fi
		k=$((k + 1))
	done
	got=$(perf stat -a -x, -e "{${grp#,}}" -- sh -c "${script:-true}" 2>&1 >/dev/null | awk -F, '{ printf " %s", $1 }')
	check_eq "$box: a group of $((over - 1)) events (every counter) counts exactly" "$got" "$want"
else
	skip "$box is not registered"
fi
check "rmmod" unload
check_eq "no PMU left" "$(pmus)" ""
done_testing

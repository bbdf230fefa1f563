#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug churn while events count on several boxes of every socket:
#
# A. hand-over: HOTPLUG_ROUNDS rounds (default 1) in one perf stat -a
#    --per-socket session; in each, the collecting CPU of every socket with
#    a second CPU goes offline and comes back (CPU 0 cannot go offline: on
#    its socket another CPU does), with occurrences injected into every
#    event on every socket between the steps: the totals are exact;
# B. parking: every socket but the first, in turn, loses all its CPUs and
#    gets them back, one perf stat session per round: the events of the
#    other sockets count exactly, those of the parked socket keep what they
#    had counted when it went (perf drops the events of an offline CPU);
# C. a new session afterwards counts every socket exactly.
#
# Where counters raise overflow PMIs (WSM-EX, NHM-EX), every third
# injection wraps the counters: the PMIs must follow the collector.
#
# After every step, each PMU's cpumask holds exactly one online CPU per
# socket that has an online CPU and the box; on SNB-EP and IVB-EP the last
# iMC is unplugged from socket 0 first, so its cpumask must name socket 1
# only.
#
# make check runs it with its small defaults on every simulated platform:
# on the debug kernel (lockdep, KASAN, kmemleak) in the first boots below,
# on Debian's stock kernel in the others; make stress (scripts/stress.sh)
# runs the long variants on the debug kernel.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock append=nopti sim=xeon7100:2 cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
# guest: kernel=stock sim=xeon7400:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
. /tests/lib.sh >/dev/null
. /tests/hardening.sh

W=/tmp/h12
FROZEN=""

# inject_all: one injection into every event on every socket that has an
# online CPU and the box and is not frozen (FROZEN: packages whose events
# perf has dropped), each recorded in $W/want as "PMU PKG COUNT".
inject_all() {
	INJ=$((INJ + 1))
	for _k in $(online_pkgs); do
		case " $FROZEN " in *" $_k "*) continue ;; esac
		_j=0
		while IFS='|' read -r _pmu _inj; do
			_j=$((_j + 1))
			case " $ABSENT " in *" $_pmu:$_k "*) continue ;; esac
			_cnt=$((INJ * 100 + _j * 3 + _k))
			# Where counters raise PMIs, every third injection wraps the
			# counter: the PMI must reach the socket's current collector.
			[ "$PMIS" = 1 ] && [ $((INJ % 3)) = 0 ] && _cnt=$((BIG - _cnt))
			echo "pmu=$_pmu socket=$_k $_inj count=$_cnt" >$DBG/inject ||
				echo "inject failed: pmu=$_pmu socket=$_k" >>$W/errors
			echo "$_pmu $_k $_cnt" >>$W/want
		done <$W/specs
	done
}

# step DESCRIPTION: records the cpumask problems after a hotplug step.
step() {
	STEPS=$((STEPS + 1))
	cpumask_problems | sed "s|^|step $STEPS ($1): |" >>$W/masks
}

# hotplug CPU 0|1
hotplug() {
	if set_online "$1" "$2"; then
		echo 1 >>$W/ops
		if [ "$2" = 0 ]; then step "CPU $1 offline"; else step "CPU $1 online"; fi
	else
		echo "CPU $1: online <- $2 failed" >>$W/errors
	fi
}

phase_a() {
	INJ=0 STEPS=0
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		r=$((r + 1))
		inject_all
		for k in $PKGS; do
			set -- $(cpus_of_pkg "$k")
			[ $# -ge 2 ] || continue
			c=$(collector "$REF" "$k")
			if [ -z "$c" ] || ! hotpluggable "$c"; then
				# CPU 0: another CPU of the socket, in turn.
				c=""
				for x in $(cpus_of_pkg "$k"); do
					[ "$x" != "$(collector "$REF" "$k")" ] && hotpluggable "$x" && c="$c $x"
				done
				set -- $c
				[ $# -gt 0 ] || continue
				eval "c=\${$(((r - 1) % $# + 1))}"
			fi
			hotplug "$c" 0
			inject_all
			hotplug "$c" 1
			inject_all
		done
	done
}

phase_b() {
	INJ=$((ROUND * 20)) STEPS=$((ROUND * 10))
	k=$PARK
	inject_all
	for c in $(cpus_of_pkg "$k" | tr ' ' '\n' | sort -rn); do
		hotplug "$c" 0
	done
	inject_all
	for c in $(cpus_of_pkg "$k"); do
		hotplug "$c" 1
	done
	FROZEN=$k
	inject_all
}

phase_c() {
	INJ=900 STEPS=900
	inject_all
}

# The steps run under perf stat, in this script again with a phase
# argument; $W/env holds the state they share with the main run.
case "${1:-}" in
phase-*)
	. $W/env
	case "$1" in
	phase-a) phase_a ;;
	phase-b) phase_b ;;
	phase-c) phase_c ;;
	esac
	exit 0 ;;
esac

echo "TAP version 13"
rm -rf $W
mkdir -p $W
p=$(platform)
nsock=$(sockets)
ROUNDS=${HOTPLUG_ROUNDS:-1}
PKGS=$(awk '{ print $2 }' "$PKG_MAP" | sort -un | tr '\n' ' ')
REF=$(pmus | cut -d' ' -f1)
case "$p" in
snbep | ivbep)
	imc=$(pmus | tr ' ' '\n' | grep '^uncore_imc_' | sort -t_ -k3 -n | tail -1)
	if echo "pmu=$imc socket=0" >$DBG/unplug; then
		ABSENT="$imc:0"
		ok "$imc unplugged from socket 0"
	else
		not_ok "$imc unplugged from socket 0"
	fi
	;;
esac
# One event on the first and last box of each type (the unplugged box
# apart: it is counted on its own in C).
EV_PMUS=$(for x in $(pmu_types); do
	case " $ABSENT " in *" $x:"*) ;; *) echo "$x" ;; esac
done | tr '\n' ' ' | sed 's/ $//')
evs=""
: >$W/specs
for pmu in $EV_PMUS; do
	spec=$(sample "$pmu")
	evs="$evs,$pmu/${spec%%|*}/"
	echo "$pmu|${spec#*|}" >>$W/specs
done
case "$p" in
wsmex | nhmex) PMIS=1 ;;
*) PMIS=0 ;;
esac
cat >$W/env <<EOF
PMIS=$PMIS
BIG=281474976710000
ROUNDS=$ROUNDS
PKGS="$PKGS"
REF=$REF
ABSENT="$ABSENT"
EV_PMUS="$EV_PMUS"
EOF
echo "# events: $EV_PMUS"
check_eq "at the start every cpumask holds one online CPU per socket with the box" "$(cpumask_problems)" ""
lost_total=0

# compare LABEL STATFILE: the perf stat totals against $W/want; one check.
compare() {
	bad=""
	lost=0
	# The sums in the shell's 64-bit arithmetic (awk's doubles would round
	# sums of wrapping counts).
	for pmu in $EV_PMUS; do
		for k in $PKGS; do
			eval "S_${pmu}_$k=0"
		done
	done
	while read -r _p _k _c; do
		eval "S_${_p}_$_k=\$((S_${_p}_$_k + _c))"
	done <$W/want
	for pmu in $EV_PMUS; do
		for k in $PKGS; do
			case " $ABSENT " in *" $pmu:$k "*) continue ;; esac
			eval "want=\$S_${pmu}_$k"
			got=$(stat_field "$2" "$pmu" "S$k")
			case "$got" in
			'' | *[!0-9]*) bad="$bad $pmu:S$k=[${got:-missing}/$want]"; lost=$((lost + want)) ;;
			*)
				if [ "$got" != "$want" ]; then
					bad="$bad $pmu:S$k=[$got/$want]"
					d=$((got - want))
					lost=$((lost + ${d#-}))
				fi ;;
			esac
		done
	done
	lost_total=$((lost_total + lost))
	check_eq "$1: exact totals ([got/want] listed when not)" "$bad" ""
	[ -z "$bad" ] || sed 's/^/# | /' "$2"
}

# masks LABEL: one check of the cpumask records of the phase.
masks() {
	n=$(wc -l <$W/masks 2>/dev/null || echo 0)
	check_eq "$1: after every step, every cpumask holds one online CPU per socket with the box ($n problems)" "$n" 0
	[ "$n" = 0 ] || head -12 $W/masks | sed 's/^/# /'
	: >$W/masks
}

# errors LABEL
errors() {
	check_eq "$1: every hotplug step and injection worked" "$(cat $W/errors 2>/dev/null)" ""
	: >$W/errors
}

# A. hand-over churn.
if [ "$nsock" -gt 0 ] && [ "$(($(grep -c ^processor /proc/cpuinfo) / nsock))" -ge 2 ]; then
	: >$W/want
	t0=$(uptime_s)
	pmis0=$(awk '$1 == "pmis_handled" { print $2 }' $DBG/stats)
	alien0=$(awk '$1 == "nmi_not_ours" { print $2 }' $DBG/stats)
	perf stat -a --per-socket -x, -o $W/a.stat -e "${evs#,}" -- sh "$0" phase-a >/dev/null 2>$W/a.err
	check_eq "A: perf stat exits 0" "$?" 0
	if [ "$PMIS" = 1 ]; then
		# (busybox awk has no ^: 2^47 written out)
		wraps=$(awk '$3 > 140737488355328 { n++ } END { print n + 0 }' $W/want)
		# One PMI's walk may find several overflows (injections that
		# wrapped before it ran), so PMIs number at most the wraps. The
		# exact totals below show that every wrap was accounted: a PMI
		# sent to a core that is no longer the collector is declined
		# (an NMI not ours), and its wrap is lost.
		handled=$(($(awk '$1 == "pmis_handled" { print $2 }' $DBG/stats) - pmis0))
		alien=$(($(awk '$1 == "nmi_not_ours" { print $2 }' $DBG/stats) - alien0))
		echo "# A: $wraps wrapping injections, $handled PMIs handled, $alien NMIs declined"
		check "A: the $wraps wrapping injections raised PMIs the driver handled ($handled)" \
			sh -c "[ $wraps -gt 0 ] && [ $handled -gt 0 ]"
	fi
	echo "# A: $ROUNDS rounds, $(wc -l <$W/ops 2>/dev/null || echo 0) hotplug steps, $(elapsed "$t0") s"
	compare "A: hand-over, $ROUNDS rounds" $W/a.stat
	masks "A"
	errors "A"
else
	skip "A: no socket has a second CPU"
fi

# B. parking, one session per round.
if [ "$nsock" -ge 2 ]; then
	r=0
	while [ "$r" -lt "$ROUNDS" ]; do
		r=$((r + 1))
		park=$((r % (nsock - 1) + 1))
		: >$W/want
		perf stat -a --per-socket -x, -o $W/b.stat -e "${evs#,}" -- env ROUND=$r PARK=$park sh "$0" phase-b \
			>/dev/null 2>$W/b.err
		rc=$?
		[ "$rc" = 0 ] || echo "round $r: perf stat exit status $rc" >>$W/errors
		compare "B: round $r, socket $park parked and back" $W/b.stat
	done
	echo "# B: $ROUNDS rounds"
	masks "B"
	errors "B"
else
	skip "B: one socket"
fi

# C. a new session counts every socket.
: >$W/want
perf stat -a --per-socket -x, -o $W/c.stat -e "${evs#,}" -- sh "$0" phase-c >/dev/null 2>&1
compare "C: a new session after the churn" $W/c.stat
check_eq "C: every cpumask holds one online CPU per socket with the box" "$(cpumask_problems)" ""

# The unplugged box still counts on the socket that has it, through perf
# stat -a (which opens the event on the CPUs of the PMU's cpumask). perf
# builds its --per-socket rows from every CPU of -a, so the socket without
# the box shows a row "<not counted>": that row is dropped here.
for x in $ABSENT; do
	pmu=${x%:*}
	k=1
	spec=$(sample "$pmu")
	got=$(count "$pmu/${spec%%|*}/" sh -c "echo 'pmu=$pmu socket=$k ${spec#*|} count=4321' > $DBG/inject" |
		grep -v "^S${x#*:} <not counted>\$" | tr '\n' ' ' | sed 's/ $//')
	check_eq "$pmu, unplugged from socket ${x#*:}, counts on socket $k with perf stat -a" "$got" "S$k 4321"
done

ops=$(wc -l <$W/ops 2>/dev/null || echo 0)
echo "# hotplug operations: $ops, lost counts: $lost_total"
stat_line hotplug "$ops"
stat_line lost "$lost_total"
check "rmmod" unload
done_testing

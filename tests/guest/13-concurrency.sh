#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Concurrency:
# 1. several perf stat -a sessions at once on the same box (as many events
#    as it has counters, over all sessions) and on a second PMU: each
#    session counts exactly the occurrences injected while all were open;
# 2. more events than counters, in two sessions at once on one box
#    (multiplexing): every event is counted for part of the time, with no
#    error;
# 3. readers racing with CPU hotplug: perf stat -I 100 on two boxes while
#    socket 1's collector goes offline and back HOTPLUG_ROUNDS times
#    (default 1; on a socket with a single CPU the socket parks), with
#    perf_event_open+read loops (uncore_fuzz -e, on a third PMU of the
#    same packages) and reads of the
#    simulation's regs file alongside: the interval counts add up to the
#    injections (exact; for a parked socket, up to its parking), every
#    opener gets an event, EINVAL (a parked socket) or ENODEV (an offline
#    CPU) and nothing fails.
#
# make check runs it with its small defaults on every simulated platform:
# on the debug kernel (lockdep, KASAN, kmemleak) in the first boots below,
# on Debian's stock kernel in the others; make stress (scripts/stress.sh)
# runs the long variants on the debug kernel.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock append=nopti sim=xeon7100:2 cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
# guest: kernel=stock sim=xeon7400:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
. /tests/lib.sh
. /tests/hardening.sh

W=/tmp/h13
t0=$(uptime_s)
rm -rf $W
mkdir -p $W
p=$(platform)
nsock=$(sockets)
PKGS=$(awk '{ print $2 }' "$PKG_MAP" | sort -un | tr '\n' ' ')
IFS='|' read -r box ta ia tb ib over <<EOT
$(pair "$p")
EOT
ctrs=$((over - 1))
# The second PMU: the first other one.
other=$(pmus | tr ' ' '\n' | grep -v "^$box\$" | head -1)
ospec=$(sample "$other")
# The openers' PMU in 3: a third one. (Each open and close freezes its
# box for a moment, as perf's pmu_disable does on hardware: occurrences
# in that moment are not counted, and the simulation's are instantaneous,
# so the openers stay off the boxes whose counts must be exact.)
opmu=$(pmus | tr ' ' '\n' | grep -v -e "^$box\$" -e "^$other\$" | head -1)
opspec=$(sample "$opmu")
wait_cmd="while [ ! -e $W/go ]; do sleep 0.5; done"

# 1. Concurrent sessions: K on the box (events A, B, A, B, ... up to its
# counters, at most 4), one on the other PMU.
k=$ctrs
[ "$k" -gt 4 ] && k=4
s=0
pids=""
while [ "$s" -lt "$k" ]; do
	if [ $((s % 2)) = 0 ]; then t=$ta; else t=$tb; fi
	perf stat -a --per-socket -x, -o $W/s$s.stat -e "$box/$t/" -- sh -c "$wait_cmd" >/dev/null 2>&1 &
	pids="$pids $!"
	s=$((s + 1))
done
perf stat -a --per-socket -x, -o $W/so.stat -e "$other/${ospec%%|*}/" -- sh -c "$wait_cmd" >/dev/null 2>&1 &
pids="$pids $!"
# Every session's events open: one per socket each.
if wait_modref $(((k + 1) * nsock)) 120; then
	ok "1: $k sessions on $box and one on $other are open ($(modref) events)"
else
	not_ok "1: $k sessions on $box and one on $other are open ($(modref) events, want $(((k + 1) * nsock)))"
fi
for x in $PKGS; do
	echo "pmu=$box socket=$x $ia count=$((1000 + x))" >$DBG/inject
	echo "pmu=$box socket=$x $ib count=$((2000 + x))" >$DBG/inject
	echo "pmu=$other socket=$x ${ospec#*|} count=$((3000 + x))" >$DBG/inject
done
touch $W/go
for pid in $pids; do wait "$pid"; done
rm -f $W/go
bad=""
s=0
while [ "$s" -lt "$k" ]; do
	for x in $PKGS; do
		if [ $((s % 2)) = 0 ]; then w=$((1000 + x)); else w=$((2000 + x)); fi
		got=$(stat_field $W/s$s.stat "$box" "S$x")
		[ "$got" = "$w" ] || bad="$bad session$s:S$x=[$got/$w]"
	done
	s=$((s + 1))
done
for x in $PKGS; do
	got=$(stat_field $W/so.stat "$other" "S$x")
	[ "$got" = $((3000 + x)) ] || bad="$bad $other:S$x=[$got/$((3000 + x))]"
done
check_eq "1: every session counts exactly ([got/want] listed when not)" "$bad" ""
[ -z "$bad" ] || cat $W/s*.stat | sed 's/^/# | /'
echo "# 1: $(elapsed "$t0") s"
t0=$(uptime_s)

# 2. Two sessions of $over distinct events each on the box (2 x $over
# events, $ctrs counters).
evs=""
j=0
while [ "$j" -lt "$over" ]; do
	t=$(overcommit_terms "$box" "$j")
	evs="$evs,$box/${t%%|*}/"
	j=$((j + 1))
done
perf stat -a -x, -o $W/m1.stat -e "${evs#,}" -- sh -c "$wait_cmd" >/dev/null 2>&1 &
m1=$!
perf stat -a -x, -o $W/m2.stat -e "${evs#,}" -- sh -c "$wait_cmd" >/dev/null 2>&1 &
m2=$!
wait_modref $((2 * over * nsock)) 120
# Occurrences all along, so that each event sees some while it runs.
j=0
while [ "$j" -lt 20 ]; do
	i=0
	while [ "$i" -lt "$over" ]; do
		t=$(overcommit_terms "$box" "$i")
		echo "pmu=$box ${t#*|} count=100" >$DBG/inject
		i=$((i + 1))
	done
	sleep 0.1
	j=$((j + 1))
done
touch $W/go
wait $m1
r1=$?
wait $m2
r2=$?
rm -f $W/go
check_eq "2: both multiplexing sessions exit 0" "$r1 $r2" "0 0"
probs=$(cat $W/m1.stat $W/m2.stat | problems_in /dev/stdin)
check_eq "2: no event reports an error or '<not counted>'" "$probs" ""
# Each event ran for part of the time: its percentage (the third field
# from the end; event names have commas) is above 0.
zero=$(cat $W/m1.stat $W/m2.stat | awk -F, 'NF > 4 && $1 !~ /^#/ && ($(NF - 2) + 0) <= 0 { print }')
check_eq "2: every event was counted for part of the time" "$zero" ""
mux=$(cat $W/m1.stat $W/m2.stat | awk -F, 'NF > 4 && $1 !~ /^#/ && ($(NF - 2) + 0) < 100 { n++ } END { print n + 0 }')
check "2: the events were multiplexed ($mux of $((2 * over)) ran part of the time)" [ "$mux" -gt 0 ]
[ -z "$probs$zero" ] && [ "$mux" -gt 0 ] || cat $W/m1.stat $W/m2.stat | sed 's/^/# | /'

echo "# 2: $(elapsed "$t0") s"
t0=$(uptime_s)

# 3. Interval readers racing with hotplug.
ROUNDS=${HOTPLUG_ROUNDS:-1}
last=$((nsock - 1))
set -- $(cpus_of_pkg "$last")
ncpu_last=$#
: >$W/want
: >$W/errors
# The steps, in a script run under perf stat.
cat >$W/steps.sh <<EOF
. /tests/lib.sh >/dev/null
. /tests/hardening.sh
frozen=""
inj() {
	for x in \$(online_pkgs); do
		case " \$frozen " in *" \$x "*) continue ;; esac
		echo "pmu=$box socket=\$x $ia count=\$1" >$DBG/inject || echo "inject $box \$x failed" >>$W/errors
		echo "$box \$x \$1" >>$W/want
		echo "pmu=$other socket=\$x ${ospec#*|} count=\$((\$1 + 1))" >$DBG/inject || echo "inject $other \$x failed" >>$W/errors
		echo "$other \$x \$((\$1 + 1))" >>$W/want
	done
}
# cycle CPU FROZEN: CPU offline, an injection (none into the sockets in
# FROZEN from then on), CPU online, an injection.
cycle() {
	set_online "\$1" 0 || echo "CPU \$1 offline failed" >>$W/errors
	echo 1 >>$W/ops
	frozen="\$frozen \$2"
	inj \$((r * 100 + 1))
	sleep 0.2
	set_online "\$1" 1 || echo "CPU \$1 online failed" >>$W/errors
	echo 1 >>$W/ops
	inj \$((r * 100 + 2))
	sleep 0.2
}
r=0
inj 10
sleep 0.3
while [ "\$r" -lt $ROUNDS ]; do
	r=\$((r + 1))
	if [ $ncpu_last -ge 2 ]; then
		c=\$(collector $box $last)
		hotpluggable "\$c" || c=\$(for y in $(cpus_of_pkg "$last"); do [ "\$y" != "\$c" ] && hotpluggable "\$y" && echo "\$y"; done | head -1)
		[ -n "\$c" ] || break
		cycle "\$c" ""
	else
		# A single CPU: the socket parks; its events are gone for this
		# session (perf drops the events of an offline CPU).
		cycle $1 "$last"
	fi
done
# Past the last interval read.
sleep 1
touch $W/stop
EOF
rm -f $W/stop
# Openers and regs readers alongside.
(
	n=0
	while [ ! -e $W/stop ]; do
		for x in $PKGS; do
			cpu=$(cpus_of_pkg "$x" | cut -d' ' -f1)
			r=$(/tests/uncore_fuzz -e "$opmu/${opspec%%|*}/" -c "$cpu" 2>&1)
			case "$r" in ok | EINVAL | ENODEV) ;; *) echo "opener: CPU $cpu: $r" >>$W/errors ;; esac
			n=$((n + 1))
		done
		cat $DBG/regs >/dev/null || echo "regs read failed" >>$W/errors
	done
	echo "$n" >$W/opens
) &
opener=$!
perf stat -I 100 -a --per-socket -x, -o $W/i.stat -e "$box/$ta/,$other/${ospec%%|*}/" -- sh $W/steps.sh >/dev/null 2>$W/i.err
rc=$?
touch $W/stop
wait $opener
check_eq "3: perf stat -I 100 exits 0" "$rc" 0
# Sum the interval counts per event and socket (fields: time, socket,
# CPUs, count, unit, event, ...).
bad=""
lost=0
for pmu in $box $other; do
	for x in $PKGS; do
		want=$(awk -v p="$pmu" -v k="$x" '$1 == p && $2 == k { s += $3 } END { print s + 0 }' $W/want)
		got=$(awk -F, -v p="$pmu/" -v s="S$x" '$2 == s && index($6, p) == 1 && $4 ~ /^[0-9]+$/ { t += $4 } END { print t + 0 }' $W/i.stat)
		if [ "$got" != "$want" ]; then
			bad="$bad $pmu:S$x=[$got/$want]"
			d=$((got - want))
			lost=$((lost + ${d#-}))
		fi
	done
done
check_eq "3: the interval counts add up to the injections ([got/want] listed when not)" "$bad" ""
[ -z "$bad" ] || head -40 $W/i.stat | sed 's/^/# | /'
nc=$(grep -c 'not counted\|not supported' $W/i.stat)
echo "# 3: $(grep -c . $W/i.stat) interval lines, $nc not counted, $(elapsed "$t0") s"
check_eq "3: no errors from hotplug, injection, the openers or regs reads" "$(cat $W/errors)" ""
check "3: the openers ran ($(cat $W/opens 2>/dev/null) opens)" [ "$(cat $W/opens 2>/dev/null || echo 0)" -gt 0 ]
check_eq "3: every cpumask holds one online CPU per socket afterwards" "$(cpumask_problems)" ""
ops=$(wc -l <$W/ops 2>/dev/null || echo 0)
echo "# hotplug operations: $ops, lost counts: $lost"
stat_line hotplug "$ops"
stat_line lost "$lost"
check "rmmod" unload
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A PCI box unplugged and plugged again while perf rotates more events on it
# than it has counters: the box is retired and unbound in one step that no
# start gets between, and initialised again under its lock, with the events
# that count stopped around it and started again after. No count may
# exceed what was injected for its event (a counter armed on an unbound box,
# or read across a reset, counts about 2^48). And an event that counted
# when its box went counts again once it is back.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

# Five events on the iMC's four counters: "TERMS|INJECTION".
events="event=0x1|event=0x1
event=0x2|event=0x2
event=0x3|event=0x3
event=0x4,umask=0x3|event=0x4 umask=0x1
event=0x4,umask=0xc|event=0x4 umask=0x4"
rounds=${REPLUG_ROUNDS:-60}
evs=""
script=/tmp/replug.sh
: >$script
while IFS='|' read -r terms inj; do
	evs="$evs,uncore_imc_0/$terms/"
done <<EOT
$events
EOT
i=0
while [ "$i" -lt "$rounds" ]; do
	while IFS='|' read -r terms inj; do
		echo "echo 'pmu=uncore_imc_0 socket=0 $inj count=100' > $DBG/inject" >>$script
	done <<EOT
$events
EOT
	echo "echo 'pmu=uncore_imc_0 socket=0' > $DBG/unplug" >>$script
	echo "sleep 0.01" >>$script
	echo "echo 'pmu=uncore_imc_0 socket=0' > $DBG/plug" >>$script
	i=$((i + 1))
done
# Rotation every millisecond, on the collector; the plugging from another
# CPU (the last), so that the two run at once.
echo 1 >$DEV/uncore_imc_0/perf_event_mux_interval_ms
last=$(($(grep -c ^processor /proc/cpuinfo) - 1))
perf stat -a --no-scale -x, -e "${evs#,}" -- taskset -c "$last" sh $script 2>/tmp/stat >/dev/null
bad=""
n=0
while IFS='|' read -r terms inj; do
	got=$(awk -F, -v e=",uncore_imc_0/$terms/," 'index($0, e) { print $1; exit }' /tmp/stat)
	case "$got" in ''|*[!0-9]*) bad="$bad $terms=[$got]"; continue ;; esac
	[ "$got" -le $((rounds * 100)) ] || bad="$bad $terms=$got"
	n=$((n + got))
done <<EOT
$events
EOT
check_eq "no count above its $((rounds * 100)) injected, across $rounds unplug/plug rounds" "$bad" ""
echo "# counted $n of $((5 * rounds * 100)) injected (rotation and the unplugged times lose some)"
# One event that never rotates: counting when its box is unplugged, it
# counts again from the plug on, without perf adding it again (the box is
# initialised with it stopped around the reset and started after).
got=$(total uncore_imc_0/event=0x1/ sh -c "
	echo 'pmu=uncore_imc_0 socket=0 event=0x1 count=100' > $DBG/inject
	echo 'pmu=uncore_imc_0 socket=0' > $DBG/unplug
	echo 'pmu=uncore_imc_0 socket=0' > $DBG/plug
	echo 'pmu=uncore_imc_0 socket=0 event=0x1 count=100' > $DBG/inject")
check_eq "an event counting across an unplug and a plug counts again after it" "$got" 200
check "the box counts after the last plug" [ "$(total uncore_imc_0/event=0x1/ sh -c "echo 'pmu=uncore_imc_0 socket=0 event=0x1 count=555' > $DBG/inject")" = 555 ]
check "rmmod" unload
done_testing

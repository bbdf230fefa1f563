#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every alias of every PMU of every simulated platform, the catalogs' and
# the Linux driver's: its terms apply to the PMU's format/ fields, the event
# opens on the PMU's collector, and it counts what the simulation injects
# for the counter programmed for it (tests/tools/alias_check.c). perf list
# shows them all.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=hsx:2 cpu=Haswell-noTSX,model=63,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=bdx:2 cpu=Broadwell-noTSX,model=79,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=bdxde cpu=Broadwell-noTSX,model=86,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock append=nopti sim=xeon7100:2 cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
# guest: kernel=stock sim=xeon7400:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
. /tests/lib.sh

p=$(platform)
out=$(/tests/alias_check -n 1234)
printf '%s\n' "$out" | grep '^#' | head -40
bad=$(printf '%s\n' "$out" | grep '^not ok' | sed 's/^not ok [0-9]* - //' | cut -d: -f1 | tr '\n' ' ' | sed 's/ $//')
n=$(printf '%s\n' "$out" | sed -n 's/^# \([0-9]*\) aliases checked$/\1/p')
check_eq "$p: every alias of every PMU opens and counts its injection exactly ($n aliases)" "$bad" ""
files=0
for d in $DEV/uncore_*/events; do
	files=$((files + $(ls "$d" | grep -cv '\.scale$\|\.unit$')))
done
check_eq "$p: alias_check saw every alias file" "$n" "$files"
perf list 2>/dev/null >/tmp/perf-list
listed=$(grep -c 'uncore_[a-z0-9_]*/[^/]*/' /tmp/perf-list)
# An alias that perf's own event tables of the CPU also name (haswellx's
# derived llc_misses.* and llc_references.*) perf lists once, by that
# name, not per PMU.
for d in $DEV/uncore_*/events; do ls "$d" | grep -v '\.scale$\|\.unit$'; done >/tmp/alias-names
shadowed=$(awk 'FILENAME == ARGV[1] { if ($1 !~ /\//) own[$1] = 1; next } $1 in own { n++ } END { print n + 0 }' \
	/tmp/perf-list /tmp/alias-names)
check_eq "$p: perf list shows every alias ($shadowed of them by perf's own name)" "$((listed + shadowed))" "$files"
check "rmmod" unload
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The PMI claim's hand-over window is bounded in time (simulated
# Westmere-EX, two threads per core): after the collector's core hands
# over to another core, the old core's claim ends once the hand-over's
# grace is over (milliseconds), not at its first use. An NMI of another
# source on the old core's other thread, long after the hand-over, must
# not take the PMI that is on its way to the new collector, which would
# then find nothing (the kernel's "NMI received for unknown reason").
#
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=8,sockets=2,cores=2,threads=2
. /tests/lib.sh

stat() { awk -v k="$1" '$1 == k { print $2 }' $DBG/stats; }
online() { echo "$2" >"/sys/devices/system/cpu/cpu$1/online"; }
big=281474976710000 # 2^48 - 656: the second injection wraps the counter
ev=uncore_cbox_1/event=0x14,umask=0x1/

# Socket 1: CPUs 4 and 5 are its core 0's threads, 6 and 7 core 1's.
check_eq "socket 1's collector is CPU 4" "$(collectors uncore_cbox_1 | cut -d, -f2)" 4
online 5 0
online 4 0
check_eq "... then CPU 6, on core 1" "$(collectors uncore_cbox_1 | cut -d, -f2)" 6
# Core 0 comes back, with its claim from before the hand-over unused.
online 5 1
sleep 0.2

n0=$(stat nmi_not_ours)
g0=$(stat nmis_in_grace)
p0=$(stat pmi_nmis)
# An overflow whose PMI goes to CPU 6; first CPU 5 (core 0) takes an NMI
# of another source while the PMI is pending (noise=1).
got=$(total "$ev" sh -c "
	echo 'pmu=uncore_cbox_1 socket=1 event=0x14 umask=0x1 count=$big' > $DBG/inject
	echo 'pmu=uncore_cbox_1 socket=1 event=0x14 umask=0x1 count=$big noise=1' > $DBG/inject")
check_eq "the total is exact" "$got" "$((2 * big))"
check_eq "the old core's NMI did not take the new core's PMI" \
	"$(($(stat nmi_not_ours) - n0))/$(($(stat nmis_in_grace) - g0))" "0/0"
check_eq "... one NMI took the PMI" "$(($(stat pmi_nmis) - p0))" 1

online 4 1
done_testing

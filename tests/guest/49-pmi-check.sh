#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The routing check a package's start runs before it aims any overflow
# PMI: one probe counter preset near its top with pmi_en, one pmi_core_sel
# bit at a time, and the CPU whose NMI sees the PMI tells which core the
# bit reaches (simulated U-box numberings: the `pmi` debugfs file). The
# driver's numbering is verified at load; a permuted one is learned and
# the PMIs then reach the collector; a U-box that delivers nowhere leaves
# the package on polling. One line each; counts exact; no NMI left
# unclaimed. Package 1 restarts (its CPUs 2 and 3 offline, then back) to
# run the check again under each numbering.
#
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

stat() { awk -v k="$1" '$1 == k { print $2 }' $DBG/stats; }
big=$PMI_BIG
lines() { dmesg | grep -c "$1"; }

# wraps N: pmi_wraps (lib.sh) on socket 1.
wraps() { pmi_wraps "$1" 1; }

# restart ROUTE: package 1 stops (CPUs 2 and 3 offline) and starts again
# on CPU 2 with the U-box numbering ROUTE; CPU 3 comes back after.
restart() {
	echo 0 >/sys/devices/system/cpu/cpu3/online
	echo 0 >/sys/devices/system/cpu/cpu2/online
	echo "route $1" >$DBG/pmi
	echo 1 >/sys/devices/system/cpu/cpu2/online
	echo 1 >/sys/devices/system/cpu/cpu3/online
}

# exact_by_pmis LABEL: 20 wraps on package 1 are counted exactly, each wrap
# after the first (and the first too where the counter kept a value from
# before the restart) through a PMI its collector took, no NMI left to
# others.
exact_by_pmis() {
	_h=$(stat pmis_handled)
	_n=$(stat nmi_not_ours)
	_got=$(wraps 20)
	check_eq "$1: the total is exact" "$_got" "$((20 * big))"
	_h=$(($(stat pmis_handled) - _h))
	_n=$(($(stat nmi_not_ours) - _n))
	_ok=no
	[ "$_h" -ge 19 ] && [ "$_h" -le 20 ] && [ "$_n" = 0 ] && _ok=yes
	check_eq "... 19 or 20 PMIs taken by the collector ($_h), no NMI on another core ($_n)" "$_ok" yes
}

# 1. At load, as the driver numbers cores: verified on both packages.
check_eq "load: each package's routing checked, one line each" \
	"$(lines 'package [01]: overflow PMIs reach each of its 2 cores by its pmi_core_sel bit (checked)')" 2
check_eq "... two probes per core, each NMI taken" "$(stat probe_nmis)" 8
exact_by_pmis "verified numbering"

# 2. Permuted (rank 0 is bit 1): learned at package 1's restart; its
# collector's PMIs then go by bit 1, and reach it.
restart 1,0
check_eq "permuted: the mapping is learned, said once" \
	"$(lines 'package 1: overflow PMIs reach cores by other pmi_core_sel bits than assumed; using core 0 by bit 1$')" 1
exact_by_pmis "learned numbering"
check_eq "... no fallback to polling" "$(lines 'package 1: .*polling only')" 0

# 3. Sparse (ranks 0 and 1 are bits 2 and 3): bits 0 and 1 reach nothing,
# bit 2 reaches the collector's core.
restart 2,3
check_eq "sparse: learned, said once" \
	"$(lines 'package 1: .* using core 0 by bit 2$')" 1
exact_by_pmis "sparse numbering"

# 4. A U-box that delivers to no core: every bit tried, then polling only,
# said once; the counts stay exact with no PMI.
p0=$(stat probe_nmis)
restart none
check_eq "no delivery: polling only, said once" \
	"$(lines 'package 1: no overflow PMI reached a core within 100 ms of any pmi_core_sel bit; polling only')" 1
check_eq "... no NMI came during the check" "$(($(stat probe_nmis) - p0))" 0
h0=$(stat pmis_handled)
got=$(wraps 10)
check_eq "... the total is exact, by polling" "$got/$(($(stat pmis_handled) - h0))" "$((10 * big))/0"
echo "route" >$DBG/pmi

check_eq "no NMI of unknown reason" "$(lines 'NMI received for unknown reason')" 0
done_testing

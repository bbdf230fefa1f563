#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The Skylake client family beyond Skylake: Kaby Lake and its successors
# (models 0x8e, 0x9e) and Comet Lake (0xa5, 0xa6) get the Skylake uncore,
# with sim= and on the hardware path, and perf list shows their PMUs. The
# module's aliases cover the family's CPU models and IMC host bridges
# (tests/host/modinfo.sh). And family 15 model 6 without the L3 EMON
# registers (a Pentium D, simulated) is refused with ENODEV.
#
# guest: kernel=nodebug noload cpu=Skylake-Client,model=142,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Skylake-Client,model=158,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Skylake-Client,model=165,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Skylake-Client,model=166,-hypervisor smp=4,sockets=1,cores=4
# guest: noload cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
. /tests/lib.sh

model=$(awk '/^model\t/ { print $3; exit }' /proc/cpuinfo)
fam=$(awk '/^cpu family/ { print $4; exit }' /proc/cpuinfo)
if [ "$fam" = 15 ]; then
	dmesg -c >/dev/null
	out=$(insmod /lib/modules/rust_uncore_sim.ko sim=pentiumd:2 2>&1)
	case "$out" in
	*"No such device"*) ok "sim=pentiumd: insmod is refused with ENODEV" ;;
	*) not_ok "sim=pentiumd: insmod is refused with ENODEV"; echo "# insmod said: $out" ;;
	esac
	check "... and the kernel log says why" sh -c "dmesg | grep -q 'no L3 EMON registers (MSR 0x107d8 faults): not a Xeon 7100/7400'"
	check_eq "... with no PMU left" "$(pmus)" ""
	check "sim=xeon7100 on the same machine loads (the model has the registers)" load sim=xeon7100:2
	check "rmmod" unload
	done_testing
fi
for mode in sim=skl hardware; do
	if [ "$mode" = hardware ]; then check "insmod (model $model, hardware path)" load; else check "insmod $mode (model $model)" load "$mode"; fi
	got=$(perf list 2>/dev/null | grep -o 'uncore_[a-z_0-9]*/[a-z_.0-9]*/' | cut -d/ -f1 | sort -u | tr '\n' ' ' | sed 's/ $//')
	check_eq "perf list shows aliases of every uncore PMU ($mode)" "$got" "$(pmus)"
	[ "$mode" = hardware ] && want="uncore_arb uncore_cbox_0 uncore_cbox_1 uncore_cbox_2 uncore_cbox_3" || want=$(expected_sim_pmus skl)
	check_eq "every PMU of the part ($mode)" "$(pmus)" "$want"
	check "rmmod" unload
done
done_testing

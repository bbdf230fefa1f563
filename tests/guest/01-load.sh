#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The hardware path on every CPU model: the module detects the platform,
# registers its MSR PMUs (their counters read 0 under QEMU), counts zero,
# and unloads cleanly, twice. On Debian's stock kernel too, with the same
# PMUs. On Haswell-EP, Broadwell-EP and Broadwell-DE, against the kernel's C driver (intel-uncore.ko of
# the same kernel): the same MSR PMUs, their format/ files byte for byte
# but the deliberate differences of Documentation/platforms.rst (listed
# below, and checked to be what they are); the C driver has no aliases
# there. Prints how many PMUs and files were compared.
#
# guest: kernel=nodebug noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Haswell-noTSX,model=63,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Broadwell-noTSX,model=79,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Broadwell-noTSX,model=86,-hypervisor smp=4,sockets=1,cores=4
# guest: noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Skylake-Client,model=158,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Skylake-Client,model=165,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
# guest: kernel=nodebug noload cpu=qemu64,family=15,model=6,vendor=GenuineIntel,-hypervisor smp=2,sockets=2,cores=1
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock noload cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
. /tests/lib.sh

p=$(platform)
cores=$(grep -c ^processor /proc/cpuinfo)
per_pkg=$((cores / $(sockets)))
cb=$(full_cboxes "$p")
[ "$cb" -gt "$per_pkg" ] && cb=$per_pkg
# Skylake's MSR_UNC_CBO_CONFIG reads 0 under QEMU: one C-box per core.

for round in 1 2; do
	dmesg -c >/dev/null
	check "round $round: insmod on $p" load
	if [ "$p" = skl ]; then
		check "round $round: the C-box fallback says so in one line" \
			sh -c "[ \$(dmesg | grep -c 'MSR_UNC_CBO_CONFIG gives no C-box count; assuming one per core: 4') = 1 ]"
	fi
	check_eq "round $round: PMUs of $p" "$(pmus)" "$(expected_msr_pmus "$p" "$cb")"
	first=$(pmus | cut -d' ' -f1)
	spec=$(sample "$first")
	check_eq "round $round: $first counts zero (MSRs read 0)" "$(total "$first/${spec%%|*}/")" "0"
	check "round $round: rmmod" unload
	check_eq "round $round: no PMU left" "$(pmus)" ""
done

# sysfs_of: "PMU FILE CONTENT" of every format/ and events/ file of every
# uncore PMU, sorted (one grep: a process per file is slow under TCG).
sysfs_of() {
	grep -r . $DEV/uncore_*/format $DEV/uncore_*/events 2>/dev/null |
		sed -e "s|^$DEV/||" -e 's|/| |' -e 's|:| |' | sort
}

# The deliberate format differences from the C driver (platforms.rst,
# "Haswell-EP", "Broadwell-EP"), as "PMU format/FIELD": this driver's PCU `event` has the
# extended select bit 21 and its `occ_edge` is bit 31, as on SNB-EP.
differs="uncore_pcu format/event|uncore_pcu format/occ_edge"
case "$p" in hsx | bdx | bdxde) against_c=yes ;; *) against_c=no ;; esac
if [ $against_c = yes ] && [ -f /lib/modules/intel-uncore.ko ]; then
	W=/tmp/c-sysfs
	mkdir -p $W
	check "the C driver loads" insmod /lib/modules/intel-uncore.ko
	c_pmus=$(pmus)
	sysfs_of >$W/c
	check "rmmod intel_uncore" rmmod intel_uncore
	check "load" load
	sysfs_of >$W/ours
	check_eq "$p: the PMUs are the C driver's" "$(pmus)" "$c_pmus"
	check "unload" unload
	grep ' format/' $W/c | grep -Ev "^($differs) " >$W/c.formats
	grep ' format/' $W/ours | grep -Ev "^($differs) " >$W/our.formats
	check_eq "$p: every format/ file is the C driver's, byte for byte ($(wc -l <$W/c.formats) files of $(echo "$c_pmus" | wc -w) PMUs), but the listed differences" \
		"$(awk 'FILENAME == ARGV[1] { c[$0] = 1; next }
			{ if ($0 in c) delete c[$0]; else print "only here: " $0 }
			END { for (l in c) print "only the C driver: " l }' $W/c.formats $W/our.formats)" ""
	check_eq "$p: the listed differences: the C driver's" \
		"$(grep -E "^($differs) " $W/c | tr '\n' ' ')" "uncore_pcu format/event config:0-7 uncore_pcu format/occ_edge config:14-51 "
	check_eq "$p: ... and this driver's" \
		"$(grep -E "^($differs) " $W/ours | tr '\n' ' ')" "uncore_pcu format/event config:0-7,21 uncore_pcu format/occ_edge config:31 "
	# The C driver has no aliases on these PMUs: nothing of events/ to
	# compare (this driver's are the catalog's).
	check_eq "$p: the C driver's MSR PMUs have no events/ files" "$(grep -c ' events/' $W/c)" "0"
fi

# A sim= name the module does not know: the load fails with EINVAL and one
# line naming every platform it knows (once per kernel: on Sandy Bridge).
if [ "$p" = snbep ]; then
	dmesg -c >/dev/null
	out=$(insmod /lib/modules/rust_uncore_sim.ko sim=bogus 2>&1)
	check "sim=bogus: the load fails with EINVAL" sh -c "echo \"\$1\" | grep -q 'Invalid argument'" sh "$out"
	check "sim=bogus: dmesg names every platform" \
		sh -c "dmesg | grep -q 'sim=bogus: expected <platform>\[:<sockets>\] with platform one of snbep, ivbep, nhmex, wsmex, skl, xeon7100, xeon7400, hsx, bdx, bdxde, pentiumd\$'"
	check_eq "sim=bogus: no PMU" "$(pmus)" ""
	# The simulation needs its platform.
	dmesg -c >/dev/null
	out=$(insmod /lib/modules/rust_uncore_sim.ko 2>&1)
	check "rust_uncore_sim.ko without sim=: the load fails with EINVAL" sh -c "echo \"\$1\" | grep -q 'Invalid argument'" sh "$out"
	check "... and dmesg says sim= is required" \
		sh -c "dmesg | grep -q 'sim=<platform>\[:<sockets>\] is required, with platform one of snbep, '"
	# The module users load is the hardware only: it has no sim parameter
	# (the kernel ignores one, with a warning, and the hardware is driven)
	# and no debugfs files.
	dmesg -c >/dev/null
	check "rust_uncore.ko sim=snbep:2: loads, on the hardware" insmod /lib/modules/rust_uncore.ko sim=snbep:2
	check "... the kernel ignored sim= (rust_uncore.ko has no such parameter)" \
		sh -c "dmesg | grep -q \"rust_uncore: unknown parameter 'sim' ignored\""
	check "... no simulation message" sh -c "! dmesg | grep -q simulating"
	check "... no parameter in sysfs, no debugfs directory" \
		sh -c "[ ! -e /sys/module/rust_uncore/parameters/sim ] && [ ! -e /sys/kernel/debug/rust_uncore ]"
	check "rmmod" unload
fi
done_testing

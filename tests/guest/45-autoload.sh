#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A boot with both drivers installed logs no error: udev's coldplug loads
# every module that has an alias matching one of the machine's device
# modaliases (its CPUs' and its PCI functions'), and the kernel's
# intel_uncore has CPU aliases for these models. rust_uncore has none, so
# only intel_uncore loads, in whichever order udev would try them, and the
# kernel log has no warning or error line from either; rust_uncore is then
# loaded by name, as the admin guide says (intel_uncore unloaded first).
# On Debian's stock kernel (no udev in the guest: the test matches the
# aliases of each module file against the modaliases as udev's modprobe
# does, and loads what matches).
#
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock noload cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

c_ko=/lib/modules/intel-uncore.ko
rust_ko=/lib/modules/rust_uncore.ko
{
	cat /sys/devices/system/cpu/modalias
	cat /sys/bus/pci/devices/*/modalias
} >/tmp/modaliases
# Whether coldplug loads module file $1: one of its aliases (its .modinfo
# strings) matches one of the modaliases, as a shell pattern matches.
autoloads() {
	tr '\0' '\n' <"$1" | sed -n 's/^alias=//p' >/tmp/aliases
	while read -r m; do
		while read -r a; do
			# shellcheck disable=SC2254 # the alias is a pattern
			case "$m" in $a) return 0 ;; esac
		done </tmp/aliases
	done </tmp/modaliases
	return 1
}
# The kernel log's lines at KERN_WARNING or above (raw levels 0-4) that
# name either driver or an uncore PMU.
loud() { dmesg -r | grep -E '^<[0-4]>' | grep -iE 'uncore' || true; }

check "intel_uncore has an alias for this machine (the premise)" autoloads $c_ko
check "rust_uncore has none: coldplug never loads it" sh -c "! grep -qa 'alias=' $rust_ko"

for order in "$c_ko $rust_ko" "$rust_ko $c_ko"; do
	dmesg -c >/dev/null
	loaded=
	for ko in $order; do
		if autoloads "$ko"; then
			insmod "$ko" 2>/dev/null
			loaded="$loaded $(basename "$ko" .ko)"
		fi
	done
	first=$(basename "${order%% *}" .ko)
	check_eq "coldplug trying $first first loads intel_uncore only" "$(cut -d' ' -f1 /proc/modules | grep -E '^(intel_uncore|rust_uncore)$' | tr '\n' ' ')" "intel_uncore "
	out=$(loud)
	echo "$out" | sed 's/^/# /'
	check_eq "... and no warning or error line about the uncore" "$out" ""
	rmmod intel_uncore 2>/dev/null
	rmmod rust_uncore 2>/dev/null
done

# The documented way to have rust_uncore: intel_uncore kept away, then
# loaded by name. It logs one warning, and only on SNB-EP, where QEMU has
# none of the uncore's PCI functions: the line that says why its PCI PMUs
# are missing (the MSR PMUs are there).
dmesg -c >/dev/null
check "loaded by name" insmod $rust_ko
check "its PMUs are there" [ -d $DEV/uncore_cbox_0 ]
want=
[ "$(platform)" = snbep ] &&
	want='<4>rust_uncore: no PCI uncore PMUs: cannot map uncore buses to sockets: no U-box device'
# (The kernel's own line for the first out-of-tree module aside.)
out=$(dmesg -r | grep -E '^<[0-4]>' | grep -v 'loading out-of-tree module taints kernel' | sed 's/^\(<[0-9]>\)\[[^]]*\] */\1/' || true)
echo "$out" | sed 's/^/# /'
check_eq "no warning or error line but the missing parts' one" "$out" "$want"
# The admin guide's command that shows refusals where the kernel has
# dynamic debug (Debian's); a filter bit the event does not use.
if [ -e /proc/dynamic_debug/control ] && [ "$(platform)" = snbep ]; then
	echo 'module rust_uncore +p' > /proc/dynamic_debug/control
	check_eq "dynamic debug on: a refused event is EINVAL" \
		"$(/tests/perf_open uncore_cbox_0 0x0334:$((0x182 << 23)) 2>&1 | head -1)" "EINVAL 0"
	check_eq "... and logged at debug level" "$(dmesg -r | grep -c '^<7>.*rust_uncore: uncore_cbox_0: event refused: config1 bits 0xc1000000 are not used by this event$')" 1
	echo 'module rust_uncore -p' > /proc/dynamic_debug/control
fi
check "rmmod" unload
done_testing

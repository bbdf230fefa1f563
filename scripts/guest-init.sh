#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test guest. Mounts the pseudo file systems, then runs each
# script of the run (/run/1, /run/2, ...) in turn: loads the driver with
# the script's module arguments unless told not to (rust_uncore_sim.ko
# with a sim= argument, rust_uncore.ko otherwise), runs the script, leaves
# a clean guest for the next one (modules unloaded, every CPU online, no
# trace event enabled), and
# prints the script's output, exit status and kernel log between markers
# that scripts/guest.sh parses. Ends with one kmemleak scan (on a kernel
# that has kmemleak; the nodebug kernel has none) and powers off.
# All of that goes to the second serial port, so that kernel messages on
# the console (the first) can never interleave with it.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/sbin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/cpu

if [ -c /dev/ttyS1 ]; then
	stty -F /dev/ttyS1 raw -echo 2>/dev/null
	exec >/dev/ttyS1 2>&1
fi

# Ignore whatever kmemleak saw during boot: only this run's leaks count.
[ -w /sys/kernel/debug/kmemleak ] && echo clear > /sys/kernel/debug/kmemleak

# cleanup: undo what a script may have left behind.
cleanup() {
	for m in rust_uncore rust_uncore_sim rust_test_pmu intel_uncore; do
		if grep -q "^$m " /proc/modules; then
			echo "# runner: unloading $m, left loaded by the script"
			rmmod "$m" || echo "# runner: rmmod $m failed"
		fi
	done
	for f in /sys/devices/system/cpu/cpu*/online; do
		[ "$(cat "$f")" = 1 ] || echo 1 >"$f"
	done
	[ -w /sys/kernel/tracing/events/enable ] && echo 0 >/sys/kernel/tracing/events/enable
	return 0
}

i=1
while [ -f "/run/$i/script.sh" ]; do
	MODARGS=
	AUTOLOAD=1
	. "/run/$i/run.conf"
	export MODARGS
	echo "GUEST-SCRIPT-BEGIN $i"
	t0=$(cut -d' ' -f1 /proc/uptime)
	if [ "$AUTOLOAD" = 1 ]; then
		case " $MODARGS" in
		*" sim="*) ko=rust_uncore_sim.ko ;;
		*) ko=rust_uncore.ko ;;
		esac
		# shellcheck disable=SC2086
		insmod /lib/modules/$ko $MODARGS || echo "guest: insmod $ko $MODARGS failed"
	fi
	sh "/run/$i/script.sh"
	rc=$?
	cleanup
	echo "# runner: $(awk -v t0="$t0" '{ printf "%.1f", $1 - t0 }' /proc/uptime) s in the guest"
	echo "GUEST-SCRIPT-END $i status=$rc"
	echo "GUEST-DMESG-BEGIN $i"
	dmesg -c
	echo "GUEST-DMESG-END $i"
	i=$((i + 1))
done

if [ ! -f /run/no-leak-check ] && [ -w /sys/kernel/debug/kmemleak ]; then
	# kmemleak reports an object only when two scans in a row found it
	# unreferenced and unchanged, and only when it was allocated at least
	# 5 s before the second scan began. The first scan runs at once; the
	# second starts no sooner than 5.5 s after the last script ended.
	t_end=$(cut -d' ' -f1 /proc/uptime)
	echo scan > /sys/kernel/debug/kmemleak
	while awk -v t="$t_end" '{ exit !($1 - t < 5.5) }' /proc/uptime; do
		sleep 0.5
	done
	echo scan > /sys/kernel/debug/kmemleak
	echo "GUEST-KMEMLEAK-BEGIN"
	cat /sys/kernel/debug/kmemleak
	echo "GUEST-KMEMLEAK-END"
fi
echo "GUEST-DMESG-BEGIN end"
dmesg -c
echo "GUEST-DMESG-END end"
poweroff -f

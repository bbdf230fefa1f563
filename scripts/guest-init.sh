#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# /init of the test guest. Mounts the pseudo file systems, optionally loads
# rust_uncore.ko with the run's module arguments, runs the run's script,
# then prints the script's exit status, any kmemleak report and the kernel
# log between markers that scripts/guest.sh parses, and powers off.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin:/sbin:/usr/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t tmpfs tmpfs /tmp
mkdir -p /dev/cpu

. /run/run.conf

# Ignore whatever kmemleak saw during boot: only this run's leaks count.
[ -w /sys/kernel/debug/kmemleak ] && echo clear > /sys/kernel/debug/kmemleak

echo "GUEST-SCRIPT-BEGIN"
if [ "$AUTOLOAD" = 1 ]; then
	# shellcheck disable=SC2086
	insmod /lib/modules/rust_uncore.ko $MODARGS || echo "guest: insmod rust_uncore.ko $MODARGS failed"
fi
sh /run/script.sh
rc=$?
echo "GUEST-SCRIPT-END status=$rc"

if [ -z "$NO_LEAK_CHECK" ] && [ -w /sys/kernel/debug/kmemleak ]; then
	# kmemleak reports only objects older than 5 s; scan twice to be sure.
	sleep 6
	echo scan > /sys/kernel/debug/kmemleak
	echo scan > /sys/kernel/debug/kmemleak
	echo "GUEST-KMEMLEAK-BEGIN"
	cat /sys/kernel/debug/kmemleak
	echo "GUEST-KMEMLEAK-END"
fi
echo "GUEST-DMESG-BEGIN"
dmesg
echo "GUEST-DMESG-END"
poweroff -f

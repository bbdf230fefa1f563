#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# README.md's stock-load block, run as written on Debian's own kernel: the
# module that the README's stock-build commands installed in the Debian 13
# root (tests/host/stock-readme.sh; the guest carries its
# /lib/modules/<release>) loads with modprobe, registers its PMUs, and perf
# counts with the README's event.
#
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

rel=$(uname -r)
check "the README's module is installed for $rel" sh -c "ls /lib/modules/$rel/updates/rust_uncore.ko* >/dev/null" 
sed -n '/^<!-- stock-load:/,/^<!-- \/stock-load -->/p' /tests/README.md | sed -n '/^```/,/^```/p' | sed '/^```/d' >/tmp/load.sh
check "README.md has a stock-load block" [ -s /tmp/load.sh ]
mkdir -p /etc/modprobe.d
# As a user types them: a command that fails does not stop the next.
out=$(sh /tmp/load.sh 2>&1)
echo "$out" | sed 's/^/# /'
check "modprobe loaded rust_uncore" grep -q '^rust_uncore ' /proc/modules
check "the blacklist file is written" grep -qx 'blacklist intel_uncore' /etc/modprobe.d/rust-uncore.conf
check "the PMUs are listed" sh -c "echo \"\$1\" | grep -qx uncore_cbox_0" sh "$out"
check "perf counts the README's event" sh -c "echo \"\$1\" | grep -qE '^ +[0-9,]+ +uncore_cbox_0/event=0x34,umask=0x8f/'" sh "$out"
check "rmmod" rmmod rust_uncore
done_testing

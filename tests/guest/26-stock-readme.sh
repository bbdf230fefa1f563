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
stock_load
done_testing

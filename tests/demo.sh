#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The demo script run in the guest by scripts/demo.sh (make demo).
DBG=/sys/kernel/debug/rust_uncore
DEV=/sys/bus/event_source/devices
set -x
dmesg | grep rust_uncore_sim
ls $DEV
cat $DEV/uncore_cbox_0/cpumask
grep . $DEV/uncore_cbox_0/format/*
perf list 2>/dev/null | grep -i uncore | head -20
# LLC lookups in C-box 0 (socket 0: 123456, socket 1: 654321), counted by
# perf while the simulated hardware sees them.
perf stat -a --per-socket -e uncore_cbox_0/event=0x34,umask=0x8f/ -- sh -c \
	"echo 'pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x1 count=123456' > $DBG/inject;
	 echo 'pmu=uncore_cbox_0 socket=1 event=0x34 umask=0x3 count=654321' > $DBG/inject"
# The U-box UCLK fixed counter and a PCU band filter.
perf stat -a -e uncore_ubox/event=0xff/,uncore_pcu/event=0xb,filter_band0=20/ -- sh -c \
	"echo 'pmu=uncore_ubox event=0xff count=2700000000' > $DBG/inject;
	 echo 'pmu=uncore_pcu event=0xb freq=27 count=1000' > $DBG/inject;
	 echo 'pmu=uncore_pcu event=0xb freq=12 count=5000' > $DBG/inject"
rmmod rust_uncore_sim

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
# LLC lookups of data reads in C-box 0 (socket 0: 123456 lookups of lines
# in state I, 2000 writes, which the event does not count; socket 1:
# 654321 of lines in state S), counted by perf through the alias, which
# selects every state (filter_state=0x1f: without it the event counts
# nothing), while the simulated hardware sees them.
perf stat -a --per-socket -e uncore_cbox_0/llc_lookup.data_read/ -- sh -c \
	"echo 'pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x2 state=0 count=123456' > $DBG/inject;
	 echo 'pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x4 state=0 count=2000' > $DBG/inject;
	 echo 'pmu=uncore_cbox_0 socket=1 event=0x34 umask=0x2 state=1 count=654321' > $DBG/inject" 2>&1 |
	tee /tmp/demo.out
# Memory traffic per socket in MiB (64 bytes a CAS command): socket 0
# reads 16 MiB on channel 0, socket 1 writes 4 MiB on channel 2.
perf stat -a --per-socket -e uncore_imc/cas_count_read/,uncore_imc/cas_count_write/ -- sh -c \
	"echo 'pmu=uncore_imc_0 socket=0 event=0x4 umask=0x1 count=262144' > $DBG/inject;
	 echo 'pmu=uncore_imc_2 socket=1 event=0x4 umask=0x4 count=65536' > $DBG/inject" 2>&1 |
	tee -a /tmp/demo.out
# The U-box UCLK fixed counter and a PCU band filter.
perf stat -a -e uncore_ubox/event=0xff/,uncore_pcu/event=0xb,filter_band0=20/ -- sh -c \
	"echo 'pmu=uncore_ubox event=0xff count=2700000000' > $DBG/inject;
	 echo 'pmu=uncore_pcu event=0xb freq=27 count=1000' > $DBG/inject;
	 echo 'pmu=uncore_pcu event=0xb freq=12 count=5000' > $DBG/inject"
rmmod rust_uncore_sim
set +x
# The counts perf printed must be the ones injected (the demo fails if not).
got=$(awk '/^ *S[0-9]/ && $NF ~ /\/$/ { print $1, $3, $NF }' /tmp/demo.out)
want="S0 123456 uncore_cbox_0/llc_lookup.data_read/
S1 654321 uncore_cbox_0/llc_lookup.data_read/
S0 16.00 uncore_imc/cas_count_read/
S0 0.00 uncore_imc/cas_count_write/
S1 0.00 uncore_imc/cas_count_read/
S1 4.00 uncore_imc/cas_count_write/"
if [ "$got" = "$want" ]; then
	echo "demo: every count is the injected one"
else
	printf 'demo: the counts are not the injected ones:\n%s\nwant:\n%s\n' "$got" "$want"
	exit 1
fi

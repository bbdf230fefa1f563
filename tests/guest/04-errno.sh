#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# event_init's refusals, each with its errno, through perf_event_open(2)
# (tests/tools/perf_open.c), and the events that must be accepted.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

po() { /tests/perf_open "$@" 2>&1 | head -1; }

check_eq "a plain event opens" "$(po uncore_cbox_0 0x0114)" "ok"
check_eq "opening on a non-collecting CPU is moved to the collector" "$(po uncore_cbox_0 0x0114 --cpu 1)" "ok"
check_eq "another PMU's type is not claimed (ENOENT)" "$(po uncore_cbox_0 0x0114 --type 4)" "ENOENT 0"
check_eq "sampling: EINVAL" "$(po uncore_cbox_0 0x0114 --sample 1000)" "EINVAL 0"
check_eq "per-task: EINVAL" "$(po uncore_cbox_0 0x0114 --task)" "EINVAL 0"
check_eq "exclude_user: EINVAL" "$(po uncore_cbox_0 0x0114 --exclude-user)" "EINVAL 0"
check_eq "any CPU (cpu -1): EINVAL" "$(po uncore_cbox_0 0x0114 --cpu -1)" "EINVAL 0"
check_eq "config bits outside the formats (20-21): EINVAL" "$(po uncore_cbox_0 0x300114)" "EINVAL 0"
check_eq "event=0xff on a box without a fixed counter: EINVAL" "$(po uncore_cbox_0 0xff)" "EINVAL 0"
check_eq "fixed counter on the U-box: ok" "$(po uncore_ubox 0xff)" "ok"
check_eq "a filter field the event does not use: EINVAL" "$(po uncore_cbox_0 0x0334:$((0x182 << 23)))" "EINVAL 0"
check_eq "the filter field the event uses: ok" "$(po uncore_cbox_0 0x0334:$((0x1 << 18)))" "ok"
check_eq "config1 on the U-box: EINVAL" "$(po uncore_ubox 0x0114:1)" "EINVAL 0"
check_eq "PCU band filter of another band: EINVAL" "$(po uncore_pcu 0xb:$((20 << 8)))" "EINVAL 0"
check_eq "PCU band filter of its band: ok" "$(po uncore_pcu 0xb:20)" "ok"
check_eq "a group of four fits four counters" "$(po uncore_cbox_0 0x0114 -- 0x0214 0x0414 0x0814)" "ok"
check_eq "a group of five does not: EINVAL" "$(po uncore_cbox_0 0x0114 -- 0x0214 0x0414 0x0814 0x1014)" "EINVAL 4"
check_eq "two counter-0-only events in a group: EINVAL" "$(po uncore_cbox_0 0x0111 -- 0x0211)" "EINVAL 1"
check_eq "conflicting filter values in a group: EINVAL" \
	"$(po uncore_cbox_0 0x0334:$((1 << 18)) -- 0x0334:$((2 << 18)))" "EINVAL 1"
check_eq "equal filter values in a group: ok" \
	"$(po uncore_cbox_0 0x0334:$((1 << 18)) -- 0x0534:$((1 << 18)))" "ok"
# The refusals above are more than the ten per PMU per 5 s the kernel log
# takes (tests/guest/38-log-flood.sh): the next one is in an interval of its
# own.
sleep 5.2
log_refusals
echo "errno-test: mark" >/dev/kmsg
po uncore_cbox_0 0x0334:$((0x182 << 23)) >/dev/null
check_eq "a refusal is explained once in the kernel log" "$(dmesg | sed -n '/errno-test: mark/,$p' | grep -c 'uncore_cbox_0: event refused: config1 bits 0xc1000000 are not used by this event')" "1"
check "rmmod" unload
done_testing

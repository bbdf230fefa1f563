#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# No user who may open perf events can flood the kernel log with this
# driver's refusals. Where the kernel has dynamic debug (Debian's), they
# go through it: 10,000 refused events print nothing, and once enabled in
# its control file a refusal is logged. Elsewhere (the test kernels),
# 10,000 refused events in a row print at most ten lines per PMU per 5 s
# (the kernel's printk_ratelimited defaults), and the first line of the
# next interval says how many were left out, so that every refusal is
# either logged or counted. Another PMU's refusal is still explained
# meanwhile.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

po() { /tests/perf_open "$@" 2>&1 | head -1; }
now() { cut -d' ' -f1 /proc/uptime; }
# A filter field the event does not use.
bad=0x0334:$((0x182 << 23))
line='uncore_cbox_0: event refused: config1 bits 0xc1000000 are not used by this event'

ctl=/proc/dynamic_debug/control
if [ -e $ctl ]; then
	m=$(loaded_module)
	check "the refusals' call site is in dynamic debug's control file, off" \
		sh -c "grep -F '[$m]ru_pr_debug ' $ctl | grep -q ' =_ '"
	echo "flood-test: mark" >/dev/kmsg
	check_eq "10,000 refused events: EINVAL" "$(po uncore_cbox_0 $bad --repeat 10000)" "EINVAL 0"
	check_eq "... and no line" "$(dmesg | sed -n '/flood-test: mark/,$p' | grep -c 'event refused')" 0
	echo "module $m +p" >$ctl
	check_eq "enabled: a refusal is EINVAL" "$(po uncore_cbox_0 $bad)" "EINVAL 0"
	echo "module $m -p" >$ctl
	check_eq "... and logged, at debug level" \
		"$(dmesg -r | sed -n '/flood-test: mark/,$p' | grep -cE "^<7>.*$m: $line\$")" 1
	check "rmmod" unload
	done_testing
fi

# Earlier refusals of this PMU (in this boot) are in an interval of their
# own.
sleep 5.2
echo "flood-test: mark" >/dev/kmsg
t0=$(now)
check_eq "10,000 refused events: EINVAL" "$(po uncore_cbox_0 $bad --repeat 10000)" "EINVAL 0"
t1=$(now)
echo "# 10,000 refusals in $(echo "$t1 $t0" | awk '{ printf "%.2f", $1 - $2 }') s"
check_eq "another PMU's refusal is explained meanwhile" \
	"$(po uncore_ubox 0x0114:1 >/dev/null; dmesg | sed -n '/flood-test: mark/,$p' | grep -c 'uncore_ubox: event refused: ')" "1"
# The next interval's first refusal says how many were left out.
sleep 5.2
check_eq "the next refusal: EINVAL" "$(po uncore_cbox_0 $bad)" "EINVAL 0"
# (10,000 lines would have pushed the mark out of the log buffer.)
check "the kernel log still holds the mark" sh -c "dmesg | grep -q 'flood-test: mark'"
log=$(dmesg | sed -n '/flood-test: mark/,$p')
printed=$(echo "$log" | grep -cF "$line")
missed=$(echo "$log" | sed -n 's/.*uncore_cbox_0: \([0-9]*\) event refusals not logged$/\1/p' | awk '{ s += $1 } END { print s + 0 }')
echo "# lines printed: $printed, said left out: $missed"
# Intervals the flood can have touched: one per 5 s of it, and the next.
intervals=$(echo "$t1 $t0" | awk '{ print int(($1 - $2) / 5) + 2 }')
check "at most ten lines per interval ($intervals intervals)" [ "$printed" -le $((10 * intervals)) ]
check "every refusal logged or counted" [ $((printed + missed)) -eq 10001 ]
check "rmmod" unload
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The hardware path register by register against the kernel's C driver
# (intel-uncore.ko of the same kernel), on each CPU model the C driver
# registers MSR PMUs for. The events: every alias of the C driver on the
# first PMU of each type, and a spread of this driver's own aliases there
# (every Nth, at most about 100) whose terms the C driver's formats can
# express. Each driver in turn is loaded with the msr:write_msr tracepoint
# on, and each event is opened, enabled, disabled, read and closed
# (alias_check -l, which marks each event in the trace). Every value the C
# driver writes for an event must be written by this one for the same
# event, once the deliberate differences are set aside: the list in
# Documentation/platforms.rst ("Deliberate differences from the C
# driver's register writes"), which write_diff reads from the same file.
# Prints how many events were compared.
#
# guest: kernel=nodebug noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Haswell-noTSX,model=63,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Broadwell-noTSX,model=79,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Broadwell-noTSX,model=86,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug noload cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Skylake-Client,model=158,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug noload cpu=Skylake-Client,model=165,-hypervisor smp=4,sockets=1,cores=4
. /tests/lib.sh

T=/sys/kernel/tracing
C_KO=/lib/modules/intel-uncore.ko
RULES=/tests/platforms.rst
W=/tmp/c-writes
p=$(platform)
if [ ! -f "$C_KO" ]; then
	skip "no intel-uncore.ko in the guest"
	done_testing
fi
rm -rf $W
mkdir -p $W

# sysfs DIR...: "PMU NAME VALUE" for each file of each DIR (a PMU's
# format/ or events/), one grep for all (a process per file is slow under
# TCG).
sysfs() {
	grep -r . "$@" 2>/dev/null | sed -e "s|^$DEV/||" -e 's|/[a-z]*/| |' -e 's|:| |'
}

# The first PMU of each type the C driver registers (uncore_cbox_0 for
# uncore_cbox_*), its format fields and aliases.
check "insmod intel-uncore.ko" insmod $C_KO
firsts=$(ls -d $DEV/uncore_* | awk -F/ '{ n = $NF; t = n; sub(/_[0-9]+$/, "", t); if (!(t in s)) { s[t]; print n } }')
for n in $firsts; do
	sysfs "$DEV/$n/format" >>$W/formats
	sysfs "$DEV/$n/events" >>$W/c-aliases
done
check "rmmod intel_uncore" rmmod intel_uncore
if [ ! -s $W/formats ]; then
	skip "the C driver registers no MSR PMU on $p"
	done_testing
fi
# "PMU|terms" of an alias file list (no .scale or .unit).
awk '$2 !~ /\.(scale|unit)$/ { print $1 "|" $3 }' $W/c-aliases >$W/c-events

# This driver's aliases on the same PMUs that the C driver's formats
# encode as this driver's do (the same config words): the IVB-EP PCU's
# `event` is bits 7:0 in the C driver, 7:0 and 21 here, so an alias of
# event 0x117 is another event there.
check "load" load
for n in $firsts; do
	sysfs "$DEV/$n/events" >>$W/our-aliases
done
awk '$2 !~ /\.(scale|unit)$/ { print $1 "|" $3 }' $W/our-aliases >$W/our-all
/tests/alias_check -e $W/our-all >$W/enc.ours
check "unload" unload
check "insmod intel-uncore.ko again" insmod $C_KO
/tests/alias_check -e $W/our-all >$W/enc.c
check "rmmod intel_uncore again" rmmod intel_uncore
awk -F'|' 'FILENAME == ARGV[1] { o[$1 "|" $2] = $3; next }
	$3 != "-" && o[$1 "|" $2] == $3 { print $1 "|" $2 }' $W/enc.ours $W/enc.c >$W/our-events
every=$((($(wc -l <$W/our-events) + 99) / 100))
[ "$every" -ge 1 ] || every=1
awk -v e="$every" 'NR % e == 0' $W/our-events >>$W/c-events 2>/dev/null
sort -u $W/c-events >$W/events
n_ev=$(wc -l <$W/events)
echo "# $p: $n_ev events ($(wc -l <$W/our-events) of this driver's aliases expressible, every $every)"

# run DRIVER: DRIVER's writes, "K MSR VALUE" (K 0: before the first event,
# the load included), uncore MSRs only (0x391-0x3ff, 0x700-0x7ff,
# 0xc00-0xfff: no FS base, x2APIC or TSC deadline of the guest's own).
run() {
	echo >$T/trace
	echo 1 >$T/events/msr/write_msr/enable
	if [ "$1" = ours ]; then load; else insmod $C_KO; fi
	/tests/alias_check -l $W/events >$W/fail.$1
	echo 0 >$T/events/msr/write_msr/enable
	if [ "$1" = ours ]; then unload; else rmmod intel_uncore; fi
	awk 'function hex(s, i, n) {
			n = 0
			for (i = 1; i <= length(s); i++) n = n * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return n
		}
		BEGIN { k = 0 }
		/tracing_mark_write: ev / { k = $NF; next }
		/write_msr: / {
			for (i = 1; i <= NF; i++) if ($i == "write_msr:") { m = $(i + 1); v = $(i + 3) }
			sub(/,$/, "", m)
			x = hex(m)
			if ((x >= 0x391 && x <= 0x3ff) || (x >= 0x700 && x <= 0x7ff) || (x >= 0xc00 && x <= 0xfff))
				print k, m, v
		}' $T/trace >$W/w.$1
}
run ours
run c
check_eq "every event opens, counts and closes on this driver" "$(cat $W/fail.ours)" ""
check_eq "every event opens, counts and closes on the C driver" "$(cat $W/fail.c)" ""
check "the trace has writes of both drivers ($(wc -l <$W/w.ours), $(wc -l <$W/w.c))" \
	sh -c '[ -s "$1" ] && [ -s "$2" ]' sh $W/w.ours $W/w.c
/tests/write_diff $RULES "$p" $W/w.ours $W/w.c >$W/diff
rc=$?
grep '^#' $W/diff
echo "# this driver's writes before the first event: $(awk '$1 == 0 { printf " %s=%s", $2, $3 }' $W/w.ours | head -c 600)"
check "$p: every C write of $n_ev events is this driver's too, or a listed difference" [ "$rc" = 0 ]
# The unexplained writes: how many to each MSR, and the first of each.
grep -v '^#' $W/diff | awk '{ n[$2]++; if (!($2 in first)) first[$2] = $0 }
	END { for (m in n) print n[m], first[m] }' | sort -rn | while read -r n k rest; do
	echo "#   $n to MSR ${rest%% *}, e.g. event $k $(sed -n "${k}p" $W/events): $rest"
done
done_testing

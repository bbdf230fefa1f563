#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The hardening defects, each shown in the simulation:
# - reads from NMI context while the collector holds the box's and the
#   model's locks (the self-test), exact, on MSR, PCI and MMIO boxes; and
#   the calls those contexts must not make (run_on, a timer's start and
#   cancel) refused;
# - after every hotplug step, a poll timer runs wherever an event counts,
#   each PMU's cpumask holds the collectors, and totals stay exact;
# - a PCI box missing on one socket: its PMU shows and accepts only the
#   other, and perf stat -a works; bound again, the box is initialised;
# - the PCI registry does not grow across unbind/bind;
# - a group larger than the box's slots is refused when it is opened;
# - an injection that would wrap a counter at once is refused (ERANGE);
#   unplugging an MSR box is refused and its events keep counting.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=stock sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=rt sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

p=$(platform)
n=$(sockets)
stat() { awk -v k="$1" '$1 == k { print $2 }' $DBG/stats; }
# first_cpu SOCKET / cpus SOCKET: the CPUs of a socket, in order.
cpus() {
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		[ "$(cat "$c/topology/physical_package_id")" = "$1" ] && echo "${c##*cpu}"
	done | sort -n | tr '\n' ' '
}

# 1. NMI reads. "PMU CONFIG INJECTION" per line. A box in PCI
# configuration space cannot be read from NMI context (the PCI core's
# lock): its NMI reads are skipped and stale, and the next read in process
# context is exact; every other box reads exactly from NMI.
case "$p" in
snbep) nmi_boxes="uncore_cbox_1 0x114 event=0x14 umask=0x1
uncore_imc_0 0x304 event=0x4 umask=0x3" ;;
wsmex) nmi_boxes="uncore_cbox_1 0x114 event=0x14 umask=0x1
uncore_sbox_0 0x114 event=0x14 umask=0x1" ;;
skl) nmi_boxes="uncore_cbox_1 0x114 event=0x14 umask=0x1
uncore_imc 0x1 event=0x1" ;;
esac
while read -r pmu cfg inj; do
	s=0
	while [ "$s" -lt "$n" ]; do
		if echo "pmu=$pmu socket=$s config=$cfg $inj count=1000 rounds=20" >$DBG/selftest; then r=ok; else r=failed; fi
		case "$pmu" in
		uncore_imc_*)
			# Stale from NMI (exact only where a poll ran first).
			check_eq "$pmu socket $s: 20 reads from NMI context under the collector's locks, stale, each next read exact" \
				"$r $(stat selftest_nmi_reads) $(( $(stat selftest_exact) + $(stat selftest_stale) )) $(stat selftest_then_exact)" "ok 20 20 20"
			check "... most of them stale ($(stat selftest_stale))" [ "$(stat selftest_stale)" -ge 15 ] ;;
		*)
			check_eq "$pmu socket $s: 20 reads from NMI context under the collector's locks, each exact" \
				"$r $(stat selftest_nmi_reads) $(stat selftest_exact) $(stat selftest_then_exact)" "ok 20 20 20" ;;
		esac
		s=$((s + 1))
	done
done <<EOT
$nmi_boxes
EOT
# The last self-test's 20 rounds also asked the abstraction layer, from the
# NMI, for run_on, a timer's start and its cancel and a sleep, and with
# interrupts off (in the cross-CPU call) for run_on, a timer's cancel and a
# sleep: each refused.
check_eq "from NMI and with interrupts off, run_on, a timer's start and cancel and a sleep are refused (EINVAL)" \
	"$(stat selftest_refused) $(stat selftest_accepted)" "140 0"
# Self-tests written at once: one runs, the other is refused with EBUSY.
set -- $nmi_boxes
line="pmu=$1 socket=0 config=$2 $3 $4 count=1000 rounds=200"
(echo "$line" >$DBG/selftest) 2>/tmp/st1 &
(echo "$line" >$DBG/selftest) 2>/tmp/st2 &
wait
check "two self-tests at once: one refused with EBUSY" grep -q 'busy' /tmp/st1 /tmp/st2

# 2. Hotplug sequences while events count on two boxes and every socket.
case "$p" in
snbep) ev="uncore_cbox_0/event=0x14,umask=0x1/,uncore_imc_2/event=0x4,umask=0x3/"
	inj0="pmu=uncore_cbox_0 event=0x14 umask=0x1" inj1="pmu=uncore_imc_2 event=0x4 umask=0x3" ;;
wsmex) ev="uncore_cbox_0/event=0x14,umask=0x1/,uncore_wbox/event=0x14,umask=0x1/"
	inj0="pmu=uncore_cbox_0 event=0x14 umask=0x1" inj1="pmu=uncore_wbox event=0x14 umask=0x1" ;;
skl) ev="uncore_cbox_0/event=0x14,umask=0x1/,uncore_imc/event=0x1/"
	inj0="pmu=uncore_cbox_0 event=0x14 umask=0x1" inj1="pmu=uncore_imc event=0x1" ;;
esac
last=$((n - 1))
# The last socket's CPUs that can go offline (CPU 0 cannot).
set -- $(for c in $(cpus "$last"); do [ -e /sys/devices/system/cpu/cpu$c/online ] && echo "$c"; done)
a=$1
b=${2:-$1}
# Steps that keep a CPU on every socket: the last socket's collector goes
# and comes back, then its other CPU, then the first one again.
steps="0:$a 1:$a 0:$b 1:$b 0:$a 1:$a"
[ "$a" = "$b" ] && steps=""
m0=${inj0#pmu=}
m0=${m0%% *}
m1=${inj1#pmu=}
m1=${m1%% *}
script=/tmp/hotplug.sh
{
	echo ". /tests/lib.sh >/dev/null"
	echo "bad=''"
	echo "check_step() {"
	echo "	u=\$(awk '\$1 == \"unpolled_boxes\" { print \$2 }' $DBG/stats)"
	echo "	[ \"\$u\" = 0 ] || bad=\"\$bad \$1:unpolled=\$u\""
	echo "	for m in $m0 $m1; do"
	echo "		l=\$(expand_list \"\$(cat $DEV/\$m/cpumask)\")"
	echo "		[ \$(echo \$l | tr ',' ' ' | wc -w) = $n ] || bad=\"\$bad \$1:\$m=\$l\""
	echo "		for c in \$(echo \$l | tr ',' ' '); do"
	echo "			[ \"\$(cat /sys/devices/system/cpu/cpu\$c/online 2>/dev/null || echo 1)\" = 1 ] || bad=\"\$bad \$1:\$m:cpu\$c-offline\""
	echo "		done"
	echo "	done"
	echo "}"
	k=0
	for st in start $steps; do
		[ "$st" = start ] || echo "echo ${st%%:*} > /sys/devices/system/cpu/cpu${st#*:}/online"
		s=0
		while [ "$s" -lt "$n" ]; do
			echo "echo '$inj0 socket=$s count=$((100 * (k + 1) + s))' > $DBG/inject"
			echo "echo '$inj1 socket=$s count=$((1000 * (k + 1) + s))' > $DBG/inject"
			s=$((s + 1))
		done
		echo "check_step step$k"
		k=$((k + 1))
	done
	echo "echo \"\$bad\" > /tmp/hotplug.bad"
} >$script
out=$(perf stat -a --per-socket -x, -e "$ev" -- sh $script 2>&1 >/dev/null)
check_eq "after each of $k hotplug steps: a poll timer wherever an event counts; one online collector per socket" \
	"$(cat /tmp/hotplug.bad)" ""
# The expected totals: socket s got 100*k+s and 1000*k+s at step k-1.
want=""
got=""
s=0
while [ "$s" -lt "$n" ]; do
	w0=0 w1=0 i=1
	while [ "$i" -le "$k" ]; do
		w0=$((w0 + 100 * i + s))
		w1=$((w1 + 1000 * i + s))
		i=$((i + 1))
	done
	want="$want S$s:$w0:$w1"
	g0=$(printf '%s\n' "$out" | awk -F, -v e="$m0/" -v s="S$s" '$1 == s && index($0, e) { print $3 }')
	g1=$(printf '%s\n' "$out" | awk -F, -v e="$m1/" -v s="S$s" '$1 == s && index($0, e) { print $3 }')
	got="$got S$s:$g0:$g1"
	s=$((s + 1))
done
check_eq "and the totals of both boxes on every socket are exact" "$got" "$want"
# Every socket back online: one collector per socket in every cpumask.
bad=""
for pmu in $(pmus); do
	[ "$(collectors "$pmu" | tr ',' ' ' | wc -w)" = "$n" ] || bad="$bad $pmu"
done
check_eq "every PMU shows one collector per socket again" "$bad" ""

if [ "$p" = snbep ]; then
	# 3. A PCI box missing on socket 1.
	before=$(stat pci_entries)
	echo "pmu=uncore_imc_0 socket=1" >$DBG/unplug
	set -- $(cpus 0)
	check_eq "uncore_imc_0's cpumask holds socket 0 only" "$(collectors uncore_imc_0)" "$1"
	check_eq "other PMUs keep both sockets" "$(collectors uncore_imc_1 | tr ',' ' ' | wc -w)" "2"
	got=$(perf stat -a -x, -e uncore_imc_0/cas_count_read/ -- sh -c \
		"echo 'pmu=uncore_imc_0 socket=0 event=0x4 umask=0x3 count=16384' > $DBG/inject" 2>&1 >/dev/null)
	check_eq "perf stat -a on it works and counts socket 0" "$(echo "$got" | cut -d, -f1-3)" "1.00,MiB,uncore_imc_0/cas_count_read/"
	check_eq "opening it on socket 1 is refused" "$(/tests/perf_open uncore_imc_0 0x304 --cpu "$(cpus 1 | cut -d' ' -f1)")" "EINVAL 0"
	# 6. Bound again: its box is initialised (the model resets a new
	# device's registers; the driver writes frz_en, 0x10000).
	echo "pmu=uncore_imc_0 socket=1" >$DBG/plug
	check_eq "bound again, the box is initialised" \
		"$(grep 'socket 1 imc_0 ' $DBG/regs | cut -d' ' -f4-5)" "box_ctl 0x10000"
	check_eq "and its PMU shows socket 1 again" "$(collectors uncore_imc_0 | tr ',' ' ' | wc -w)" "2"
	got=$(count uncore_imc_0/event=0x4,umask=0x3/ sh -c "echo 'pmu=uncore_imc_0 socket=1 event=0x4 umask=0x3 count=77' > $DBG/inject")
	check_eq "and counts on socket 1" "$(echo $got)" "S0 0 S1 77"
	# 5. The registry does not grow.
	i=0
	while [ "$i" -lt 10 ]; do
		echo "pmu=uncore_qpi_1 socket=0" >$DBG/unplug
		echo "pmu=uncore_qpi_1 socket=0" >$DBG/plug
		i=$((i + 1))
	done
	after=$(stat pci_entries)
	case "$before" in
	'' | *[!0-9]* | 0) not_ok "the PCI registry keeps its size across 11 unbind/bind cycles (no pci_entries figure: '$before')" ;;
	*) check_eq "the PCI registry keeps its size across 11 unbind/bind cycles ($before entries)" "$after" "$before" ;;
	esac
	check "binding a present box twice is refused" sh -c "! echo 'pmu=uncore_qpi_1 socket=0' > $DBG/plug"
fi

# 7. Groups: more events than slots is refused at open, not at add.
case "$p" in
skl) g="uncore_imc 0x1" ;;
*) g="uncore_cbox_0 0x114" ;;
esac
set -- $g
members=$(awk -v e="$2" 'BEGIN { for (i = 1; i < 21; i++) printf " %s", e }')
check_eq "a group of 21 events of one box is refused when it is opened" \
	"$(/tests/perf_open "$1" "$2" -- $members | cut -d' ' -f1)" "EINVAL"
if [ "$p" = skl ]; then
	members=$(awk 'BEGIN { for (i = 1; i < 20; i++) printf " 0x%d", i % 5 + 1 }')
	check_eq "a group of 20 free-running IMC events opens" "$(/tests/perf_open uncore_imc 0x1 -- $members)" "ok"
fi

# 8. Robustness of the simulation.
check "an injection that would wrap a counter at once is refused" \
	sh -c "! echo 'pmu=uncore_cbox_0 event=0x14 umask=0x1 count=18446744073709551615' > $DBG/inject 2>/tmp/err && grep -q 'out of range' /tmp/err"
check "and so is count x inc overflowing 64 bits" \
	sh -c "! echo 'pmu=uncore_cbox_0 event=0x14 umask=0x1 count=4294967296 inc=4294967295' > $DBG/inject"
got=$(total uncore_cbox_0/event=0x14,umask=0x1/ sh -c "
	echo 'pmu=uncore_cbox_0 event=0x14 umask=0x1 count=5' > $DBG/inject
	echo 'pmu=uncore_cbox_0' > $DBG/unplug 2>/tmp/err || echo refused > /tmp/refused
	echo 'pmu=uncore_cbox_0 event=0x14 umask=0x1 count=6' > $DBG/inject")
check_eq "unplugging an MSR box is refused" "$(cat /tmp/refused 2>/dev/null)" "refused"
check_eq "and its events keep counting" "$got" "11"
check "rmmod" unload
done_testing

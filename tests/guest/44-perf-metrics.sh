#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf's own event names and built-in metrics, from the tables perf has for
# the CPU model (jaketown for Sandy Bridge-EP, ivytown for Ivy Bridge-EP,
# haswellx, broadwellx and broadwellde for models 63, 79 and 86),
# count through this module's PMUs: perf list shows them, and under the
# simulation each count, and each metric's value, is what the injected
# traffic implies (a metric to the two decimals perf prints, from the
# duration_time perf prints with it): UNC_M_CAS_COUNT.RD and .WR;
# DRAM_BW_Use, 64 * (CAS reads + CAS writes) / 1e9 / duration_time in
# GB/s; Socket_CLKS, the C-box 0 clockticks summed over the packages; and
# UNCORE_FREQ, Socket_CLKS / #num_dies / duration_time / 1e9 in GHz; and
# UNC_C_LLC_LOOKUP.DATA_READ, which perf 6.1's tables give without a state
# filter, counts 0 (the module's llc_lookup.data_read sets one). The
# guest's perf is Debian 12's (6.1), whose tables name the metrics so;
# newer perf names them tma_info_system_dram_bw_use and
# tma_info_system_socket_clks. On Broadwell-DE perf 6.1 has no Socket_CLKS
# or UNCORE_FREQ, and its DRAM_BW_Use is the client parts' formula over the
# arb PMU, which no driver registers there (perf 6.12's broadwellde table
# has the CAS formula): the metrics are checked to be what perf 6.1 makes
# of them and not run. README.md's commands of these events run in
# 43-readme-commands.sh.
#
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=ivbep:2 cpu=IvyBridge,model=62,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=hsx:2 cpu=Haswell-noTSX,model=63,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=bdx:2 cpu=Broadwell-noTSX,model=79,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=bdxde cpu=Broadwell-noTSX,model=86,-hypervisor smp=4,sockets=1,cores=4
. /tests/lib.sh

p=$(platform)
last=$(($(sockets) - 1))
# dies: the number of dies (package, die pairs), perf's #num_dies.
dies=$(for c in /sys/devices/system/cpu/cpu[0-9]*/topology; do
	echo "$(cat "$c/physical_package_id"):$(cat "$c/die_id" 2>/dev/null || echo 0)"
done | sort -u | wc -l)

perf list 2>/dev/null >/tmp/list.out
for e in unc_m_cas_count.rd unc_m_cas_count.wr; do
	check "perf list has perf's $e for this CPU" grep -q "^  $e " /tmp/list.out
done
perf list metric 2>/dev/null >/tmp/metric.out
metrics="DRAM_BW_Use Socket_CLKS UNCORE_FREQ"
[ "$p" != bdxde ] || metrics=DRAM_BW_Use
for m in $metrics; do
	check "perf list metric has $m" grep -q "^  $m\$" /tmp/metric.out
done

# perf 6.1's UNC_C_LLC_LOOKUP.DATA_READ is event=0x34,umask=0x3 without a
# state filter: it counts none of the data read lookups (filter_state
# selects none; README.md says so), which llc_lookup.data_read counts.
cat >/tmp/readme.sets <<END
set data read lookups of lines in the states I and S in C-box 0
inject pmu=uncore_cbox_0 socket=0 event=0x34 umask=0x2 state=0 count=300
inject pmu=uncore_cbox_0 socket=$last event=0x34 umask=0x2 state=1 count=200
want UNC_C_LLC_LOOKUP.DATA_READ 0
arm cbox_[0-9]+
END
cp /tmp/readme.sets /tmp/readme.sets.in
readme_play "perf stat -a -e UNC_C_LLC_LOOKUP.DATA_READ -- sleep 1"
# The control: the same lookups, counted by the module's alias.
sed -e 's/^want UNC_C_LLC_LOOKUP.DATA_READ 0$/want uncore_cbox_0\/llc_lookup.data_read\/ 500/' -e 's/^arm .*/arm cbox_0/' /tmp/readme.sets.in >/tmp/readme.sets
readme_play "perf stat -a -e uncore_cbox_0/llc_lookup.data_read/ -- sleep 1"

# UNC_M_CAS_COUNT.RD per socket: reads of both kinds count, writes do not.
cat >/tmp/readme.sets <<END
set reads on three channels of both sockets, writes on one
inject pmu=uncore_imc_0 socket=0 event=0x4 umask=0x1 count=100000
inject pmu=uncore_imc_1 socket=$last event=0x4 umask=0x2 count=20000
inject pmu=uncore_imc_3 socket=$last event=0x4 umask=0x1 count=3000
inject pmu=uncore_imc_2 socket=0 event=0x4 umask=0xc count=400000
want UNC_M_CAS_COUNT.RD 123000
arm imc_[0-9]+
END
readme_play "perf stat -a --per-socket -e UNC_M_CAS_COUNT.RD -- sleep 1"

# Every uncore event of perf's tables for this CPU opens by its name, on
# the first box of its unit (uncore_cbox_0/unc_c_clockticks/: perf's alias
# of the box) and the first package's collector, 100 to a perf run. (Where
# this module has an alias of the same name, llc_misses.pcie_read, perf
# merges the two.)
t0=$(date +%s)
perf list 2>/dev/null | awk '/^  [a-z]/ { n = $1; d = ""; next }
	n { d = d " " $0; if (d ~ /\]/) { if (match(d, /Unit: *uncore_[a-z0-9]+/)) { u = substr(d, RSTART, RLENGTH); sub(/Unit: */, "", u); print n, u } n = "" } }' |
	sort -u >/tmp/perf-events
first_box() { if [ -e "$DEV/${1}_0" ]; then echo "${1}_0"; else echo "$1"; fi; }
cpu0=$(collectors uncore_ubox | cut -d, -f1)
while read -r e u; do
	echo "$(first_box "$u")/$e/"
done </tmp/perf-events | awk '{ print > ("/tmp/perf-chunk." int((NR - 1) / 100)) }'
n=$(wc -l </tmp/perf-events)
check "perf lists this CPU's uncore events ($n)" [ "$n" -gt 400 ]
bad=0 runs=0 unfit=""
for c in /tmp/perf-chunk.[0-9] /tmp/perf-chunk.[0-9][0-9]; do
	[ -f "$c" ] || continue
	runs=$((runs + 1))
	perf stat -C "$cpu0" -x, -e "$(paste -sd, "$c")" -- true >"$c.out" 2>&1 &&
		! grep -q '<not supported>\|syntax error\|Invalid argument' "$c.out" && continue
	# One at a time: an event whose terms perf's own parser finds wider
	# than the PMU's format field never reaches the kernel (perf 6.1's
	# jaketown U-box events); any other failure is a failure.
	: >"$c.out"
	while read -r ev; do
		o=$(perf stat -C "$cpu0" -x, -e "$ev" -- true 2>&1)
		case "$o" in
		*"value too big for format"*) unfit="$unfit $ev" ;;
		*"<not supported>"* | *"syntax error"* | *"Invalid argument"*)
			bad=$((bad + 1))
			echo "$o" | grep -v '^[0-9]' | head -3 | sed 's/^/# /' ;;
		*) echo "$o" | grep '^[0-9<]' >>"$c.out" ;;
		esac
	done <"$c"
done
[ -z "$unfit" ] || echo "# perf's own parser refuses (a term wider than the PMU's format field):$unfit"
# A line per event: its count, or <not counted> where it never had a
# counter in so short a run (a hundred events share the box's four).
opened=$(cat /tmp/perf-chunk.*.out | grep -v '<not supported>' | grep -c '^[0-9<]')
check_eq "every uncore event of perf's tables opens by name ($n names, $opened opened in $runs perf runs)" "$bad" 0
check_eq "... each of them, but those perf's parser refuses" "$opened" "$(($(cat /tmp/perf-chunk.[0-9] /tmp/perf-chunk.[0-9][0-9] 2>/dev/null | wc -l) - $(echo $unfit | wc -w)))"
echo "# by name: $(($(date +%s) - t0)) s"

if [ "$p" = bdxde ]; then
	check "perf 6.1's broadwellde DRAM_BW_Use wants the arb PMU, which Broadwell-DE has not" \
		sh -c "perf stat -a -M DRAM_BW_Use -- true 2>&1 | grep -q \"Cannot find PMU .arb'\""
	check "rmmod" unload
	done_testing
fi

# DRAM_BW_Use over two seconds: 24 GiB read and 6 GiB written.
cat >/tmp/readme.sets <<END
set 24 GiB read, 6 GiB written, on both sockets
inject pmu=uncore_imc_0 socket=0 event=0x4 umask=0x1 count=268435456
inject pmu=uncore_imc_1 socket=$last event=0x4 umask=0x2 count=134217728
inject pmu=uncore_imc_2 socket=0 event=0x4 umask=0x4 count=67108864
inject pmu=uncore_imc_3 socket=$last event=0x4 umask=0x8 count=33554432
want uncore_imc/cas_count_read/ 24576
want uncore_imc/cas_count_write/ 6144
metric DRAM_BW_Use $(awk 'BEGIN { printf "%.9f\n", 64 * 503316480 / 1e9 }')
END
readme_play "perf stat -a -M DRAM_BW_Use -- sleep 2"

# Socket_CLKS and UNCORE_FREQ: 2.7e9 clockticks in C-box 0 of each package
# (the metric's box), 1e9 in C-box 1 (not the metric's).
n=2700000000
cat >/tmp/readme.sets <<END
set $n clockticks in C-box 0 of each package, 1000000000 in C-box 1
$(s=0; while [ "$s" -le "$last" ]; do echo "inject pmu=uncore_cbox_0 socket=$s event=0x0 count=$n"; s=$((s + 1)); done)
inject pmu=uncore_cbox_1 socket=0 event=0x0 count=1000000000
want Socket_CLKS $((n * (last + 1)))
metric UNCORE_FREQ $(awk -v n="$n" -v s="$((last + 1))" -v d="$dies" 'BEGIN { printf "%.9f\n", n * s / d / 1e9 }')
arm cbox_0
END
readme_play "perf stat -a -M Socket_CLKS,UNCORE_FREQ -- sleep 1"
check "rmmod" unload
done_testing

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The sysfs tree of every simulated platform on 1, 2 and 4 sockets: every
# PMU, its format/ and events/ files byte for byte, and cpumask with one
# CPU per socket.
#
# guest: kernel=nodebug sim=snbep cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=ivbep:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
# guest: kernel=nodebug sim=xeon7400:4 cpu=Penryn,model=29,-hypervisor smp=4,sockets=4,cores=1
# guest: kernel=nodebug sim=hsx:2 cpu=Haswell-noTSX,model=63,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=bdx:2 cpu=Broadwell-noTSX,model=79,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

p=$(platform)
check_eq "PMUs of $p" "$(pmus)" "$(expected_sim_pmus "$p")"

# cpumask: the first CPU of each socket (compared as expanded lists).
want=$(for c in /sys/devices/system/cpu/cpu[0-9]*; do
	echo "$(cat "$c/topology/physical_package_id") ${c##*cpu}"
done | sort -n -k1,1 -k2,2 | awk '!seen[$1]++ { print $2 }' | sort -n | tr '\n' ',' | sed 's/,$//')
bad=""
for pmu in $(pmus); do
	[ "$(expand_list "$(cat "$DEV/$pmu/cpumask")")" = "$want" ] || bad="$bad $pmu"
done
check_eq "cpumask of every PMU is one CPU per socket ($want)" "$bad" ""

# fmt PMU FIELD: content of a format file.
fmt() { cat "$DEV/$1/format/$2"; }
# fmts PMU: "name=value" of every format file, sorted, one line.
fmts() { for f in "$DEV/$1"/format/*; do printf '%s=%s ' "${f##*/}" "$(cat "$f")"; done | sed 's/ $//'; }
evs() { for f in "$DEV/$1"/events/*; do [ -e "$f" ] && printf '%s=%s ' "${f##*/}" "$(cat "$f")"; done | sed 's/ $//'; }
# lacks PMU NAME=VALUE...: the pairs the PMU's events/ does not have (the
# catalogs add every documented event; the Linux driver's aliases must be
# there with their exact text).
lacks() {
	pmu=$1
	shift
	for kv in "$@"; do
		[ "$(cat "$DEV/$pmu/events/${kv%%=*}" 2>/dev/null)" = "${kv#*=}" ] || printf '%s ' "$kv"
	done
}

case "$p" in
snbep)
	check_eq "cbox format" "$(fmts uncore_cbox_0)" "edge=config:18 event=config:0-7 filter_nid=config1:10-17 filter_opc=config1:23-31 filter_state=config1:18-22 filter_tid=config1:0-4 inv=config:23 thresh=config:24-31 tid_en=config:19 umask=config:8-15"
	check_eq "pcu format (occ_edge is bit 31, event has bit 21)" "$(fmts uncore_pcu)" "edge=config:18 event=config:0-7,21 filter_band0=config1:0-7 filter_band1=config1:8-15 filter_band2=config1:16-23 filter_band3=config1:24-31 inv=config:23 occ_edge=config:31 occ_invert=config:30 occ_sel=config:14-15 thresh=config:24-28"
	check_eq "ubox format" "$(fmts uncore_ubox)" "edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-28 umask=config:8-15"
	check "ubox events: the catalog's (the Linux driver has none)" [ "$(ls $DEV/uncore_ubox/events | wc -l)" -ge 19 ]
	check_eq "ha format" "$(fmts uncore_ha)" "edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-31 umask=config:8-15"
	check_eq "imc events of the Linux driver" "$(lacks uncore_imc_3 cas_count_read=event=0x04,umask=0x03 cas_count_read.scale=6.103515625e-5 cas_count_read.unit=MiB cas_count_write=event=0x04,umask=0x0c cas_count_write.scale=6.103515625e-5 cas_count_write.unit=MiB clockticks=event=0xff,umask=0x00)" ""
	check_eq "qpi event format (extended select)" "$(fmt uncore_qpi_1 event)" "config:0-7,21"
	check_eq "qpi events of the Linux driver (extended select kept)" "$(lacks uncore_qpi_0 clockticks=event=0x14 drs_data=event=0x102,umask=0x08 ncb_data=event=0x103,umask=0x04 txl_flits_active=event=0x00,umask=0x06)" ""
	check_eq "qpi match/mask formats" "$(fmt uncore_qpi_0 match_rds) $(fmt uncore_qpi_0 mask_dnid) $(fmt uncore_qpi_0 match1)" "config1:48-51 config2:13-17 config1:32-63"
	;;
ivbep)
	check_eq "cbox format (no inv)" "$(fmts uncore_cbox_14)" "edge=config:18 event=config:0-7 filter_c6=config1:61 filter_isoc=config1:63 filter_link=config1:5-8 filter_nc=config1:62 filter_nid=config1:32-47 filter_opc=config1:52-60 filter_state=config1:17-22 filter_tid=config1:0-4 thresh=config:24-31 tid_en=config:19 umask=config:8-15"
	check_eq "ubox format (no inv)" "$(fmts uncore_ubox)" "edge=config:18 event=config:0-7 thresh=config:24-28 umask=config:8-15"
	check_eq "irp format (no inv)" "$(fmts uncore_irp)" "edge=config:18 event=config:0-7 thresh=config:24-31 umask=config:8-15"
	check_eq "qpi_2 events (the Linux driver has none)" "$(lacks uncore_qpi_2 clockticks=event=0x14)" ""
	;;
hsx | bdx)
	check_eq "cbox format (the Linux driver's: no inv)" "$(fmts uncore_cbox_17)" "edge=config:18 event=config:0-7 filter_c6=config1:61 filter_isoc=config1:63 filter_link=config1:6-8 filter_nc=config1:62 filter_nid=config1:32-47 filter_opc=config1:52-60 filter_state=config1:17-23 filter_tid=config1:0-5 thresh=config:24-31 tid_en=config:19 umask=config:8-15"
	check_eq "sbox format" "$(fmts uncore_sbox_3)" "edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-31 tid_en=config:19 umask=config:8-15"
	if [ "$p" = hsx ]; then ubox="edge=config:18 event=config:0-7 filter_cid=config1:5 filter_tid=config1:0 inv=config:23 thresh=config:24-28 umask=config:8-15"
	else ubox="edge=config:18 event=config:0-7 inv=config:23 thresh=config:24-28 umask=config:8-15"; fi
	check_eq "ubox format ($p)" "$(fmts uncore_ubox)" "$ubox"
	check_eq "pcu format (occ_edge is bit 31, event has bit 21)" "$(fmts uncore_pcu)" "edge=config:18 event=config:0-7,21 filter_band0=config1:0-7 filter_band1=config1:8-15 filter_band2=config1:16-23 filter_band3=config1:24-31 inv=config:23 occ_edge=config:31 occ_invert=config:30 occ_sel=config:14-15 thresh=config:24-28"
	check_eq "imc events of the Linux driver" "$(lacks uncore_imc_7 clockticks=event=0x00,umask=0x00 cas_count_read=event=0x04,umask=0x03 cas_count_read.scale=6.103515625e-5 cas_count_read.unit=MiB cas_count_write=event=0x04,umask=0x0c cas_count_write.scale=6.103515625e-5 cas_count_write.unit=MiB)" ""
	check_eq "cbox llc_lookup.data_read: every line state (perf's table gives none)" "$(cat $DEV/uncore_cbox_0/events/llc_lookup.data_read)" "event=0x34,umask=0x3,filter_state=0x7f"
	check_eq "qpi match/mask formats" "$(fmt uncore_qpi_2 match_rds) $(fmt uncore_qpi_2 mask_dnid)" "config1:48-51 config2:13-17"
	;;
wsmex | nhmex)
	check_eq "wbox events of the Linux driver" "$(lacks uncore_wbox clockticks=event=0xff,umask=0)" ""
	check_eq "bbox format" "$(fmts uncore_bbox_1)" "counter=config:6-7 event=config:1-5 mask=config2:0-63 match=config1:0-63"
	check_eq "rbox format" "$(fmts uncore_rbox_0)" "event=config:1-5 iperf_cfg=config1:0-31 qlx_cfg=config1:0-15 xbr_mask=config2:0-63 xbr_match=config1:0-63 xbr_mm_cfg=config:32-63"
	check_eq "ubox format" "$(fmts uncore_ubox)" "edge=config:18 event=config:0-7"
	check_eq "mbox format" "$(fmts uncore_mbox_0)" "count_mode=config:2-3 dsp=config1:0-31 filter_cfg_en=config2:63 filter_mask=config2:34-61 filter_match=config2:0-33 flag_mode=config:7 fvc=config1:0-31 inc_sel=config:9-13 iss=config1:0-31 map=config1:0-31 pgt=config1:0-31 pld=config1:32-63 set_flag_sel=config:19-21 storage_mode=config:4-5 thr=config1:0-31"
	if [ "$p" = wsmex ]; then fvc=0x5000; else fvc=0x2800; fi
	check_eq "mbox bbox_cmds_read" "$(cat $DEV/uncore_mbox_0/events/bbox_cmds_read)" "inc_sel=0xd,fvc=$fvc"
	check_eq "rbox qpi0_flit_send" "$(cat $DEV/uncore_rbox_1/events/qpi0_flit_send)" "event=0x0,iperf_cfg=0x80000000"
	;;
skl)
	check_eq "cbox format" "$(fmts uncore_cbox_0)" "cmask=config:24-28 edge=config:18 event=config:0-7 inv=config:23 umask=config:8-15"
	check_eq "clockticks only on cbox_0" "$(lacks uncore_cbox_0 clockticks=event=0xff,umask=0x00)|$(lacks uncore_cbox_1 clockticks=event=0xff,umask=0x00)" "|clockticks=event=0xff,umask=0x00 "
	check_eq "imc format" "$(fmts uncore_imc)" "event=config:0-7"
	check_eq "imc events of the Linux driver" "$(lacks uncore_imc data_reads=event=0x01 data_reads.scale=6.103515625e-5 data_reads.unit=MiB data_writes=event=0x02 data_writes.scale=6.103515625e-5 data_writes.unit=MiB gt_requests=event=0x03 ia_requests=event=0x04 io_requests=event=0x05)" ""
	;;
xeon7400)
	check_eq "gbsq format" "$(fmts uncore_gbsq)" "agent_select=config:32-35 core_module_select=config:54-55 cross_snoop=config:58 data_flow=config:36-37 fill_eviction=config:56-57 l3_state=config:47-53 snoop_match=config:44-46 type_match=config:38-43"
	check_eq "fsb format" "$(fmts uncore_fsb)" "fsb_submask=config:32-57"
	;;
esac

# perf parses every format file: one event per PMU type naming every term
# (set to zero) opens.
bad=""
for pmu in $(pmus | tr ' ' '\n' | awk '{ t = $0; sub(/_[0-9]+$/, "", t) } !seen[t]++'); do
	spec=$(sample "$pmu")
	terms=${spec%%|*}
	for f in "$DEV/$pmu"/format/*; do
		t=${f##*/}
		case ",$terms," in *",$t="*) ;; *) terms="$terms,$t=0" ;; esac
	done
	evs="$evs,$pmu/$terms/"
done
check "perf accepts every format term" sh -c "perf stat -a -e '${evs#,}' -- true >/dev/null 2>&1"
check "rmmod" unload
check_eq "no PMU left" "$(pmus)" ""
done_testing

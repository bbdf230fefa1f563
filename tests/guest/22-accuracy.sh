#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Where the manuals say what no other driver does (325294, the Xeon E7
# uncore guide), in the simulation, which models each point:
# - the W-box counter read erratum (§2.8.3, after Table 2-100, Westmere-EX):
#   counts across a 2^24 boundary stay exact;
# - S-box queue occupancy (§2.5.2 and Table 2-30): the enable carries
#   reset_occ_cnt, so a second count of the same counter starts from zero;
# - the Nehalem-EX S-box summary bits (its Table 2-26): a C-box 4 overflow
#   raises a PMI whose walk finds it;
# - the R-box QPI links by their Table 2-40 names.
#
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=stock sim=nhmex:2 cpu=Nehalem,model=46,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

p=$(platform)
stat() { awk -v k="$1" '$1 == k { print $2 }' $DBG/stats; }

if [ "$p" = wsmex ]; then
	# Up to 0xfffff0, then 0x10 (the counter then holds 0x1000000, which a
	# read sees as 0x2000000), then 5: uncorrected, the middle read would
	# make a delta near 2^48.
	got=$(total uncore_wbox/event=0x14,umask=0x1/ sh -c "
		echo 'pmu=uncore_wbox event=0x14 umask=0x1 count=16777200' > $DBG/inject
		echo 'pmu=uncore_wbox event=0x14 umask=0x1 count=16' > $DBG/inject
		echo 'pmu=uncore_wbox event=0x14 umask=0x1 count=5' > $DBG/inject")
	check_eq "W-box counts across a 2^24 boundary are exact (read erratum corrected)" "$got" "16777221"
	got=$(total uncore_wbox/clockticks/ sh -c "
		echo 'pmu=uncore_wbox event=0xff count=16777216' > $DBG/inject
		echo 'pmu=uncore_wbox event=0xff count=1' > $DBG/inject")
	check_eq "and so are the fixed counter's" "$got" "16777217"
fi

# TO_R_SNP_MSGQ_OCCUPANCY (0xa): 3 entries for 100 cycles, twice.
ev="uncore_sbox_0/event=0xa/"
inj="echo 'pmu=uncore_sbox_0 event=0xa inc=3 count=100' > $DBG/inject"
check_eq "S-box occupancy: a first count" "$(total "$ev" sh -c "$inj")" "300"
check_eq "S-box occupancy: a second count starts from zero (reset_occ_cnt)" "$(total "$ev" sh -c "$inj")" "300"

if [ "$p" = nhmex ]; then
	big=281474976710000
	before=$(stat pmis_handled)
	got=$(count uncore_cbox_4/event=0x14,umask=0x4/ sh -c "
		echo 'pmu=uncore_cbox_4 socket=1 event=0x14 umask=0x4 count=$big' > $DBG/inject
		echo 'pmu=uncore_cbox_4 socket=1 event=0x14 umask=0x4 count=$big' > $DBG/inject")
	check_eq "Nehalem-EX C-box 4 counts across its wrap" "$(echo $got)" "S0 0 S1 $((2 * big))"
	check "... and its overflow raised a PMI that was handled" [ $(($(stat pmis_handled) - before)) -ge 1 ]
	check "... whose walk found the C-box (its status cleared)" \
		sh -c "grep 'socket 1 cbox_4 ' $DBG/regs | grep -q 'status 0x0 '"
fi

# The QPI links by Table 2-40's names.
check_eq "rbox_0: qpi1 is port 0" "$(cat $DEV/uncore_rbox_0/events/qpi1.flit_send)" "event=0x0,iperf_cfg=0x80000000"
check_eq "rbox_0: qpi0 is port 1" "$(cat $DEV/uncore_rbox_0/events/qpi0.flit_send)" "event=0x6,iperf_cfg=0x80000000"
check_eq "rbox_1: qpi2 and qpi3 are ports 4 and 5" \
	"$(cat $DEV/uncore_rbox_1/events/qpi2.flit_send) $(cat $DEV/uncore_rbox_1/events/qpi3.flit_send)" \
	"event=0x0,iperf_cfg=0x80000000 event=0x6,iperf_cfg=0x80000000"
check "the Linux driver's spellings stay" [ -e $DEV/uncore_rbox_0/events/qpi1_filt_send ]
got=$(count uncore_rbox_1/qpi3.flit_send/ sh -c \
	"echo 'pmu=uncore_rbox_1 socket=0 event=0x6 sub=0x80000000 count=12' > $DBG/inject")
check_eq "rbox_1/qpi3.flit_send/ counts port 5's flits" "$(echo $got)" "S0 12 S1 0"
check "rmmod" unload
done_testing

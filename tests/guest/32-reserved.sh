#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Reserved and undefined bits of the Nehalem-EX/Westmere-EX match/mask
# registers are refused at event_init with EINVAL, and the kernel log says
# which field: R-box XBR match/mask bits 63:52, 47:36, 30:18 and 2:0
# ("Reserved; Must write to 0", 325294 Tables 2-51, 2-52), B-box match/mask
# bits 63:60 (above opc_out, Tables 2-22, 2-23). The format files stay the
# C driver's (tests/guest/02-sysfs.sh), so perf still parses every bit.
#
# guest: kernel=nodebug sim=wsmex:2 cpu=Westmere,model=47,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

po() { /tests/perf_open "$@" 2>&1 | head -1; }
# refused NAME PMU CONFIG LINE: EINVAL, and LINE once in the kernel log.
refused() {
	echo "reserved-test: $1" >/dev/kmsg
	check_eq "$1: EINVAL" "$(po "$2" "$3")" "EINVAL 0"
	check_eq "$1: the kernel log names the field" \
		"$(dmesg | sed -n "/reserved-test: $1\$/,\$p" | grep -cF "$2: event refused: $4")" "1"
}

# R-box port 0, XBR set 1 (event 4, xbr_mm_cfg 0x210000):
# message.drs.anydatac.port0.
xbr=$(((4 << 1) | (0x210000 << 32)))
check_eq "R-box XBR match/mask within their fields: ok" "$(po uncore_rbox_0 "$xbr:0x1c00:0x1f80")" "ok"
check_eq "R-box XBR every field bit set: ok" \
	"$(po uncore_rbox_0 "$xbr:0xf000f8003fff8:0xf000f8003fff8")" "ok"
refused "xbr_match bit 0" uncore_rbox_0 "$xbr:0x1c01:0x1f80" \
	"config1 bits 0x1 are reserved in xbr_match (they must be 0)"
refused "xbr_match bits 30:18" uncore_rbox_0 "$xbr:0x7ffc1c00:0x1f80" \
	"config1 bits 0x7ffc0000 are reserved in xbr_match (they must be 0)"
refused "xbr_mask bit 63" uncore_rbox_0 "$xbr:0x1c00:0x8000000000001f80" \
	"config2 bits 0x8000000000000000 are reserved in xbr_mask (they must be 0)"
refused "xbr_mask bits 47:36" uncore_rbox_0 "$xbr:0x1c00:0xfff000001f80" \
	"config2 bits 0xfff000000000 are reserved in xbr_mask (they must be 0)"
# B-box counter 2, event 4 (ADDR_IN_MATCH).
bb=$(((2 << 6) | (4 << 1)))
check_eq "B-box match/mask up to opc_out: ok" "$(po uncore_bbox_0 "$bb:0x0fffffffffffffff:0x0fffffffffffffff")" "ok"
refused "B-box match bit 60" uncore_bbox_0 "$bb:0x1000000000000000:0" \
	"config1 bits 0x1000000000000000 are reserved in match (they must be 0)"
refused "B-box mask bits 63:60" uncore_bbox_0 "$bb:0:0xf000000000000000" \
	"config2 bits 0xf000000000000000 are reserved in mask (they must be 0)"
check "rmmod" unload
done_testing

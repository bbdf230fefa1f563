#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Haswell-EP's S-box count, from the PCU's CAPID4 (the Linux driver's
# hswep_has_limit_sbox), under the simulation's capid4= parameter: without
# the PCU function the table's four S-boxes register, as with a CAPID4
# whose "chop" field (bits 7:6) is not 0; with it 0 (a 6-8-core part) two,
# and the kernel log says why in one line. The S-boxes that register count
# what is injected. Broadwell-EP (bdx_uncore_cpu_init) reads its own PCU
# function the same way and drops every S-box on chop 0.
#
# guest: kernel=nodebug noload cpu=Haswell-noTSX,model=63,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

sboxes() { pmus | tr ' ' '\n' | grep '^uncore_sbox_' | tr '\n' ' ' | sed 's/ $//'; }
four="uncore_sbox_0 uncore_sbox_1 uncore_sbox_2 uncore_sbox_3"

dmesg -c >/dev/null
check "sim=hsx:2 (no PCU function): loads" load sim=hsx:2
check_eq "four S-boxes" "$(sboxes)" "$four"
check "... and no CAPID4 line" sh -c "! dmesg | grep -q 'CAPID4'"
check "unload" unload

dmesg -c >/dev/null
check "sim=hsx:2 capid4=0xc0 (chop 3): loads" load sim=hsx:2 capid4=0xc0
check_eq "four S-boxes" "$(sboxes)" "$four"
check "unload" unload

dmesg -c >/dev/null
check "sim=hsx:2 capid4=0x3f (chop 0): loads" load sim=hsx:2 capid4=0x3f
check_eq "two S-boxes" "$(sboxes)" "uncore_sbox_0 uncore_sbox_1"
check_eq "the kernel log says why, once" "$(dmesg | grep -c 'PCU CAPID4 (0x0000003f): 2 sbox boxes')" "1"
check_eq "an S-box counts what is injected" \
	"$(total uncore_sbox_1/event=0x14,umask=0x1/ sh -c "echo 'pmu=uncore_sbox_1 socket=1 event=0x14 umask=0x1 count=777' >$DBG/inject")" "777"
check "unload" unload

dmesg -c >/dev/null
check "sim=bdx:2 capid4=0x3f (chop 0): loads" load sim=bdx:2 capid4=0x3f
check_eq "Broadwell-EP: no S-box" "$(sboxes)" ""
check_eq "the kernel log says why, once" "$(dmesg | grep -c 'PCU CAPID4 (0x0000003f): 0 sbox boxes')" "1"
check "unload" unload
check "sim=bdx:2 capid4=0x80 (chop 2): loads" load sim=bdx:2 capid4=0x80
check_eq "four S-boxes" "$(sboxes)" "$four"
check "unload" unload
done_testing

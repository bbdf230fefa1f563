#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The simulation's debugfs input: any text gets an answer, never a panic.
# Numbers past what a key holds or past the box's field (a STATE bit
# number past the C-box filter's 5 bits, a TID past 5 bits, an opcode past
# 9, an event select past 9), and steps that could move a counter by a
# whole wrap (in one inject, or over a self-test's rounds), are refused
# with ERANGE and count nothing. While an event counts, so that the model's
# filters and counters see every line; afterwards the module still counts
# exactly and unloads.
#
# guest: sim=snbep:2 cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
# guest: kernel=nodebug sim=skl cpu=Skylake-Client,-hypervisor smp=4,sockets=1,cores=4
. /tests/lib.sh

p=$(platform)
# answer FILE LINE: "ok", or the error the write got.
answer() {
	if out=$(sh -c "echo '$2' >$DBG/$1" 2>&1); then echo ok; else echo "$out" | sed 's/.*: //'; fi
}
range="Numerical result out of range"
invalid="Invalid argument"

case "$p" in
snbep)
	# The lines, written while perf counts the C-box's lookups in every
	# state; each write's answer goes to /tmp/answers.
	cat >/tmp/lines.sh <<-EOF2
	for l in 'state=64 count=5' 'state=255 count=5' 'state=256' 'state=5 count=5' 'state=4 count=10' \\
	    'tid=32 count=5' 'opc=0x200 count=5' 'event=0x200 count=5' \\
	    'count=0xffffffffffffffff inc=2' 'bogus=1' 'count=18446744073709551616'; do
		if out=\$(sh -c "echo 'pmu=uncore_cbox_0 event=0x34 umask=0x3 \$l' >$DBG/inject" 2>&1); then
			echo ok
		else
			echo "\$out" | sed 's/.*: //'
		fi
	done >/tmp/answers
	EOF2
	got=$(total "uncore_cbox_0/event=0x34,umask=0x3,filter_state=0x1f/" sh /tmp/lines.sh)
	i=0
	while IFS='|' read -r name want; do
		i=$((i + 1))
		check_eq "$name" "$(sed -n "${i}p" /tmp/answers)" "$want"
	done <<-EOF2
	state=64, past the filter's 5 bits: ERANGE|$range
	state=255: ERANGE|$range
	state=256, past 8 bits: ERANGE|$range
	state=5, the first bit past the field: ERANGE|$range
	state=4, the field's last bit: counted|ok
	tid=32, past 5 bits: ERANGE|$range
	opc=0x200, past 9 bits: ERANGE|$range
	event=0x200, past 9 bits: ERANGE|$range
	a step of a whole wrap: ERANGE|$range
	an unknown key: EINVAL|$invalid
	a number too large for 64 bits: EINVAL|$invalid
	EOF2
	check_eq "only the in-range state counted" "$got" 10
	check_eq "selftest: rounds whose total passes 63 bits: ERANGE" \
		"$(answer selftest 'pmu=uncore_cbox_0 config=0x0114 event=0x14 umask=0x1 count=0x8000000000000000 rounds=2')" "$range"
	check_eq "selftest: a STATE bit past the filter: ERANGE" \
		"$(answer selftest 'pmu=uncore_cbox_0 config=0x0334 event=0x34 umask=0x3 state=5 count=3')" "$range"
	check_eq "selftest: one round past the counter's wrap: ERANGE" \
		"$(answer selftest 'pmu=uncore_cbox_0 config=0x0114 event=0x14 umask=0x1 count=0x100000000000')" "$range"
	;;
skl)
	check_eq "selftest: IMC rounds past 64 bits: ERANGE" \
		"$(answer selftest 'pmu=uncore_imc config=0x1 event=0x1 count=0xffffffffffffffff rounds=2')" "$range"
	check_eq "inject: an IMC step past its wrap: ERANGE" "$(answer inject 'pmu=uncore_imc event=0x1 count=0xffffffffffffffff')" "$range"
	check_eq "inject: within a wrap: accepted" "$(answer inject 'pmu=uncore_imc event=0x1 count=0xffffffff')" ok
	;;
esac
# Still counting exactly, and nothing pins the module.
spec=$(sample uncore_cbox_1)
check_eq "uncore_cbox_1 counts an injection exactly" \
	"$(total "uncore_cbox_1/${spec%%|*}/" sh -c "echo 'pmu=uncore_cbox_1 ${spec#*|} count=77' >$DBG/inject")" 77
check "rmmod" unload
done_testing

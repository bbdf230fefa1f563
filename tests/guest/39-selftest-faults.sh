#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The selftests (tests/selftests/uncore) catch what they are there for, on
# a simulated two-socket Sandy Bridge-EP: they pass on the module as it
# is; they fail when the memory controllers' PCI functions are there and
# the driver registered no IMC PMU (the simulation's hide=imc); they fail
# when one torn counter read makes an IMC count 2^48 too high, or a C-box
# count 2^44 too high (the simulation's glitch file); and --report writes
# the same TAP output with its summary table to the file.
#
# guest: kernel=nodebug noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

ST=/tests/selftests/uncore/uncore_test.sh
# selftests [ARGS...]: the selftests' output (aliases left to 24-aliases),
# with their exit status on the last line.
selftests() {
	SKIP_ALIASES=1 TOOLS=/tests sh $ST "$@" 2>&1
	echo "status $?"
}
# failed_checks OUTPUT: the failed checks' descriptions, one per line.
failed_checks() { printf '%s\n' "$1" | sed -n 's/^not ok [0-9]* //p'; }
# has TEXT PATTERN: whether a line of TEXT matches the extended PATTERN.
has() { printf '%s\n' "$1" | grep -qE -- "$2"; }

load sim=snbep:2 || { not_ok "insmod sim=snbep:2"; done_testing; }
out=$(selftests --report /tmp/report.txt)
printf '%s\n' "$out" | grep -E '^(not ok|# platform)' | sed 's/^/# good: /'
check_eq "the module as it is: every selftest passes, status 0" \
	"$(printf '%s\n' "$out" | grep -c '^not ok') $(printf '%s\n' "$out" | tail -1)" "0 status 0"
check_eq "--report wrote the same output to the file" "$(cat /tmp/report.txt)" "$(printf '%s\n' "$out" | sed '$d')"
check "the report has the summary table: platform, CPU family and model in hex, kernel, module" sh -c "
	grep -q '^# platform: snbep (simulated: sim=snbep:2), 2 socket' /tmp/report.txt &&
	grep -q '^# cpu: .* family 0x6 model 0x2d ' /tmp/report.txt &&
	grep -qx '# kernel: $(uname -r) (.*)' /tmp/report.txt &&
	grep -q '^# module: rust_uncore_sim' /tmp/report.txt &&
	grep -qE '^# IMC CAS reads while reading .* pass\$' /tmp/report.txt"

# A torn read of uncore_imc_1 (a 48-bit counter) in the read runs.
echo "pmu=uncore_imc_1 socket=0" >$DBG/glitch
out=$(selftests)
bad=$(failed_checks "$out")
printf '%s\n' "$bad" | sed 's/^/# imc glitch: /'
check_eq "the torn read was made once" "$(grep fired $DBG/glitch)" "fired 1"
check_eq "an IMC count 2^48 off: only the IMC read check fails, status 1" \
	"$(printf '%s\n' "$bad" | cut -d: -f1 | tr '\n' '|') $(printf '%s\n' "$out" | tail -1)" \
	"IMC CAS reads while reading 4 x 512 MiB| status 1"
# The torn read comes in the shorter run, whose count is then 2^48 more.
check "... its figure: the expected 33554432 lines less 2^48" has "$bad" ": $((33554432 - (1 << 48))) lines"

# A torn read of uncore_cbox_1 (44 bits) in the LLC runs.
echo "pmu=uncore_cbox_1 socket=0" >$DBG/glitch
out=$(selftests)
bad=$(failed_checks "$out")
printf '%s\n' "$bad" | sed 's/^/# cbox glitch: /'
check_eq "a C-box count 2^44 off: only the LLC check fails" \
	"$(printf '%s\n' "$bad" | cut -d: -f1 | tr '\n' '|') $(printf '%s\n' "$out" | tail -1)" \
	"LLC_LOOKUP.DATA_READ in all C-boxes, 4 passes touching every line of 512 MiB| status 1"
check "... its figure: the expected 33554432 lookups less 2^44" has "$bad" ": $((33554432 - (1 << 44))) lookups"
check_eq "the torn reads were made once each" "$(grep fired $DBG/glitch)" "fired 2"
check "unload" unload

# The IMC PMUs missing while the memory controllers' functions are there.
load sim=snbep:2 hide=imc || { not_ok "insmod sim=snbep:2 hide=imc"; done_testing; }
check_eq "hide=imc: no uncore_imc PMU" "$(ls $DEV | grep -c '^uncore_imc')" "0"
check_eq "... while the devices file lists the 8 IMC functions" "$(grep -cE ' 8086:3cb[0145]$' $DBG/devices)" "8"
out=$(selftests)
bad=$(failed_checks "$out")
printf '%s\n' "$bad" | sed 's/^/# hide=imc: /'
check_eq "the PCI check, the clock check (the iMC's) and the IMC check fail, none skips for it, status 1" \
	"$(printf '%s\n' "$bad" | cut -c1-30 | tr '\n' '|') $(printf '%s\n' "$out" | tail -1)" \
	"every uncore PCI device has it|uncore clock: uncore_imc_0 is |IMC CAS counts: no uncore_imc | status 1"
check "... the PCI check names the missing PMUs and their devices" has "$bad" 'uncore_imc_0\(missing; the machine has 2 of its device\)'

check "unload" unload
done_testing

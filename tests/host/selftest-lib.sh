#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The selftests' arithmetic (tests/selftests/uncore/lib.sh), with good and
# bad figures, under dash (the sh of Debian) and busybox when there:
#   - within: a count inside its bounds passes, one below or above fails,
#     and a count 2^48 or 2^44 off the expected figure fails either way;
#   - sum_of and csv_counts: perf's -x';' lines summed per event pattern,
#     "-" when one event was not counted;
#   - ab_compare: two count files agreeing within the tolerance pass, one
#     event off by more fails (and is named), an event intel_uncore could
#     not count is "missing" without failing, one this module could not
#     count fails, both 0 agree.
# Usage: tests/host/selftest-lib.sh   (TAP; exit status 1 on a failure)
set -u
. "$(dirname "$0")/tap.sh"
lib=$repo/tests/selftests/uncore/lib.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shells=(/bin/sh)
[ -x /bin/busybox ] && shells+=("/bin/busybox sh")
# t NAME GOT WANT
t() { if [ "$2" = "$3" ]; then ok "$1"; else notok "$1"; echo "# got '$2', want '$3'"; fi; }

for sh in "${shells[@]}"; do
	# lsh SCRIPT: runs SCRIPT in $sh with lib.sh sourced.
	lsh() { $sh -c ". '$lib'; $1"; }
	w() { lsh "within $1 && echo in || echo out"; }
	t "$sh: within: the expected figure" "$(w '1000 1000 0.95 1.3')" in
	t "$sh: within: at the bounds" "$(w '950 1000 0.95 1.3') $(w '1300 1000 0.95 1.3')" "in in"
	t "$sh: within: below and above" "$(w '949 1000 0.95 1.3') $(w '1301 1000 0.95 1.3')" "out out"
	t "$sh: within: 2^48 and 2^44 more, 2^48 less" \
		"$(w "$((33554432 + (1 << 48))) 33554432 0.85 1.3") $(w "$((33554432 + (1 << 44))) 33554432 0.95 3.5") $(w "$((33554432 - (1 << 48))) 33554432 0.85 1.3")" \
		"out out out"
	t "$sh: within: a bound of 0, and no figure" "$(w '0 1000 0 0.1') $(w '- 1000 0 0.1')" "in out"
	t "$sh: ratio" "$(lsh 'ratio 1500 1000; ratio 5 0; ratio - 3')" "1.500
-
-"
	printf '%s\n' '100;;uncore_imc_0/event=0x4,umask=0x3/;1000;100.00;;' '200;;uncore_imc_1/event=0x4,umask=0x3/;1000;100.00;;' \
		'7;;uncore_imc_0/event=0x4,umask=0xc/;1000;100.00;;' '<not counted>;;uncore_imc_1/event=0x4,umask=0xc/;0;0.00;;' >"$tmp/perf"
	t "$sh: csv_counts and sum_of: a sum, and '-' for an event not counted" \
		"$(lsh "csv_counts <'$tmp/perf' | sum_of umask=0x3/; csv_counts <'$tmp/perf' | sum_of umask=0xc/; csv_counts <'$tmp/perf' | sum_of qpi")" "300
-
-"

	printf '%s\n' "clock_mhz 800" "imc_reads 1000000" "llc 5000" "qpi 0" >"$tmp/a"
	printf '%s\n' "clock_mhz 820" "imc_reads 960000" "llc 5400" "qpi 0" >"$tmp/b"
	out=$(lsh "ab_compare '$tmp/a' '$tmp/b' 0.10"); rc=$?
	t "$sh: ab_compare: within 10% (and both 0): status 0, every event ok" "$rc $(printf '%s\n' "$out" | awk '{ print $5 }' | sort -u)" "0 ok"
	t "$sh: ab_compare: the ratio B/A per event" "$(printf '%s\n' "$out" | awk '{ print $1, $4 }' | tr '\n' ' ')" \
		"clock_mhz 1.025 imc_reads 0.960 llc 1.080 qpi 1.000 "
	printf '%s\n' "clock_mhz 800" "imc_reads $((1000000 + (1 << 48)))" "llc 5000" >"$tmp/b"
	out=$(lsh "ab_compare '$tmp/a' '$tmp/b' 0.10"); rc=$?
	t "$sh: ab_compare: one event 2^48 off fails, and is the one named" "$rc $(printf '%s\n' "$out" | awk '$5 != "ok" { print $1, $5 }' | tr '\n' ' ')" \
		"1 imc_reads differ qpi missing "
	printf '%s\n' "clock_mhz 800" "imc_reads 1150000" "llc 5000" "qpi 0" >"$tmp/b"
	t "$sh: ab_compare: 15% off fails at 10%, passes at 20%" \
		"$(lsh "ab_compare '$tmp/a' '$tmp/b' 0.10 >/dev/null; echo \$?; ab_compare '$tmp/a' '$tmp/b' 0.20 >/dev/null; echo \$?" | tr '\n' ' ')" "1 0 "
	printf '%s\n' "clock_mhz -" "imc_reads 1000000" >"$tmp/a2"
	printf '%s\n' "clock_mhz 800" "imc_reads -" >"$tmp/b2"
	out=$(lsh "ab_compare '$tmp/a2' '$tmp/b2' 0.10"); rc=$?
	t "$sh: ab_compare: this module not counting fails, intel_uncore not counting is missing" \
		"$rc $(printf '%s\n' "$out" | awk '{ print $1, $5 }' | tr '\n' ' ')" "1 clock_mhz differ imc_reads missing "
	printf '%s\n' "llc 0" >"$tmp/a3"
	printf '%s\n' "llc 10" >"$tmp/b3"
	t "$sh: ab_compare: 0 against a count fails" "$(lsh "ab_compare '$tmp/a3' '$tmp/b3' 0.10 | cut -d' ' -f5")" "differ"
	: >"$tmp/empty"
	t "$sh: ab_compare: intel_uncore counted nothing at all (an empty file): every event missing, status 0" \
		"$(lsh "ab_compare '$tmp/a' '$tmp/empty' 0.10 | awk '{ print \$5 }' | sort -u; echo \$?" | tr '\n' ' ')" "missing 0 "
done
echo "1..$tap_n"
exit "$failed"

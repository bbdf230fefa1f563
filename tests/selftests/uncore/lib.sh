# SPDX-License-Identifier: GPL-2.0
#
# The selftests' arithmetic, sourced by uncore_test.sh (and by the host
# test tests/host/selftest-lib.sh, which feeds it good and bad figures).
# POSIX sh and awk (busybox's too); counts are compared as awk's doubles,
# exact up to 2^53.

# within GOT EXPECTED LO HI: whether LO x EXPECTED <= GOT <= HI x
# EXPECTED (LO and HI are ratios, e.g. 0.95 and 1.3). A GOT that is not a
# number is never within.
within() {
	awk -v g="$1" -v e="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		if (g !~ /^[0-9]+(\.[0-9]+)?$/ || e !~ /^[0-9]+(\.[0-9]+)?$/) exit 1
		exit !(g + 0 >= lo * e && g + 0 <= hi * e)
	}'
}

# ratio GOT EXPECTED: GOT / EXPECTED with three decimals ("-" when either
# is not a number or EXPECTED is 0).
ratio() {
	awk -v g="$1" -v e="$2" 'BEGIN {
		if (g !~ /^[0-9]+(\.[0-9]+)?$/ || e !~ /^[0-9]+(\.[0-9]+)?$/ || e + 0 == 0) { print "-"; exit }
		printf "%.3f\n", g / e
	}'
}

# csv_counts: perf stat -x';' output (stdin) as "EVENT COUNT" lines, the
# count "-" where perf has none (not counted, not supported).
csv_counts() {
	awk -F';' 'NF >= 3 && $3 ~ /\// {
		c = $1; if (c !~ /^[0-9]+(\.[0-9]+)?$/) c = "-"
		print $3, c
	}'
}

# sum_of PATTERN: the sum of the counts (stdin, "EVENT COUNT" lines) of
# the events whose name contains PATTERN; "-" if one of them has no count
# or none matches.
sum_of() {
	awk -v p="$1" 'index($1, p) { n++; if ($2 == "-") bad = 1; else s += $2 }
		END { if (bad || !n) print "-"; else printf "%.0f\n", s }'
}

# ab_compare FILE_A FILE_B TOLERANCE: the A/B comparison of two count
# files ("EVENT VALUE" lines; VALUE "-" where the driver could not count
# it): A is this module's, B the kernel's intel_uncore's. Prints one line
# per event of A:
#   EVENT A B RATIO VERDICT
# with RATIO = B / A and VERDICT
#   ok       both counted and |B/A - 1| <= TOLERANCE (or both 0)
#   differ   beyond the tolerance, one of them 0, or this module could
#            not count what intel_uncore counted
#   missing  intel_uncore could not count it (no such PMU or event)
# Exit status 1 when some event differs, else 0.
ab_compare() {
	awk -v tol="$3" '
	FILENAME == ARGV[1] { b[$1] = $2; next }
	{
		a = $2; bv = ($1 in b) ? b[$1] : "-"
		num = "^[0-9]+(\\.[0-9]+)?$"
		if (bv !~ num) { v = "missing"; r = "-" }
		else if (a !~ num) { v = "differ"; r = "-" }
		else if (a + 0 == 0 && bv + 0 == 0) { v = "ok"; r = "1.000" }
		else if (a + 0 == 0) { v = "differ"; r = "-" }
		else {
			r = sprintf("%.3f", bv / a)
			d = bv / a - 1; if (d < 0) d = -d
			v = (d <= tol) ? "ok" : "differ"
		}
		if (v == "differ") bad = 1
		print $1, a, bv, r, v
	}
	END { exit bad }' "$2" "$1"
}

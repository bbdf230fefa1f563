# SPDX-License-Identifier: GPL-2.0
#
# Table 1, simulation (scripts/bench.sh): from the "sim PMU STEP
# msr_read=N msr_write=N cfg_read=N cfg_write=N mmio_read=N" lines of
# benches/guest/ops.sh, one row per PMU: the accesses of each system call,
# read per call (-v reads=N calls), one poll tick (the first injection) and
# on NHM-EX/WSM-EX the PMI (the wrapping third injection less the first),
# platform -v plat.
function val(s,   a) { split(s, a, "="); return a[2] + 0 }
function fmt(k, div,   s, i, v) {
	s = ""
	for (i = 1; i <= 5; i++) {
		v = T[k, i] / div
		if (v > 0) s = s (s == "" ? "" : "+") v suffix[i]
	}
	return s == "" ? "0" : s
}
BEGIN { split("mr mw cr cw or", suffix, " ") }
$1 == "sim" {
	p = $2
	if (!(p in seen)) { seen[p] = 1; order[++n] = p }
	for (i = 1; i <= 5; i++) T[p " " $3, i] = val($(3 + i))
}
END {
	for (j = 1; j <= n; j++) {
		p = order[j]
		neg = 0
		for (i = 1; i <= 5; i++) {
			T[p " pmi", i] = T[p " inject3", i] - T[p " inject1", i]
			if (T[p " pmi", i] < 0) neg = 1
		}
		pmi = (plat != "nhmex" && plat != "wsmex") ? "-" : neg ? "?" : fmt(p " pmi", 1)
		printf "%-9s %-18s %8s %10s %8s %10s %8s %8s %12s\n", plat, p, fmt(p " open", 1),
			fmt(p " enable", 1), fmt(p " read", reads), fmt(p " disable", 1),
			fmt(p " close", 1), fmt(p " inject1", 1), pmi
	}
}

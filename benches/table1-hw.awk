# SPDX-License-Identifier: GPL-2.0
#
# Table 1, hardware path (scripts/bench.sh): from the "hw DRIVER PMU STEP
# OP READS WRITES" lines of benches/guest/ops.sh, one row per PMU and
# driver: the MSR accesses of each callback over the whole open-to-close
# sequence, read per call (-v reads=N calls), platform -v plat.
function rw(r, w) {
	if (r + w == 0) return "0"
	return (r ? r "r" : "") (r && w ? "+" : "") (w ? w "w" : "")
}
$1 == "hw" {
	key = $3 " " $2
	if (!(key in seen)) { seen[key] = 1; order[++n] = key }
	op = $5
	if (op == "pmu_enable" || op == "pmu_disable") op = "pmu"
	if (op != "event_init" && op != "add" && op != "start" && op != "read" &&
	    op != "stop" && op != "del" && op != "pmu") op = "other"
	R[key, op] += $6; W[key, op] += $7
}
END {
	split("event_init add start read stop del pmu other", ops, " ")
	for (i = 1; i <= n; i++) {
		split(order[i], k, " ")
		printf "%-9s %-16s %-6s", plat, k[1], k[2]
		for (j = 1; j <= 8; j++) {
			o = ops[j]; r = R[order[i], o]; w = W[order[i], o]
			if (o == "read") { r = r / reads; w = w / reads }
			printf " %*s", (o == "pmu") ? 9 : (o == "event_init") ? 10 : 6, rw(r, w)
		}
		printf "\n"
	}
}

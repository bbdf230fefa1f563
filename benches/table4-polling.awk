# SPDX-License-Identifier: GPL-2.0
#
# Table 4 of make bench, polling: from benches/guest/latency.sh's
# "poll DRIVER PMU INTERVAL_NS FIRED HOLD_MS" lines of one guest (variable:
# plat), one row per box type: the interval each driver's poll timer was
# set to and the wakeups per hour of one active box that follow; "sim"
# rows are this module under sim= (box types the hardware path lacks).
$1 == "poll" {
	t = $3
	sub(/_[0-9]+$/, "", t)
	if (!(t in seen)) { seen[t] = 1; order[++n] = t }
	d = ($2 == "sim") ? "ours" : $2
	iv[d, t] = $4 / 1e9
	if ($2 == "sim") via[t] = " (sim=)"
}
END {
	for (i = 1; i <= n; i++) {
		t = order[i]
		o = iv["ours", t]
		line = sprintf("%-9s %-20s %10.2f %9.1f", plat, t via[t], o, 3600 / o)
		if (("c", t) in iv) {
			c = iv["c", t]
			line = line sprintf(" %10.2f %9.1f %7.2f", c, 3600 / c, (3600 / o) / (3600 / c))
		} else
			line = line sprintf(" %10s %9s %7s", "-", "-", "-")
		print line
	}
}

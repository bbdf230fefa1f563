# SPDX-License-Identifier: GPL-2.0
#
# Table 4 of make bench, load time: from benches/guest/latency.sh's
# "insmod DRIVER ROUND NS PMUS" lines of one guest (variables: kernel,
# plat): each driver's median insmod time (to every PMU registered) over
# the rounds, and the PMUs it registered.
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "insmod" { d = $2; n[d]++; v[d, n[d]] = $4 / 1e6; pmus[d] = $5 }
END {
	if (!n["ours"]) exit
	for (i = 1; i <= n["ours"]; i++) o[i] = v["ours", i]
	line = sprintf("%-8s %-9s %6d %9.1f %5d", kernel, plat, n["ours"], median(o, n["ours"]), pmus["ours"])
	if (n["c"]) {
		for (i = 1; i <= n["c"]; i++) c[i] = v["c", i]
		line = line sprintf(" %9.1f %5d", median(c, n["c"]), pmus["c"])
	} else
		line = line sprintf(" %9s %5s", "-", "-")
	print line
}

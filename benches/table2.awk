# SPDX-License-Identifier: GPL-2.0
#
# Table 2 of make bench: read latency, from benches/guest/latency.sh's
# "lat DRIVER ROUND MEDIAN MIN MAX" lines of one guest (variables: kernel,
# plat). Prints one row: each driver's lowest and median per-round median
# (ns per read()), and ours/C of both.
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
$1 == "lat" {
	d = $2
	n[d]++
	v[d, n[d]] = $4
	if (!(d in best) || $4 < best[d]) best[d] = $4
}
END {
	if (!n["ours"]) {
		printf "%-8s %-9s no measurement (see the guest's output)\n", kernel, plat
		exit
	}
	for (i = 1; i <= n["ours"]; i++) o[i] = v["ours", i]
	mo = median(o, n["ours"])
	if (n["c"]) {
		for (i = 1; i <= n["c"]; i++) c[i] = v["c", i]
		mc = median(c, n["c"])
		printf "%-8s %-9s %6d %9d %9d %6.2f %9d %9d %6.2f\n", kernel, plat, n["ours"],
			best["ours"], best["c"], best["ours"] / best["c"], mo, mc, mo / mc
	} else {
		printf "%-8s %-9s %6d %9d %9s %6s %9d %9s %6s  (the C driver does not register it)\n",
			kernel, plat, n["ours"], best["ours"], "-", "-", mo, "-", "-"
	}
}

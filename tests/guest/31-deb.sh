#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# README.md's stock-load block, run as written on Debian's own kernel with
# the module the Debian package installed: tests/host/deb.sh installed
# rust-uncore-dkms_*.deb in a copy of the Debian 13 root, where DKMS built
# and installed the module for this kernel. The guest carries that copy's
# /lib/modules/<release> at /deb/lib/modules/<release>; it takes the place
# of /lib/modules/<release> (make stock-install's) for this test, which
# puts the other one back at the end. Then rust-uncore-report, as the
# package installed it, runs the selftests under the simulation.
#
# guest: kernel=stock noload cpu=SandyBridge,model=45,-hypervisor smp=4,sockets=2,cores=2
. /tests/lib.sh

rel=$(uname -r)
mods=/lib/modules/$rel
if [ ! -d "/deb$mods" ]; then
	not_ok "the Debian package's install is carried (/deb$mods; tests/host/deb.sh)"
	done_testing
fi
rm -rf /tmp/modules.readme
[ ! -d "$mods" ] || mv "$mods" /tmp/modules.readme
cp -a "/deb$mods" "$mods"
check "DKMS's module is installed for $rel" sh -c "ls $mods/updates/dkms/rust_uncore.ko* >/dev/null"
check_eq "depmod's index names that one and no other rust_uncore" \
	"$(grep -o '^[^:]*rust_uncore[^:]*' "$mods/modules.dep")" \
	"$(cd "$mods" && ls updates/dkms/rust_uncore.ko*)"
stock_load
rm -rf "$mods"
[ ! -d /tmp/modules.readme ] || mv /tmp/modules.readme "$mods"

# rust-uncore-report, as the package installed it, run as a user runs it
# (the guest has no C compiler: TOOLS= names the helpers built for the
# guest; 24-aliases checks the aliases), against the simulation of this
# CPU model: every selftest passes and the report has its summary.
if [ -x /deb/usr/sbin/rust-uncore-report ] && [ -f /deb/usr/share/rust-uncore/selftests/run_tests.sh ]; then
	mkdir -p /usr/share /usr/sbin
	cp -a /deb/usr/share/rust-uncore /usr/share/
	cp -a /deb/usr/sbin/rust-uncore-report /usr/sbin/
	before=$(find /usr/share/rust-uncore | sort)
	if load sim=snbep:2; then
		out=$(cd /tmp && TOOLS=/tests SKIP_ALIASES=1 rust-uncore-report 2>&1)
		rc=$?
		printf '%s\n' "$out" | grep -E '^(not ok|# platform|# module|rust-uncore-report)' | sed 's/^/# /'
		check_eq "rust-uncore-report: every selftest passes, status 0" \
			"$(printf '%s\n' "$out" | grep -c '^not ok') $rc" "0 0"
		check "it wrote /tmp/uncore-report.txt with the summary" sh -c "
			grep -q '^TAP version 13' /tmp/uncore-report.txt &&
			grep -q '^# platform: snbep (simulated: sim=snbep:2), 2 socket' /tmp/uncore-report.txt &&
			grep -q '^# module: rust_uncore_sim' /tmp/uncore-report.txt"
		case $out in
		*"please attach it to a report on the project's issue tracker"*) ok "it asks for the report on the issue tracker" ;;
		*) not_ok "it asks for the report on the issue tracker" ;;
		esac
		check_eq "it wrote nothing into /usr/share/rust-uncore" "$(find /usr/share/rust-uncore | sort)" "$before"
		check "rmmod rust_uncore_sim" unload
	else
		not_ok "insmod rust_uncore_sim.ko sim=snbep:2"
	fi
	rm -rf /usr/share/rust-uncore /usr/sbin/rust-uncore-report
else
	not_ok "the package's rust-uncore-report and selftests are carried (/deb/usr; tests/host/deb.sh)"
fi
done_testing

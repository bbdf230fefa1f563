#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian package, end to end, in the Debian 13 root of
# scripts/stock-kernel.sh: `make deb` (scripts/deb.sh: dpkg-buildpackage and
# lintian in that root), the package's contents and dependencies, then, in
# a fresh copy of the root (an overlay over it, thrown away at the end,
# without the module that tests/host/stock-readme.sh installed there):
# README.md's deb-install block (`apt-get install ./rust-uncore-dkms_*.deb`),
# DKMS's build and install for the stock kernel (vermagic, modinfo, signed
# with DKMS's key), and `apt-get remove --purge`, after which nothing of
# the package is left. The kernel modules directory the package's install
# made is kept for the guests
# (<stock kernel directory>/deb/lib/modules/<release>), with the selftests
# and rust-uncore-report it installed (<...>/deb/usr/), where
# tests/guest/31-deb.sh loads the DKMS-built module with the README's
# stock-load block and runs rust-uncore-report. The package also holds the
# selftests and rust-uncore-report, which runs in the copy (builds its
# helpers, writes a report, writes nothing into /usr/share). TAP.
#
# Usage: tests/host/deb.sh
set -uo pipefail
. "$(dirname "$0")/tap.sh"

stock_root
vdir=$("$repo/scripts/stock-kernel.sh" --variant stock --print-dir)
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
# What an earlier run kept for the guests goes first: only this run's
# install may reach them.
"${sudo[@]}" rm -rf "$vdir/deb"
work=$(mktemp -d)
merged=$work/merged
cleanup() {
	"${sudo[@]}" umount "$merged" 2>/dev/null
	"${sudo[@]}" rm -rf "$work"
}
trap cleanup EXIT

# 1. make deb.
start=$SECONDS
if deb=$(make -s -C "$repo" deb 2>"$work/deb.log" | tail -1) && [ -f "$deb" ]; then
	ok "make deb built ${deb##*/} in the Debian 13 root ($((SECONDS - start)) s, $(stat -c %s "$deb") bytes)"
else
	notok "make deb built the package"
	tail -30 "$work/deb.log" | sed 's/^/#   /'
	echo "1..$tap_n"
	exit 1
fi
grep '^deb: lintian' "$work/deb.log" | sed 's/^/# /'
if grep -q '^deb: lintian: no error or warning' "$work/deb.log"; then
	ok "lintian: no error or warning on the .deb and the .changes"
else
	notok "lintian: no error or warning on the .deb and the .changes"
fi

# 2. What it holds and needs.
version=$(dpkg-deb -f "$deb" Version)
src=usr/src/rust-uncore-$version
files=$(dpkg-deb -c "$deb" | awk '{ print $NF }' | sed 's,^\./,,')
missing=""
for f in dkms.conf Kbuild Makefile src/rust_uncore_main.rs src/hw/catalog/snbep/cbox_own.tsv \
	rust/helpers.c rust/probe.sh scripts/stock-kdir.sh; do
	printf '%s\n' "$files" | grep -qx "$src/$f" || missing="$missing $f"
done
if [ -z "$missing" ]; then
	ok "the package holds the module's source in /$src"
else
	notok "the package holds the module's source in /$src: missing$missing"
fi
# The selftests and the command that runs them.
missing=""
for f in usr/sbin/rust-uncore-report usr/share/man/man8/rust-uncore-report.8.gz \
	$(printf 'usr/share/rust-uncore/selftests/%s ' run_tests.sh uncore_test.sh lib.sh pci-devices.tsv \
		uncore_load.c alias_check.c Makefile); do
	printf '%s\n' "$files" | grep -qx "$f" || missing="$missing $f"
done
if [ -z "$missing" ]; then
	ok "the package holds the selftests in /usr/share/rust-uncore/selftests and /usr/sbin/rust-uncore-report"
else
	notok "the package holds the selftests and rust-uncore-report: missing$missing"
fi
if [ "$(dpkg-deb -f "$deb" Architecture)" = all ]; then
	ok "it is architecture-independent"
else
	notok "it is architecture-independent: $(dpkg-deb -f "$deb" Architecture)"
fi
# The README's toolchain line (the first apt-get of its stock-build block)
# and DKMS are dependencies.
toolchain=$(readme_block stock-build | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | grep '^apt-get install' | head -1 |
	sed 's/^apt-get install//')
depends=" $(dpkg-deb -f "$deb" Depends | sed 's/([^)]*)//g; s/[,|]/ /g') "
missing=""
for p in dkms $toolchain; do
	case "$depends" in *" $p "*) ;; *) missing="$missing $p" ;; esac
done
if [ -n "$toolchain" ] && [ -z "$missing" ]; then
	ok "it depends on DKMS and the README's toolchain ($(echo $toolchain | wc -w) packages)"
else
	notok "it depends on DKMS and the README's toolchain: missing${missing:- (no toolchain line)}"
fi

# 3. A fresh copy of the root, without the module the README's commands
# installed in it.
mkdir -p "$work/upper" "$work/ovl" "$merged"
if ! "${sudo[@]}" mount -t overlay overlay -o "lowerdir=$root,upperdir=$work/upper,workdir=$work/ovl" "$merged"; then
	notok "a copy of the Debian 13 root (overlay)"
	echo "1..$tap_n"
	exit 1
fi
mkdir -p "$work/pkg"
cp "$deb" "$work/pkg/"
inroot() { "$repo/scripts/in-root.sh" "$merged" --bind "$work/pkg:/root/pkg" --cwd /root/pkg -- "$@"; }
# The copy is a machine running the stock kernel with its headers: the
# other kernels' headers (the stock-rt variant's) go, so that DKMS builds
# for the stock kernel only (each build takes minutes).
others=$(cd "$merged/lib/modules" && ls -d */build 2>/dev/null | sed 's,/build$,,' | grep -vxF "$release" || true)
if [ -n "$others" ]; then
	inroot apt-get remove -q --purge $(printf 'linux-headers-%s ' $others) >/dev/null 2>&1 ||
		notok "remove the headers of$(printf ' %s' $others) from the copy"
fi
inroot /bin/sh -c "rm -f /lib/modules/$release/updates/rust_uncore.ko*; depmod -a $release"
if inroot /bin/sh -c 'dpkg -s rust-uncore-dkms >/dev/null 2>&1 || ls /usr/src/rust-uncore-* /lib/modules/*/updates/rust_uncore.ko* >/dev/null 2>&1'; then
	notok "the copy of the root has no rust_uncore"
else
	ok "the copy of the root has no rust_uncore"
fi

# 4. The README's install block, as written.
readme_block deb-install >"$work/pkg/install.sh"
start=$SECONDS
if [ -s "$work/pkg/install.sh" ] && out=$(inroot /bin/bash -e /root/pkg/install.sh 2>&1); then
	ok "README's deb-install commands: apt-get installed the package ($((SECONDS - start)) s)"
else
	notok "README's deb-install commands: apt-get installed the package"
	printf '%s\n' "${out:-README.md has no deb-install block}" | tail -30 | sed 's/^/#   /'
fi
status=$(inroot dkms status rust-uncore 2>&1)
printf '%s\n' "$status" | sed 's/^/# dkms status: /'
if printf '%s\n' "$status" | grep -F "rust-uncore/$version, $release, " | grep -q ': installed$'; then
	ok "DKMS built and installed it for $release"
else
	notok "DKMS built and installed it for $release"
fi
ko=$(ls "$merged/lib/modules/$release/updates/dkms/rust_uncore.ko"* 2>/dev/null | head -1)
if [ -n "$ko" ]; then
	ok "it is in /lib/modules/$release/updates/dkms (${ko##*/})"
else
	notok "it is in /lib/modules/$release/updates/dkms"
fi
mi=$(inroot modinfo -k "$release" rust_uncore 2>&1)
case "$(printf '%s\n' "$mi" | sed -n 's/^filename: *//p')" in
"/lib/modules/$release/updates/dkms/rust_uncore.ko"*) ok "modinfo finds it through depmod's index" ;;
*) notok "modinfo finds it through depmod's index"; printf '%s\n' "$mi" | head -5 | sed 's/^/#   /' ;;
esac
vm=$(printf '%s\n' "$mi" | sed -n 's/^vermagic: *//p')
case "$vm" in
"$release "*) ok "its vermagic is the stock kernel's ($release)" ;;
*) notok "its vermagic is the stock kernel's ($release): '${vm:-none}'" ;;
esac
# Signed with DKMS's key: the signature's key is the serial number of
# DKMS's certificate.
sig=$(printf '%s\n' "$mi" | awk '/^sig_key:/ { k = $2; next } k && /^[ \t]+[0-9A-F:]+$/ { k = k $1; next } k { print k; exit }' | tr -d ':' | sed 's/^0*//')
serial=$(inroot openssl x509 -in /var/lib/dkms/mok.pub -noout -serial 2>/dev/null | sed 's/^serial=//; s/^0*//')
signer=$(printf '%s\n' "$mi" | sed -n 's/^signer: *//p')
if [ -n "$sig" ] && [ "$sig" = "$serial" ]; then
	ok "it is signed with DKMS's key (signer: $signer)"
else
	notok "it is signed with DKMS's key: signature key '${sig:-none}', DKMS's certificate '${serial:-none}'"
fi
# The installed report command, in the copy (no module loaded there: the
# report says so, status 4): it builds the helpers from the installed sources with
# the compiler the package recommends, in a temporary directory (nothing
# is written next to the selftests), and writes the report.
before=$(inroot find /usr/share/rust-uncore | sort)
out=$(inroot /bin/sh -c 'cd /root && rust-uncore-report /root/uncore-report.txt' 2>&1)
rc=$?
if printf '%s\n' "$out" | grep -q 'no C compiler\|error:'; then
	notok "rust-uncore-report built its helpers from /usr/share/rust-uncore/selftests"
	printf '%s\n' "$out" | grep 'no C compiler\|error:' | head -5 | sed 's/^/#   /'
else
	ok "rust-uncore-report built its helpers from /usr/share/rust-uncore/selftests"
fi
if [ "$rc" = 4 ] && inroot grep -q '^TAP version 13' /root/uncore-report.txt &&
	inroot grep -q '^1\.\.0 # SKIP rust_uncore is not loaded' /root/uncore-report.txt &&
	printf '%s\n' "$out" | grep -q 'the report is in /root/uncore-report.txt'; then
	ok "rust-uncore-report wrote the report: without the module, 'not loaded', status 4"
else
	notok "rust-uncore-report wrote the report: without the module, 'not loaded', status 4 (status $rc)"
	printf '%s\n' "$out" | tail -5 | sed 's/^/#   /'
fi
if [ "$(inroot find /usr/share/rust-uncore | sort)" = "$before" ]; then
	ok "... and wrote nothing into /usr/share/rust-uncore"
else
	notok "... and wrote nothing into /usr/share/rust-uncore"
fi
# For the guests: the modules directory as the package's install left it,
# and the selftests and command it installed.
"${sudo[@]}" rm -rf "$vdir/deb"
mkdir -p "$vdir/deb/lib/modules/$release" "$vdir/deb/usr/share" "$vdir/deb/usr/sbin"
(cd "$merged/lib/modules/$release" && find . -path ./build -prune -o -print | cpio -pdm --quiet "$vdir/deb/lib/modules/$release")
cp -a "$merged/usr/share/rust-uncore" "$vdir/deb/usr/share/"
cp -a "$merged/usr/sbin/rust-uncore-report" "$vdir/deb/usr/sbin/"

# 5. Removal.
# purged WHEN: apt-get remove --purge, and nothing of the package is left.
purged() {
	local out left
	if out=$(inroot apt-get remove -q --purge rust-uncore-dkms 2>&1); then
		ok "apt-get remove --purge rust-uncore-dkms ($1)"
	else
		notok "apt-get remove --purge rust-uncore-dkms ($1)"
		printf '%s\n' "$out" | tail -20 | sed 's/^/#   /'
	fi
	left=$(inroot /bin/sh -c "dpkg -s rust-uncore-dkms 2>/dev/null | grep '^Status:'; dkms status rust-uncore 2>/dev/null
		ls -d /usr/src/rust-uncore-* /var/lib/dkms/rust-uncore /lib/modules/*/updates/dkms/rust_uncore.ko* \
			/usr/share/rust-uncore /usr/sbin/rust-uncore-report 2>/dev/null
		grep -H rust_uncore /lib/modules/*/modules.dep 2>/dev/null" 2>&1)
	if [ -z "$left" ]; then
		ok "nothing of it is left (dpkg, dkms status, /usr/src, /var/lib/dkms, /lib/modules, /usr/share, /usr/sbin)"
	else
		notok "nothing of it is left"
		printf '%s\n' "$left" | head -10 | sed 's/^/#   /'
	fi
}
purged "after the install"

# 6. A failed build, seen and mended as the admin guide says: without the
# kernel's source the install stops, DKMS's make.log names the package to
# install, and once it is there `dpkg --configure -a` builds the module.
inroot /bin/sh -c 'mkdir -p /root/away && mv /usr/src/linux-source-*.tar.xz /root/away/'
if out=$(inroot apt-get install -q ./"${deb##*/}" 2>&1); then
	notok "without the kernel's source, the install stops"
else
	log=/var/lib/dkms/rust-uncore/$version/build/make.log
	why=$(inroot cat "$log" 2>/dev/null | grep '^stock-kdir:' | head -1)
	case "$why" in
	*"install linux-source-"*) ok "without the kernel's source, the install stops, and $log says: $why" ;;
	*) notok "without the kernel's source, the install stops, and $log names the package"; printf '%s\n' "$out" | tail -8 | sed 's/^/#   /' ;;
	esac
fi
inroot /bin/sh -c 'mv /root/away/* /usr/src/'
if out=$(inroot dpkg --configure -a 2>&1) &&
	inroot dkms status rust-uncore 2>&1 | grep -F "rust-uncore/$version, $release, " | grep -q ': installed$'; then
	ok "with the source back, dpkg --configure -a builds and installs it"
else
	notok "with the source back, dpkg --configure -a builds and installs it"
	printf '%s\n' "$out" | tail -8 | sed 's/^/#   /'
fi
purged "after the mended install"
echo "1..$tap_n"
exit "$failed"

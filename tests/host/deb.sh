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
# helpers, writes a report, writes nothing into /usr/share). Then a
# kernel upgrade without the new kernel's source (the root's second
# kernel, stock-rt's, whose headers are installed after linux-source-X.Y is
# removed): apt-get exits 0, dpkg --audit is clean, DKMS skipped the module
# and its make.log names the package; with the source back, `dkms
# autoinstall` builds the module for it, and that kernel's removal hooks
# remove the tree prepared for it; the purge leaves no prepared tree; and
# the package's own install without the kernel's source completes. TAP.
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
# The package's configuration files, README.Debian and DKMS's
# configuration with dh_dkms's version.
missing=""
for f in etc/kernel/postrm.d/rust-uncore-dkms etc/modprobe.d/rust-uncore-dkms.conf \
	usr/share/doc/rust-uncore-dkms/README.Debian; do
	printf '%s\n' "$files" | grep -qx "$f" || missing="$missing $f"
done
conffiles=$(dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles 2>/dev/null)
for f in /etc/kernel/postrm.d/rust-uncore-dkms /etc/modprobe.d/rust-uncore-dkms.conf; do
	printf '%s\n' "$conffiles" | grep -qx "$f" || missing="$missing conffile:$f"
done
if [ -z "$missing" ]; then
	ok "it holds README.Debian, the kernel removal hook and the modprobe.d file, both conffiles"
else
	notok "it holds README.Debian, the kernel removal hook and the modprobe.d file, both conffiles: missing$missing"
fi
modprobe=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./etc/modprobe.d/rust-uncore-dkms.conf 2>/dev/null)
if printf '%s\n' "$modprobe" | grep -qx '#blacklist intel_uncore' && [ -z "$(printf '%s\n' "$modprobe" | grep -v '^#')" ]; then
	ok "its /etc/modprobe.d/rust-uncore-dkms.conf has 'blacklist intel_uncore' commented out, and nothing else active"
else
	notok "its /etc/modprobe.d/rust-uncore-dkms.conf has 'blacklist intel_uncore' commented out, and nothing else active"
fi
conf=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO "./$src/dkms.conf" 2>/dev/null)
missing=""
for l in "PACKAGE_VERSION=\"$version\"" 'BUILD_EXCLUSIVE_ARCH="x86_64"' 'BUILD_EXCLUSIVE_CONFIG="CONFIG_RUST"' \
	'BUILD_EXCLUSIVE_KERNEL_MIN="6.12"' 'PRE_BUILD="scripts/stock-kdir.sh --check --release ${kernelver}"'; do
	printf '%s\n' "$conf" | grep -qxF "$l" || missing="$missing $l"
done
printf '%s\n' "$conf" | grep -q '^CLEAN=' && missing="$missing (it has CLEAN)"
if [ -z "$missing" ]; then
	ok "its dkms.conf has the package's version ($version, from #MODULE_VERSION#), the BUILD_EXCLUSIVE lines and PRE_BUILD, no CLEAN"
else
	notok "its dkms.conf has the package's version, the BUILD_EXCLUSIVE lines and PRE_BUILD, no CLEAN: missing$missing"
fi
case ", $(dpkg-deb -f "$deb" Recommends), " in
*", linux-perf, "*) ok "it recommends linux-perf" ;;
*) notok "it recommends linux-perf: $(dpkg-deb -f "$deb" Recommends)" ;;
esac
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

# 5. A kernel upgrade without the new kernel's source, as apt makes one:
# the second kernel of the root (the stock-rt variant's, whose headers went
# in step 3) is the new kernel, and the root's linux-source-X.Y is removed
# first. Installing the headers runs DKMS's kernel hook: DKMS skips the
# module (stock-kdir.sh --check exits 77), apt-get exits 0 and dpkg has
# nothing half-configured; with the source back, `dkms autoinstall` builds
# it. Then the kernel's removal (its package's postrm hooks, run as the
# package runs them) takes the tree prepared for it.
rt=$(printf '%s\n' $others | head -1)
srcpkg=$(inroot dpkg-query -S '/usr/src/linux-source-*.tar.xz' 2>/dev/null | cut -d: -f1 | head -1)
if [ -z "$rt" ] || [ -z "$srcpkg" ]; then
	notok "a second kernel's headers (${rt:-none}) and the kernel's source package (${srcpkg:-none}) in the root"
else
	if out=$(inroot apt-get remove -q --purge "$srcpkg" 2>&1); then
		ok "apt-get remove --purge $srcpkg"
	else
		notok "apt-get remove --purge $srcpkg"
		printf '%s\n' "$out" | tail -5 | sed 's/^/#   /'
	fi
	start=$SECONDS
	out=$(inroot apt-get install -q "linux-headers-$rt" 2>&1)
	rc=$?
	audit=$(inroot dpkg --audit 2>&1)
	state=$(inroot dpkg-query -W -f '${db:Status-Abbrev}' "linux-headers-$rt" 2>&1)
	printf '%s\n' "$out" | sed -n '/^Autoinstall of module rust-uncore/,/^Autoinstall on /p' | sed 's/^/# apt-get: /'
	if [ "$rc" = 0 ] && [ -z "$audit" ] && [ "${state% }" = ii ]; then
		ok "without its source, apt-get install linux-headers-$rt exits 0, the headers are configured, dpkg --audit is clean ($((SECONDS - start)) s)"
	else
		notok "without its source, apt-get install linux-headers-$rt exits 0 (status $rc), the headers are configured ('$state'), dpkg --audit is clean"
		printf '%s\n' "$out" "$audit" | tail -20 | sed 's/^/#   /'
	fi
	if printf '%s\n' "$out" | grep -qF "Autoinstall on $rt was skipped for module(s) rust-uncore."; then
		ok "DKMS says it skipped rust-uncore for $rt"
	else
		notok "DKMS says it skipped rust-uncore for $rt"
	fi
	log=/var/lib/dkms/rust-uncore/$version/build/make.log
	why=$(inroot grep '^stock-kdir:' "$log" 2>/dev/null)
	printf '%s\n' "$why" | sed "s,^,# $log: ,"
	case "$why" in
	"stock-kdir: skipped, not built for kernel $rt: no kernel source /usr/src/${srcpkg}.tar.xz: install $srcpkg "*"; then: dkms autoinstall -k $rt")
		ok "its make.log has one line that names the package to install and the command" ;;
	*) notok "its make.log has one line that names $srcpkg and dkms autoinstall -k $rt" ;;
	esac
	if inroot dkms status rust-uncore 2>&1 | grep -F "rust-uncore/$version, $rt, " | grep -q ': installed$'; then
		notok "it is not installed for $rt"
	else
		ok "it is not installed for $rt"
	fi
	start=$SECONDS
	if out=$(inroot apt-get install -q "$srcpkg" 2>&1) && out=$(inroot dkms autoinstall -k "$rt" 2>&1) &&
		inroot dkms status rust-uncore 2>&1 | grep -F "rust-uncore/$version, $rt, " | grep -q ': installed$'; then
		ok "with $srcpkg installed, dkms autoinstall -k $rt builds and installs it ($((SECONDS - start)) s)"
	else
		notok "with $srcpkg installed, dkms autoinstall -k $rt builds and installs it"
		printf '%s\n' "$out" | tail -10 | sed 's/^/#   /'
	fi
	# The disk cost of a prepared tree (the admin guide states it).
	for r in "$release" "$rt"; do
		echo "# du -sh /usr/src/linux-rust-$r: $(inroot du -sh "/usr/src/linux-rust-$r" 2>&1 | cut -f1)"
	done
	if out=$(inroot linux-run-hooks image postrm "$rt" "/boot/vmlinuz-$rt" -- remove 2>&1) &&
		! inroot test -e "/usr/src/linux-rust-$rt" && inroot test -d "/usr/src/linux-rust-$release"; then
		ok "the removal of kernel $rt (linux-run-hooks image postrm) removes /usr/src/linux-rust-$rt, and only that tree"
	else
		notok "the removal of kernel $rt (linux-run-hooks image postrm) removes /usr/src/linux-rust-$rt, and only that tree"
		printf '%s\n' "$out" | tail -5 | sed 's/^/#   /'
	fi
fi

# 6. Removal.
# purged WHEN: apt-get remove --purge, and nothing of the package is left,
# nor a tree prepared for its builds.
purged() {
	local out left
	if out=$(inroot apt-get remove -q --purge rust-uncore-dkms 2>&1); then
		ok "apt-get remove --purge rust-uncore-dkms ($1)"
	else
		notok "apt-get remove --purge rust-uncore-dkms ($1)"
		printf '%s\n' "$out" | tail -20 | sed 's/^/#   /'
	fi
	left=$(inroot /bin/sh -c "dpkg -s rust-uncore-dkms 2>/dev/null | grep '^Status:'; dkms status rust-uncore 2>/dev/null
		ls -d /usr/src/rust-uncore-* /usr/src/linux-rust-* /var/lib/dkms/rust-uncore /lib/modules/*/updates/dkms/rust_uncore.ko* \
			/usr/share/rust-uncore /usr/sbin/rust-uncore-report /etc/kernel/postrm.d/rust-uncore-dkms \
			/etc/modprobe.d/rust-uncore-dkms.conf 2>/dev/null
		grep -H rust_uncore /lib/modules/*/modules.dep 2>/dev/null" 2>&1)
	if [ -z "$left" ]; then
		ok "nothing of it is left (dpkg, dkms status, /usr/src with the prepared trees, /var/lib/dkms, /lib/modules, /usr/share, /usr/sbin, /etc)"
	else
		notok "nothing of it is left"
		printf '%s\n' "$left" | head -10 | sed 's/^/#   /'
	fi
}
purged "after the install"

# 7. The package's own install without the kernel's source: DKMS skips
# the kernel, the install completes, and make.log names the package.
inroot /bin/sh -c 'mkdir -p /root/away && mv /usr/src/linux-source-*.tar.xz /root/away/'
out=$(inroot apt-get install -q ./"${deb##*/}" 2>&1)
rc=$?
audit=$(inroot dpkg --audit 2>&1)
if [ "$rc" = 0 ] && [ -z "$audit" ] && [ "$(inroot dpkg-query -W -f '${db:Status-Abbrev}' rust-uncore-dkms)" = "ii " ]; then
	ok "without the kernel's source, the package's install completes (apt-get status 0, dpkg --audit clean)"
else
	notok "without the kernel's source, the package's install completes (apt-get status $rc)"
	printf '%s\n' "$out" "$audit" | tail -10 | sed 's/^/#   /'
fi
why=$(inroot grep '^stock-kdir:' "/var/lib/dkms/rust-uncore/$version/build/make.log" 2>/dev/null | head -1)
case "$why" in
"stock-kdir: skipped, not built for kernel "*": no kernel source "*": install linux-source-"*) ok "... and DKMS's make.log says: $why" ;;
*) notok "... and DKMS's make.log names the package to install: '${why:-nothing}'" ;;
esac
inroot /bin/sh -c 'mv /root/away/* /usr/src/'
purged "after the install without the source"
echo "1..$tap_n"
exit "$failed"

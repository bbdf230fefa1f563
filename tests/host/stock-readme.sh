#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# README.md's commands for Debian 13's stock kernel, run as written: the
# stock-build block (toolchain, kernel source and headers, make stock, make
# stock-install) and the stock-dkms block, inside the Debian 13 root of
# scripts/stock-kernel.sh (where `uname -r` answers with the stock kernel's
# release), on a copy of the files a clone of the repository has. The
# installed module stays in the root: the guests booting the stock kernel
# carry it, and tests/guest/26-stock-readme.sh runs the README's
# stock-load block with it. TAP.
#
# Usage: tests/host/stock-readme.sh
set -uo pipefail
. "$(dirname "$0")/tap.sh"

stock_root
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# What a clone has (every file, outside a git checkout).
"$repo/scripts/clone-files.sh" "$work/rust_uncore" || { echo "not ok 1 copy the repository's files"; echo "1..1"; exit 1; }
inroot() { "$repo/scripts/in-root.sh" "$root" --bind "$work:/root/work" --cwd /root/work -- "$@"; }

# The root is kept between runs: a run stopped before its end (a killed
# make check) leaves DKMS's tree and module behind, and then `dkms add`
# refuses the same version and depmod prefers updates/dkms. Cleaned before
# the blocks run and again at the end.
dkms_clean() {
	inroot /bin/sh -c 'if command -v dkms >/dev/null; then dkms remove rust-uncore/0.1 --all >/dev/null 2>&1; fi
		rm -rf /usr/src/rust-uncore-0.1 /var/lib/dkms/rust-uncore /lib/modules/'"$release"'/updates/dkms/rust_uncore.ko*
		depmod -a '"$release"
}
dkms_clean || { echo "not ok 1 remove an earlier run's DKMS module"; echo "1..1"; exit 1; }

# run_block NAME FILE: runs the README's block NAME, written to FILE in the
# work directory, in the Debian 13 root as one shell script that stops at
# the first failure.
run_block() {
	local start=$SECONDS
	if out=$(inroot /bin/bash -e "/root/work/$2" 2>&1); then
		ok "the $1 commands run in the Debian 13 root ($((SECONDS - start)) s)"
	else
		notok "the $1 commands run in the Debian 13 root"
		printf '%s\n' "$out" | tail -30 | sed 's/^/#   /'
	fi
}

# The build block, as one shell script that stops at the first failure.
readme_block stock-build >"$work/build.sh"
if [ ! -s "$work/build.sh" ]; then
	notok "README.md has a stock-build block"
else
	ok "README.md has a stock-build block ($(grep -c . "$work/build.sh") lines)"
fi
run_block stock-build build.sh
# Compressed as the kernel's own modules are (xz on Debian).
ko=$(ls "$root/lib/modules/$release/updates/rust_uncore.ko"* 2>/dev/null | head -1)
if [ -n "$ko" ]; then
	ok "make stock-install put the module in /lib/modules/$release/updates (${ko##*/})"
else
	notok "make stock-install put the module in /lib/modules/$release/updates"
fi
vm=$(/sbin/modinfo -F vermagic "$ko" 2>/dev/null)
case "$vm" in
"$release "*) ok "its vermagic is the stock kernel's ($release)" ;;
*) notok "its vermagic is the stock kernel's ($release): '${vm:-none}'" ;;
esac
if grep -q '^updates/rust_uncore.ko[.a-z]*:' "$root/lib/modules/$release/modules.dep" 2>/dev/null; then
	ok "depmod lists it for modprobe"
else
	notok "depmod lists it for modprobe"
fi

# DKMS: add, build and install for the stock kernel (reusing the prepared
# tree), signed with DKMS's key; then removed, so that the module modprobe
# finds in the guests is make stock-install's.
readme_block stock-dkms >"$work/dkms.sh"
run_block stock-dkms dkms.sh
# DKMS builds from its own copy of the module: the tree make stock prepared
# must be reused, not prepared again (a few minutes).
dlog=$(find "$root/var/lib/dkms/rust-uncore" -name make.log 2>/dev/null | head -1)
if grep -q "^stock-kdir: .* is prepared for kernel $release" "$dlog" 2>/dev/null; then
	ok "DKMS's build reused the tree make stock prepared"
else
	notok "DKMS's build reused the tree make stock prepared"
	grep '^stock-kdir:' "$dlog" 2>/dev/null | sed 's/^/#   /'
fi
dko=$(ls "$root/lib/modules/$release/updates/dkms/rust_uncore.ko"* 2>/dev/null | head -1)
if [ -n "$dko" ]; then
	ok "DKMS installed the module for $release"
	case "$dko" in *.xz) xz -dc "$dko" >"$work/dkms.ko" ;; *.zst) zstd -qdc "$dko" >"$work/dkms.ko" ;; *) cp "$dko" "$work/dkms.ko" ;; esac
	if [ -n "$(/sbin/modinfo -F sig_id "$work/dkms.ko" 2>/dev/null)" ]; then
		ok "DKMS signed it ($(/sbin/modinfo -F signer "$work/dkms.ko"))"
	else
		notok "DKMS signed it"
	fi
else
	notok "DKMS installed the module for $release"
fi
dkms_clean || notok "dkms remove"
echo "1..$tap_n"
exit "$failed"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs everything the build, the test kernels and the QEMU guests need
# on Debian 12 (bookworm, with bookworm-security): the Debian packages
# below, among them rustc-web and its cargo-web (Rust 1.96), and bindgen
# 0.70.1, built by /usr/bin/cargo into the cache directory. Downloads (never
# installs) the Debian kernel configurations of the distro kernel variants.
# No rustup toolchain is needed or used: every tool is called by absolute
# path (scripts/env.sh).
#
# Idempotent: packages already present are not reinstalled, and the
# bindgen binary is kept in the cache directory between runs.
#
# Installing packages needs root: run it as root, or as a user who has
# sudo (used when it is installed). Without either, it names the missing
# packages and exits with status 1.
#
# Usage: scripts/install-deps.sh [--help]
# The cache directory is $UNCORE_CACHE_DIR, by default
# ${XDG_CACHE_HOME:-~/.cache}/rust-uncore.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

case "${1:-}" in
"") ;;
-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
*) echo "install-deps: unknown argument '$1' (see --help)" >&2; exit 2 ;;
esac

. "$here/env.sh"

pkgs=(linux-source-6.12 rustc-web cargo-web rust-web-src rust-web-clippy rustfmt-web
      clang-19 llvm-19 lld-19 libclang-19-dev
      busybox-static qemu-system-x86 linux-perf valgrind python3-docutils python3-sphinx
      flex bison bc libelf-dev libssl-dev cpio xz-utils make kmod python3 gcc
      debootstrap)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

# as_root CMD...: runs CMD as root (directly, or through sudo).
as_root() {
	if [ "$(id -u)" -eq 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		echo "install-deps: '$*' needs root, and there is no sudo: run scripts/install-deps.sh as root" >&2
		exit 1
	fi
}
apt_update() { as_root apt-get update -q || { sleep 5; as_root apt-get update -q; }; }

# QEMU's packages must be of one version: a machine that already has one of
# them (qemu-utils, say) from bookworm-backports gets the system emulator of
# that same version from bookworm-backports (with its dependencies from
# there), instead of Debian 12's, whose install would remove the machine's
# package.
qemu_have=$(dpkg-query -W -f='${Status} ${Version}\n' qemu-utils qemu-system-common 2>/dev/null |
	sed -n 's/^install ok installed //p' | head -1)
backports_list=/etc/apt/sources.list.d/rust-uncore-bookworm-backports.list
apt_target=()
case "$qemu_have" in
*bpo12*)
	for i in "${!missing[@]}"; do
		[ "${missing[$i]}" = qemu-system-x86 ] || continue
		missing[$i]="qemu-system-x86=$qemu_have"
		apt_target=(-t bookworm-backports)
		if ! grep -qrs '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
			echo "install-deps: the machine's QEMU is $qemu_have (bookworm-backports): enabling bookworm-backports in $backports_list for qemu-system-x86 of that version"
			debian_mirrors
			echo "deb $DEBIAN_MIRROR bookworm-backports main" | as_root tee "$backports_list" >/dev/null
		fi
	done ;;
esac
# apt_install PKG...: installs, unless that would remove a package the
# machine has (then it names them and fails). The QEMU emulator comes from
# the release of the machine's own QEMU (apt_target).
apt_install() {
	local target=() removed
	case "$*" in *qemu-system-x86=*) target=("${apt_target[@]}") ;; esac
	removed=$(apt-get install -s -q --no-install-recommends "${target[@]}" "$@" 2>/dev/null | sed -n 's/^Remv \([^ ]*\).*/\1/p')
	if [ -n "$removed" ]; then
		echo "install-deps: installing $* would remove $(echo $removed): not installing; install them by hand in versions that fit" >&2
		exit 1
	fi
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-remove --no-install-recommends "${target[@]}" "$@"
}

if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
		echo "install-deps: missing packages: ${missing[*]}" >&2
		echo "install-deps: installing them needs root, and there is no sudo: run scripts/install-deps.sh as root (or install them as root with apt-get install)" >&2
		exit 1
	fi
	echo "install-deps: installing ${missing[*]}"
	apt_update
	# QEMU apart: it may come from another release. An install can fail
	# once when another apt run holds the archive; retry once.
	qemu=() rest=()
	for p in "${missing[@]}"; do
		case "$p" in qemu-system-x86*) qemu+=("$p") ;; *) rest+=("$p") ;; esac
	done
	[ ${#rest[@]} -eq 0 ] || apt_install "${rest[@]}" || { sleep 10; apt_install "${rest[@]}"; }
	[ ${#qemu[@]} -eq 0 ] || apt_install "${qemu[@]}" || { sleep 10; apt_install "${qemu[@]}"; }
fi
for tool in "$RUSTC" "$CARGO" "$CARGO_CLIPPY" "$RUSTFMT"; do
	[ -x "$tool" ] || { echo "install-deps: $tool is missing after the install" >&2; exit 1; }
done

# Debian's amd64 and rt-amd64 kernel configurations for the distro kernel
# variants: their linux-headers packages are only downloaded, never
# installed.
download_headers() {
	distro_headers "$1" || return 1
	[ ! -f "$DISTRO_DEB" ] || return 0
	echo "install-deps: downloading $DISTRO_PKG $DISTRO_VERSION into $DEBS_DIR"
	mkdir -p "$DEBS_DIR"
	# apt's sandbox user cannot write to a root-owned cache directory.
	sandbox=()
	[ "$(id -u)" -ne 0 ] || sandbox=(-o APT::Sandbox::User=root)
	(cd "$DEBS_DIR" && apt-get download -q "${sandbox[@]}" "$DISTRO_PKG=$DISTRO_VERSION") && [ -f "$DISTRO_DEB" ]
}
for flavour in amd64 rt-amd64; do
	if ! download_headers "$flavour"; then
		# No package lists yet, or stale ones: update them and try once more.
		apt_update
		download_headers "$flavour" || { echo "install-deps: cannot download a linux-headers-6.12.*-$flavour package" >&2; exit 1; }
	fi
done

if ! "$BINDGEN" --version 2>/dev/null | grep -q "$BINDGEN_VERSION"; then
	echo "install-deps: installing bindgen-cli $BINDGEN_VERSION into $TOOLS_DIR"
	mkdir -p "$TOOLS_DIR"
	# Debian's cargo and rustc (RUSTC, exported by env.sh).
	"$CARGO" install --locked --root "$TOOLS_DIR" bindgen-cli --version "$BINDGEN_VERSION"
fi
echo "install-deps: ok"

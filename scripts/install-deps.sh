#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Installs everything the build, the test kernels and the QEMU guests need,
# and downloads the Debian kernel configurations of the distro kernel
# variants.
# Idempotent: packages already present are not reinstalled, and the
# bindgen binary is kept in the cache directory between runs.
#
# Usage: scripts/install-deps.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

pkgs=(linux-source-6.12 rustc-web rust-web-src rust-web-clippy rustfmt-web
      clang-19 llvm-19 lld-19 libclang-19-dev
      busybox-static qemu-system-x86 linux-perf
      flex bison bc libelf-dev libssl-dev cpio xz-utils make kmod python3 gcc)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

apt_install() {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$@"
}

if [ ${#missing[@]} -gt 0 ]; then
	echo "install-deps: installing ${missing[*]}"
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -q || { sleep 5; $SUDO apt-get update -q; }
	# An install can fail once when another apt run holds the archive; retry once.
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" ||
		{ sleep 10; $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"; }
fi

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
		SUDO=""
		[ "$(id -u)" -eq 0 ] || SUDO=sudo
		$SUDO apt-get update -q || { sleep 5; $SUDO apt-get update -q; }
		download_headers "$flavour" || { echo "install-deps: cannot download a linux-headers-6.12.*-$flavour package" >&2; exit 1; }
	fi
done

if ! "$BINDGEN" --version 2>/dev/null | grep -q "$BINDGEN_VERSION"; then
	echo "install-deps: installing bindgen-cli $BINDGEN_VERSION into $TOOLS_DIR"
	mkdir -p "$TOOLS_DIR"
	env -u RUSTC cargo install --locked --root "$TOOLS_DIR" bindgen-cli --version "$BINDGEN_VERSION"
fi
echo "install-deps: ok"

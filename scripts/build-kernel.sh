#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds (or reuses) the Rust-enabled test kernel from Debian's
# linux-source-6.12 with the fragment in scripts/kernel.config.
#
# The build lives in $CACHE_DIR/kernel/<key>, where <key> is a hash of every
# input: the source package version, the fragment, this script and the
# versions of rustc, clang and bindgen. An unchanged key reuses the build.
#
# Usage: scripts/build-kernel.sh [--print-dir]
#   --print-dir   only print the build directory for the current inputs
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

fragment=$here/kernel.config
src_version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo none)
key=$( {
	echo "src=$src_version"
	cat "$fragment" "$0"
	"$RUSTC" --version
	clang-19 --version | head -1
	"$BINDGEN" --version 2>/dev/null || echo no-bindgen
} | sha256sum | cut -c1-16)
kdir=$CACHE_DIR/kernel/$key

if [ "${1:-}" = "--print-dir" ]; then
	echo "$kdir"
	exit 0
fi

if [ -f "$kdir/.complete" ]; then
	echo "build-kernel: reusing $kdir"
	exit 0
fi

echo "build-kernel: building test kernel in $kdir (inputs changed or first build)"
rm -rf "$kdir"
mkdir -p "$kdir"
tar -C "$kdir" -xf "$KERNEL_SRC_TARBALL"
src=$(echo "$kdir"/linux-source-6.12)
cd "$src"

make "${KMAKE_FLAGS[@]}" tinyconfig >/dev/null
scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null
make "${KMAKE_FLAGS[@]}" olddefconfig >/dev/null

# Kconfig silently drops what it cannot satisfy: check every line.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qx "$line" .config || { echo "build-kernel: not applied: $line"; bad=1; } ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }; sym=${sym%% *}
		grep -q "^$sym=" .config && { echo "build-kernel: not applied: $line"; bad=1; } ;;
	esac
done <"$fragment"
if [ "$bad" -ne 0 ]; then
	make "${KMAKE_FLAGS[@]}" rustavailable || true
	exit 1
fi

make "${KMAKE_FLAGS[@]}" -j"$(nproc)" all
touch "$kdir/.complete"
# Keep only the newest build: older keys are stale.
for old in "$CACHE_DIR"/kernel/*; do
	[ "$old" = "$kdir" ] || rm -rf "$old"
done
echo "build-kernel: done: $kdir"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds (or reuses) the base initramfs of the test guest and prints its path:
# busybox, perf with every library it links, the test kernel's own C uncore
# driver, and /init. Per-run files are appended by scripts/guest.sh.
#
# Usage: scripts/mkinitramfs.sh BOOT_DIR
#   BOOT_DIR  what the guest boots: the directory with the kernel's
#             intel-uncore.ko (scripts/build-kernel.sh --print-boot)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
boot=$1
cuko=$boot/intel-uncore.ko

[ -f "$cuko" ] || { echo "mkinitramfs: $cuko is missing (is $boot a built kernel's boot directory?)" >&2; exit 1; }

# The key covers every file of the image; the C driver is the one part
# that differs between kernels. Each kernel variant (the first word of its
# build directory's name, e.g. "debug" for kernel/debug-<key>) keeps its own
# newest image, so that boots on two kernels can run side by side.
key=$( {
	cat "$here/guest-init.sh" "$0"
	sha256sum /bin/busybox /usr/bin/perf "$cuko"
} | sha256sum | cut -c1-16)
tag=$(basename "$(dirname "$(cd "$boot" && pwd)")")
tag=${tag%%-*}
out=$CACHE_DIR/initramfs/base-$tag-$key.cpio
if [ -f "$out" ]; then
	echo "$out"
	exit 0
fi
mkdir -p "$CACHE_DIR/initramfs"
find "$CACHE_DIR/initramfs" -name "base-$tag-*.cpio" ! -name "base-$tag-$key.cpio" -delete
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT

mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp,run,etc,lib/modules,tests}
cp /bin/busybox "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
cp /usr/bin/perf "$root/usr/bin/perf"
# perf and its libraries, at the paths the dynamic loader expects.
for lib in $(ldd /usr/bin/perf | grep -o '/[^ ]*'); do
	mkdir -p "$root$(dirname "$lib")"
	cp -L "$lib" "$root$lib"
done
cp "$cuko" "$root/lib/modules/"
cp "$here/guest-init.sh" "$root/init"
chmod +x "$root/init"
echo "root:x:0:0:root:/:/bin/sh" >"$root/etc/passwd"
tmp=$(mktemp "$out.XXXXXX")
(cd "$root" && find . | cpio -o -H newc --quiet) >"$tmp"
mv "$tmp" "$out"
echo "$out"

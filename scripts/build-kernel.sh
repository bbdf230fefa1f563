#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds (or reuses) a Rust-enabled kernel tree from Debian's
# linux-source-6.12, in one of five variants:
#   debug     the test kernel: tinyconfig + scripts/kernel.config +
#             scripts/kernel-debug.config (lockdep, KASAN, kmemleak, ...;
#             no preemption). Fully built and bootable.
#   nodebug   tinyconfig + scripts/kernel.config + scripts/kernel-nodebug.config
#             (no debugging option, full preemption). Fully built and bootable.
#   rt        tinyconfig + scripts/kernel.config + scripts/kernel-rt.config
#             (PREEMPT_RT with lockdep and the might-sleep checks). Fully
#             built and bootable.
#   distro    Debian's own amd64 configuration (from the linux-headers package
#             of the source version, see distro_headers in env.sh) prepared
#             for Rust; only `make modules_prepare`: modules compile against
#             it (without Module.symvers), nothing boots it.
#   distro-rt the same with Debian's rt-amd64 configuration (PREEMPT_RT).
# and the distribution kernels of scripts/stock-kernel.sh (stock: Debian
# 13's own trixie-backports kernel, booted as shipped; stock-rt, unstable:
# compiled against), prepared in Debian roots with their own toolchains.
# Every line of the fragments (or, for distro and distro-rt, the lines the
# variant is for) is checked after olddefconfig.
#
# A variant is built in $CACHE_DIR/kernel/<variant>-<key>, where <key> is a
# hash of every input of that variant: the source package version, its
# fragments (or the Debian package and version), the build recipe's
# version (RECIPE below) and the versions of rustc, clang and bindgen. An
# unchanged key reuses the build; a new build removes the stale builds of
# the same variant only.
#
# Usage: scripts/build-kernel.sh [--variant V] [--print-dir|--print-tree|--print-boot]
#   --variant V   debug (the default), nodebug, rt, distro, distro-rt,
#                 stock, stock-rt or unstable
#   --print-dir   only print the build directory for the current inputs
#   --print-tree  only print the kernel tree modules are built against
#   --print-boot  only print the directory of what a guest boots (bzImage,
#                 config, intel-uncore.ko: debug, nodebug, rt and stock)
#   --help        this text
# It needs the packages and bindgen of scripts/install-deps.sh; on a fresh
# machine, `make test-kernel VARIANT=V` runs both. The cache directory
# ($CACHE_DIR) is $UNCORE_CACHE_DIR, by default
# ${XDG_CACHE_HOME:-~/.cache}/rust-uncore.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

variant=debug
print_dir=0
while [ $# -gt 0 ]; do
	case "$1" in
	--variant) variant=${2:-}; shift 2 || { echo "build-kernel: --variant needs a value" >&2; exit 2; } ;;
	--variant=*) variant=${1#--variant=}; shift ;;
	--print-dir) print_dir=1; shift ;;
	--print-tree) print_dir=tree; shift ;;
	--print-boot) print_dir=boot; shift ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "build-kernel: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done

case "$variant" in
stock|stock-rt|unstable)
	case "$print_dir" in
	0) exec "$here/stock-kernel.sh" --variant "$variant" ;;
	1) exec "$here/stock-kernel.sh" --variant "$variant" --print-dir ;;
	tree) exec "$here/stock-kernel.sh" --variant "$variant" --print-tree ;;
	boot)
		[ "$variant" = stock ] || { echo "build-kernel: the $variant kernel is not booted" >&2; exit 2; }
		echo "$("$here/stock-kernel.sh" --variant "$variant" --print-dir)/boot"
		exit 0 ;;
	esac ;;
esac
src_version=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || echo none)
fragments=()
case "$variant" in
debug|nodebug|rt)
	fragments=("$here/kernel.config" "$here/kernel-$variant.config")
	inputs() { cat "${fragments[@]}"; }
	;;
distro|distro-rt)
	flavour=amd64
	[ "$variant" = distro ] || flavour=rt-amd64
	distro_headers "$flavour" || { echo "build-kernel: no linux-headers-6.12.*-$flavour package known to apt; run scripts/install-deps.sh" >&2; exit 1; }
	inputs() { echo "config=$DISTRO_PKG $DISTRO_VERSION"; }
	;;
*) echo "build-kernel: unknown variant '$variant' (debug, nodebug, rt, distro, distro-rt, stock, stock-rt or unstable)" >&2; exit 2 ;;
esac
# The steps that build a tree: bump when they change in a way that changes
# the trees built (a new variant alone changes no other variant's tree).
RECIPE=1
key=$( {
	echo "variant=$variant src=$src_version recipe=$RECIPE"
	inputs
	"$RUSTC" --version
	clang-19 --version | head -1
	"$BINDGEN" --version 2>/dev/null || echo no-bindgen
} | sha256sum | cut -c1-16)
kdir=$CACHE_DIR/kernel/$variant-$key

case "$print_dir" in
1) echo "$kdir"; exit 0 ;;
tree) echo "$kdir/linux-source-6.12"; exit 0 ;;
boot)
	case "$variant" in distro*) echo "build-kernel: the $variant kernel is not booted" >&2; exit 2 ;; esac
	# What a guest boots, under the names every bootable variant has.
	if [ -f "$kdir/.complete" ] && [ ! -d "$kdir/boot" ]; then
		mkdir -p "$kdir/boot.tmp"
		ln -sf ../linux-source-6.12/arch/x86/boot/bzImage "$kdir/boot.tmp/bzImage"
		ln -sf ../linux-source-6.12/.config "$kdir/boot.tmp/config"
		ln -sf ../linux-source-6.12/arch/x86/events/intel/intel-uncore.ko "$kdir/boot.tmp/intel-uncore.ko"
		mv "$kdir/boot.tmp" "$kdir/boot" 2>/dev/null || rm -rf "$kdir/boot.tmp"
	fi
	echo "$kdir/boot"
	exit 0 ;;
esac

if [ -f "$kdir/.complete" ]; then
	echo "build-kernel: reusing $kdir"
	exit 0
fi

start=$SECONDS
echo "build-kernel: building the $variant kernel in $kdir (inputs changed or first build)"
distro=0
case "$variant" in distro*) distro=1 ;; esac
if [ "$distro" = 1 ] && [ ! -f "$DISTRO_DEB" ]; then
	echo "build-kernel: $DISTRO_DEB is missing; run scripts/install-deps.sh" >&2
	exit 1
fi
rm -rf "$kdir"
mkdir -p "$kdir"
tar -C "$kdir" -xf "$KERNEL_SRC_TARBALL"
src=$(echo "$kdir"/linux-source-6.12)
cd "$src"

# The lines to check after olddefconfig.
expect=$kdir/expected.config
if [ "$distro" = 1 ]; then
	echo "build-kernel: configuration of $DISTRO_PKG $DISTRO_VERSION"
	deb=$(mktemp -d)
	dpkg-deb -x "$DISTRO_DEB" "$deb"
	cp "$deb"/usr/src/linux-headers-*/.config .config
	rm -rf "$deb"
	# Rust support (toolchain-notes.md): no MODVERSIONS, no BTF, none of
	# Debian's keys, and (where Kconfig lets it) no module signing and no
	# debug info: Debian's SECURITY_LOCKDOWN_LSM selects MODULE_SIG and its
	# DWARF choice selects DEBUG_INFO, so both stay on; neither matters to
	# compiling a module.
	scripts/config --enable RUST --disable MODVERSIONS --disable DEBUG_INFO_BTF \
		--disable MODULE_SIG --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --disable DEBUG_INFO --enable DEBUG_INFO_NONE
	make "${KMAKE_FLAGS[@]}" olddefconfig >/dev/null
	# What the variant is for: Rust, and none of the debugging options the
	# test kernel has.
	printf '%s\n' "CONFIG_RUST=y" "# CONFIG_MODVERSIONS is not set" \
		"# CONFIG_DEBUG_SPINLOCK is not set" "# CONFIG_LOCKDEP is not set" \
		"# CONFIG_KASAN is not set" >"$expect"
	[ "$variant" = distro ] || echo "CONFIG_PREEMPT_RT=y" >>"$expect"
else
	make "${KMAKE_FLAGS[@]}" tinyconfig >/dev/null
	scripts/kconfig/merge_config.sh -m .config "${fragments[@]}" >/dev/null
	make "${KMAKE_FLAGS[@]}" olddefconfig >/dev/null
	cat "${fragments[@]}" >"$expect"
fi

# Kconfig silently drops what it cannot satisfy: check every line.
bad=0
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		grep -qxF "$line" .config || { echo "build-kernel: not applied: $line"; bad=1; } ;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }; sym=${sym%% *}
		if grep -q "^$sym=" .config; then echo "build-kernel: not applied: $line"; bad=1; fi ;;
	esac
done <"$expect"
if [ "$bad" -ne 0 ]; then
	echo "build-kernel: the $variant configuration is not what it must be (lines above)" >&2
	make "${KMAKE_FLAGS[@]}" rustavailable || true
	exit 1
fi

if [ "$distro" = 1 ]; then
	make "${KMAKE_FLAGS[@]}" -j"$(nproc)" modules_prepare
else
	make "${KMAKE_FLAGS[@]}" -j"$(nproc)" all
fi
touch "$kdir/.complete"
# Keep only the newest build of this variant.
prune_variant "$variant" "$kdir"
echo "build-kernel: done: $kdir ($((SECONDS - start)) s)"

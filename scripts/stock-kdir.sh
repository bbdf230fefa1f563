#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepares a kernel tree for building Rust modules against a distribution's
# own Rust-enabled kernel (Debian 13's trixie-backports kernel, say), and
# prints its path on the last line. A linux-headers package lacks the Rust
# artifacts (rust/*.rmeta) a Rust module links against, so the tree is made
# from the kernel's source, configured and named as the kernel was built:
#   1. from the kernel's headers (/lib/modules/R/build, the linux-headers-R
#      package): Module.symvers, the BTF vmlinux and, on Debian,
#      .kernelvariables (the compiler and the release string); the
#      configuration is /boot/config-R, or the headers' .config;
#   2. the source of the same version (linux-source-X.Y,
#      /usr/src/linux-source-X.Y.tar.xz);
#   3. the toolchain must be the one that built the kernel: rustc and
#      bindgen of the versions its configuration names, and its C compiler;
#   4. make olddefconfig, which must change nothing, then make
#      modules_prepare (a few minutes: it builds the kernel's Rust crates);
#   5. the tree's release must be R, or the module's vermagic would not
#      match the kernel.
# A tree prepared from the same inputs is reused at once.
#
# Usage: scripts/stock-kdir.sh [--release R] [--dir DIR] [--print-dir] [--check]
#   --release R   the kernel release (default: the running kernel's, uname -r)
#   --dir DIR     where to prepare the tree (default: /usr/src/linux-rust-R)
#   --print-dir   only print where the tree is (or would be)
#   --check       only check steps 1 to 3 (what must be installed); when
#                 something is missing, print one line that names it and
#                 exit with status 77, which DKMS takes for "skipped"
#                 (dkms.conf's PRE_BUILD: a kernel upgrade without the
#                 new kernel's source completes)
#   --help        this text
# RUSTC, BINDGEN and HOSTRUSTC in the environment name the tools (default:
# /usr/bin/rustc when it exists, as make stock's, else rustc on PATH; and
# bindgen on PATH).
set -euo pipefail

release=""
dir=""
print_dir=0
check=0
while [ $# -gt 0 ]; do
	case "$1" in
	--release|--dir)
		[ $# -ge 2 ] || { echo "stock-kdir: $1 needs a value (see --help)" >&2; exit 2; }
		if [ "$1" = --release ]; then release=$2; else dir=$2; fi
		shift 2 ;;
	--print-dir) print_dir=1; shift ;;
	--check) check=1; shift ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "stock-kdir: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
release=${release:-$(uname -r)}
dir=${dir:-/usr/src/linux-rust-$release}
if [ "$print_dir" = 1 ]; then
	echo "$dir"
	exit 0
fi
die() {
	if [ "$check" = 1 ]; then
		echo "stock-kdir: skipped, not built for kernel $release: $*; then: dkms autoinstall -k $release" >&2
		exit 77
	fi
	echo "stock-kdir: $*" >&2
	exit 1
}

# 1. The kernel's headers and configuration.
headers=/lib/modules/$release/build
[ -d "$headers" ] || headers=/usr/src/linux-headers-$release
[ -f "$headers/Module.symvers" ] ||
	die "no headers of kernel $release ($headers/Module.symvers): install linux-headers-$release"
config=/boot/config-$release
[ -f "$config" ] || config=$headers/.config
[ -f "$config" ] || die "no configuration of kernel $release (/boot/config-$release, $headers/.config)"
grep -qx 'CONFIG_RUST=y' "$config" ||
	die "kernel $release is not built with Rust (CONFIG_RUST is not set in $config): no Rust module can be loaded into it"
# The upstream version, from the configuration's title.
version=$(sed -n 's/^# Linux\/[^ ]* \([0-9][0-9.]*\)[^ ]* Kernel Configuration$/\1/p' "$config" | head -1)
[ -n "$version" ] || die "cannot read the kernel version from the title of $config"
series=$(echo "$version" | cut -d. -f1-2)
tarball=/usr/src/linux-source-$series.tar.xz
[ -f "$tarball" ] || die "no kernel source $tarball: install linux-source-$series (version $version)"
conf() { sed -n "s/^$1=\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1/p" "$config"; }

# 3. The toolchain that built the kernel.
rustc=${RUSTC:-rustc}
[ -n "${RUSTC:-}" ] || [ ! -x /usr/bin/rustc ] || rustc=/usr/bin/rustc
bindgen=${BINDGEN:-bindgen}
want=$(conf CONFIG_RUSTC_VERSION_TEXT)
have=$("$rustc" --version 2>/dev/null || echo "no $rustc")
[ "$have" = "$want" ] || die "kernel $release was built with '$want', $rustc is '$have': install that rustc (and its rust-src)"
want=$(conf CONFIG_BINDGEN_VERSION_TEXT)
have=$("$bindgen" --version 2>/dev/null | head -1 || echo "no $bindgen")
[ "$have" = "$want" ] || die "kernel $release was built with '$want', $bindgen is '$have': install that bindgen"
kflags=(RUSTC="$rustc" BINDGEN="$bindgen" HOSTRUSTC="${HOSTRUSTC:-$rustc}")
if grep -qx 'CONFIG_CC_IS_CLANG=y' "$config"; then
	major=$(conf CONFIG_CLANG_VERSION | sed 's/....$//')
	if command -v "clang-$major" >/dev/null; then kflags+=("LLVM=-$major"); else kflags+=(LLVM=1); fi
else
	cc=gcc
	[ ! -f "$headers/.kernelvariables" ] ||
		cc=$(make -s -f - <<<"include $headers/.kernelvariables
all: ; @echo \$(CC)" 2>/dev/null | awk '{ print $NF }')
	command -v "${cc:-gcc}" >/dev/null || die "kernel $release was built with $(conf CONFIG_CC_VERSION_TEXT); $cc is missing: install it"
fi
if [ "$check" = 1 ]; then
	echo "stock-kdir: kernel $release has its headers, its source and the toolchain that built it"
	exit 0
fi

# The stamp of the inputs: a tree prepared from the same ones is reused.
RECIPE=1
stamp=$( {
	echo "recipe=$RECIPE release=$release"
	# Contents, not paths: the README's build, DKMS's and the test
	# builds run this script from different copies of the module.
	cat "$0" "$config" "$headers/Module.symvers" | sha256sum
	stat -L -c '%s %Y' "$tarball"
	"$rustc" --version
	"$bindgen" --version
} | sha256sum | cut -c1-16)
if [ "$(cat "$dir/.stock-kdir" 2>/dev/null)" = "$stamp" ] && [ -f "$dir/rust/libkernel.rmeta" ]; then
	echo "stock-kdir: $dir is prepared for kernel $release"
	echo "$dir"
	exit 0
fi

# 2. The source, of the kernel's version.
start=$SECONDS
echo "stock-kdir: preparing $dir for kernel $release from $tarball (a few minutes)"
# In place (Kbuild records paths): an interrupted preparation has no stamp
# and starts over.
new=$dir
rm -rf "$new"
mkdir -p "$new"
tar -C "$new" --strip-components=1 -xf "$tarball"
src=$(make -s -C "$new" kernelversion 2>/dev/null)
[ "$src" = "$version" ] ||
	die "$tarball is Linux $src, kernel $release is $version: install linux-source-$series of version $version"
cp "$config" "$new/.config"
cp "$headers/Module.symvers" "$new/"
[ ! -f "$headers/.kernelvariables" ] || cp "$headers/.kernelvariables" "$new/"
# The release string: Debian's .kernelvariables sets it; elsewhere the
# local version is what the release adds to the version.
if ! grep -qs 'KERNELRELEASE' "$new/.kernelvariables"; then
	echo "${release#"$version"}" >"$new/localversion-stock"
fi

# 4. Configure and prepare.
make -s -C "$new" "${kflags[@]}" olddefconfig
if ! cmp -s <(grep '^CONFIG_' "$config" | sort) <(grep '^CONFIG_' "$new/.config" | sort); then
	diff <(grep '^CONFIG_' "$config" | sort) <(grep '^CONFIG_' "$new/.config" | sort) | head -20 | sed 's/^/stock-kdir:   /' >&2
	die "configuring the source changed kernel $release's configuration (lines above): the toolchain differs from the one that built it"
fi
make -C "$new" "${kflags[@]}" -j"$(nproc)" modules_prepare
# Module.symvers again (modules_prepare may write its own), and the BTF
# base that BTF for modules is generated against.
cp "$headers/Module.symvers" "$new/"
[ ! -f "$headers/vmlinux" ] || cp "$headers/vmlinux" "$new/"

# 5. The release.
got=$(cat "$new/include/config/kernel.release")
[ "$got" = "$release" ] || die "the prepared tree's release is '$got', not '$release'"
echo "$stamp" >"$new/.stock-kdir"
echo "stock-kdir: prepared $dir for kernel $release ($((SECONDS - start)) s)"
echo "$dir"

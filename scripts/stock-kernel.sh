#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds (or reuses) a distribution kernel the module is tested against, as
# a user of that distribution has it, in one of three variants:
#   stock     Debian 13's Rust-enabled kernel: the newest linux-image-amd64
#             of trixie-backports. A Debian 13 root (debootstrap) gets the
#             toolchain that built the kernel through the README's own
#             apt-get lines (with the release the root's `uname -r` gives
#             set to the kernel's), and scripts/stock-kdir.sh prepares the
#             kernel's tree in it; the kernel image and its intel-uncore.ko
#             come from linux-binary-unsigned-R and linux-modules-R, for the
#             guests.
#   stock-rt  the same kernel's rt-amd64 flavour (PREEMPT_RT), in the same
#             root: compiled against, not booted.
#   unstable  Debian unstable's kernel (linux-image-amd64 of sid), with
#             sid's own toolchain, in a sid root: compiled against, not
#             booted.
# Which kernel is newest is read from the archive's package index when the
# variant is built, at most once an hour (and recorded); the --print
# options use the record.
#
# A root is kept in $CACHE_DIR/roots/<suite>-<key>, a variant in
# $CACHE_DIR/kernel/<variant>-<key>; the keys hash every input: the suite,
# the kernel's release and package version, the README's lines, the
# recipes here and in scripts/stock-kdir.sh. Stale ones are removed.
#
# The Debian 13 root also has what `make deb` (scripts/deb.sh) builds and
# checks the Debian package with: build-essential, dpkg-dev, debhelper,
# dh-dkms, lintian.
#
# The archive is the machine's own apt sources' (scripts/env.sh,
# debian_mirrors; DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR override it), and
# so is the apt proxy, if any: a root's apt sources follow them.
#
# Usage: scripts/stock-kernel.sh --variant V [--root-only|--print-dir|--print-tree|--print-root|--print-release]
#   --variant V      stock, stock-rt or unstable
#   --root-only      make (or reuse) the variant's root, not its kernel tree
#   --print-dir      print the variant's directory (its boot/ has the
#                    guest's bzImage, config and intel-uncore.ko)
#   --print-tree     print the prepared kernel tree (on the machine's side)
#   --print-root     print the root
#   --print-release  print the kernel release
#   --help           this text
# Needs root (or sudo), debootstrap and the network to Debian's archive.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

variant=""
print=""
while [ $# -gt 0 ]; do
	case "$1" in
	--variant) variant=${2:-}; shift 2 || { echo "stock-kernel: --variant needs a value" >&2; exit 2; } ;;
	--print-dir|--print-tree|--print-root|--print-release) print=${1#--print-}; shift ;;
	--root-only) print=root-only; shift ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "stock-kernel: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
case "$variant" in
stock) suite=trixie index=trixie-backports flavour=amd64 ;;
stock-rt) suite=trixie index=trixie-backports flavour=rt-amd64 ;;
unstable) suite=sid index=sid flavour=amd64 ;;
*) echo "stock-kernel: unknown variant '$variant' (stock, stock-rt or unstable)" >&2; exit 2 ;;
esac
debian_mirrors
MIRROR=$DEBIAN_MIRROR
# debootstrap, curl and apt in the roots go through the machine's proxy.
if [ -n "$APT_PROXY" ]; then
	export http_proxy=$APT_PROXY
fi
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
# sudo drops the environment: debootstrap's proxy goes through it.
[ ${#sudo[@]} = 0 ] || [ -z "$APT_PROXY" ] || sudo=(sudo env http_proxy="$APT_PROXY")
mkdir -p "$CACHE_DIR/roots" "$CACHE_DIR/kernel"

# resolve: the newest linux-headers-<flavour> of the index names the
# release; records "<release> <version>" for each flavour of the suite.
resolve() {
	local f
	for f in amd64 rt-amd64; do
		curl -fsSL --retry 3 "$MIRROR/dists/$index/main/binary-amd64/Packages.xz" | xz -d |
			awk -v want="linux-headers-$f" '
				/^Package: / { p = $2 } /^Version: / { v = $2 }
				/^Depends: / && p == want {
					if (match($0, /linux-headers-[0-9][^ ,]*/)) print substr($0, RSTART + 14, RLENGTH - 14), v
				}' | sort -V -k2 | tail -1 >"$CACHE_DIR/roots/$index-$f.resolved.tmp"
		[ -s "$CACHE_DIR/roots/$index-$f.resolved.tmp" ] ||
			{ echo "stock-kernel: no linux-headers-$f in $index's package index" >&2; return 1; }
		mv "$CACHE_DIR/roots/$index-$f.resolved.tmp" "$CACHE_DIR/roots/$index-$f.resolved"
	done
}
# The index is read at most once an hour (or when there is no record), so
# that the variants one run builds agree on the kernel.
if [ ! -f "$CACHE_DIR/roots/$index-$flavour.resolved" ] ||
	{ [ -z "$print" ] && [ -z "$(find "$CACHE_DIR/roots/$index-$flavour.resolved" -mmin -60)" ]; }; then
	resolve
fi
read -r release _ <"$CACHE_DIR/roots/$index-$flavour.resolved"
read -r release_amd64 version_amd64 <"$CACHE_DIR/roots/$index-amd64.resolved"
read -r release_rt version_rt <"$CACHE_DIR/roots/$index-rt-amd64.resolved"
if [ "$print" = release ]; then
	echo "$release"
	exit 0
fi

# The README's apt-get lines for Debian 13 (between its stock-build
# markers), which install the toolchain of the stock kernel; unstable
# installs the same packages from sid.
readme_block() {
	sed -n "/^<!-- $1:/,/^<!-- \\/$1 -->/p" "$REPO_DIR/README.md" | sed -n '/^```/,/^```/p' | sed '/^```/d'
}
apt_lines() { readme_block stock-build | sed -e ':a' -e '/\\$/N; s/\\\n//; ta' | grep '^apt-get install'; }
[ -n "$(apt_lines)" ] || { echo "stock-kernel: README.md has no apt-get line between its stock-build markers" >&2; exit 1; }

ROOT_RECIPE=1
root_key=$( {
	echo "suite=$suite recipe=$ROOT_RECIPE $release_amd64 $version_amd64 $release_rt $version_rt"
	apt_lines
	sed -n '/^# ROOT-RECIPE-BEGIN/,/^# ROOT-RECIPE-END/p' "$0"
} | sha256sum | cut -c1-16)
root=$CACHE_DIR/roots/$suite-$root_key
tree_rel=/usr/src/linux-rust-$release
key=$( {
	echo "$root_key $variant"
	cat "$here/stock-kdir.sh"
} | sha256sum | cut -c1-16)
vdir=$CACHE_DIR/kernel/$variant-$key
case "$print" in
dir) echo "$vdir"; exit 0 ;;
tree) echo "$root$tree_rel"; exit 0 ;;
root) echo "$root"; exit 0 ;;
esac

# root_apt: writes the root's apt sources and settings for the archive
# (and proxy) of now; true when they changed.
root_apt() {
	local sources conf
	sources=$(
		if [ "$suite" = trixie ]; then
			echo "deb $MIRROR trixie main"
			echo "deb $MIRROR trixie-updates main"
			echo "deb $DEBIAN_SECURITY_MIRROR trixie-security main"
			echo "deb $MIRROR trixie-backports main"
		else
			echo "deb $MIRROR $suite main"
		fi
	)
	conf=$(
		printf '%s\n' 'APT::Get::Assume-Yes "true";' 'APT::Install-Recommends "false";' 'Acquire::Retries "3";'
		# sid's Release file carries a Valid-Until date, which a mirror that
		# lags can pass: the packages are what was published, so take them.
		[ "$suite" != sid ] || echo 'Acquire::Check-Valid-Until "false";'
		[ -z "$APT_PROXY" ] || echo "Acquire::http::Proxy \"$APT_PROXY\";"
	)
	if [ "$sources" = "$(cat "$root/etc/apt/sources.list" 2>/dev/null)" ] &&
		[ "$conf" = "$(cat "$root/etc/apt/apt.conf.d/90rust-uncore" 2>/dev/null)" ]; then
		return 1
	fi
	printf '%s\n' "$sources" | "${sudo[@]}" tee "$root/etc/apt/sources.list" >/dev/null
	printf '%s\n' "$conf" | "${sudo[@]}" tee "$root/etc/apt/apt.conf.d/90rust-uncore" >/dev/null
}

if [ -f "$root/.complete" ] && root_apt; then
	echo "stock-kernel: the archive or proxy changed: the $suite root's apt sources now name $MIRROR"
	"$here/in-root.sh" "$root" -- apt-get update -q >/dev/null || { echo "stock-kernel: apt-get update in the $suite root failed" >&2; exit 1; }
fi
if [ "$print" = root-only ] && [ -f "$root/.complete" ]; then
	echo "stock-kernel: reusing the $suite root $root"
	exit 0
fi
# A root made again under the same key (after another key's root replaced
# it) has no prepared tree, whatever the variant's directory says.
if [ -f "$vdir/.complete" ] && [ -f "$root/.complete" ] && [ -f "$root$tree_rel/.stock-kdir" ]; then
	echo "stock-kernel: reusing $vdir (kernel $release)"
	exit 0
fi
start=$SECONDS
inroot() { "$here/in-root.sh" "$root" "$@"; }

# ROOT-RECIPE-BEGIN (a change here makes new roots)
if [ ! -f "$root/.complete" ]; then
	echo "stock-kernel: making a Debian $suite root in $root for kernel $release_amd64"
	command -v debootstrap >/dev/null || { echo "stock-kernel: debootstrap is missing: run scripts/install-deps.sh" >&2; exit 1; }
	"${sudo[@]}" rm -rf "$root"
	"${sudo[@]}" debootstrap --variant=minbase --include=ca-certificates,curl "$suite" "$root" "$MIRROR" >"$CACHE_DIR/roots/debootstrap-$suite.log" 2>&1 ||
		{ tail -20 "$CACHE_DIR/roots/debootstrap-$suite.log" >&2; echo "stock-kernel: debootstrap $suite failed" >&2; exit 1; }
	root_apt || true
	# `uname -r` in the root answers with the stock kernel's release, as on
	# a machine running it; the rest of uname is the real one.
	echo "$release_amd64" | "${sudo[@]}" tee "$root/etc/rust-uncore-release" >/dev/null
	printf '%s\n' '#!/bin/sh' 'if [ "$*" = -r ]; then cat /etc/rust-uncore-release; else exec /usr/bin/uname "$@"; fi' |
		"${sudo[@]}" tee "$root/usr/local/bin/uname" >/dev/null
	"${sudo[@]}" chmod +x "$root/usr/local/bin/uname"
	# The compiler comes with the headers (gcc-N-for-host); sid gets the
	# same packages, of its own.
	lines=$(apt_lines)
	packaging=""
	[ "$suite" != trixie ] || packaging="build-essential dpkg-dev debhelper dh-dkms lintian"
	inroot -- /bin/sh -c "apt-get update -q && $(printf '%s\n' "$lines" | paste -sd'&' | sed 's/&/ \&\& /g') && apt-get install linux-headers-$release_rt dkms openssl rust-clippy $packaging" \
		>"$CACHE_DIR/roots/apt-$suite.log" 2>&1 ||
		{ tail -30 "$CACHE_DIR/roots/apt-$suite.log" >&2; echo "stock-kernel: installing the toolchain in the $suite root failed" >&2; exit 1; }
	"${sudo[@]}" touch "$root/.complete"
	for old in "$CACHE_DIR/roots/$suite"-*; do
		case "${old##*/}" in "$suite"-????????????????) ;; *) continue ;; esac
		[ "$old" = "$root" ] || "${sudo[@]}" rm -rf "$old"
	done
fi
# ROOT-RECIPE-END
[ "$print" != root-only ] || { echo "stock-kernel: the $suite root: $root"; exit 0; }

echo "stock-kernel: preparing the tree of kernel $release in the $suite root"
inroot --bind "$here:/mnt/rust-uncore-scripts" -- /mnt/rust-uncore-scripts/stock-kdir.sh --release "$release" |
	grep '^stock-kdir:' || { echo "stock-kernel: preparing kernel $release's tree failed" >&2; exit 1; }

"${sudo[@]}" rm -rf "$vdir"
mkdir -p "$vdir/boot"
if [ "$variant" = stock ]; then
	echo "stock-kernel: fetching kernel $release and its modules"
	debs=$vdir/debs
	mkdir -p "$debs"
	inroot --bind "$debs:/mnt/debs" --cwd /mnt/debs -- apt-get download -q -o APT::Sandbox::User=root \
		"linux-binary-unsigned-$release" "linux-modules-$release" >/dev/null
	x=$(mktemp -d)
	for d in "$debs"/*.deb; do dpkg-deb -x "$d" "$x"; done
	mods=$x/usr/lib/modules/$release
	[ -d "$mods" ] || mods=$x/lib/modules/$release
	vmlinuz=$(ls "$mods"/vmlinuz* "$x"/boot/vmlinuz-"$release" 2>/dev/null | head -1 || true)
	[ -n "$vmlinuz" ] || { echo "stock-kernel: no kernel image in linux-binary-unsigned-$release" >&2; exit 1; }
	cp "$vmlinuz" "$vdir/boot/bzImage"
	xz -dc "$mods/kernel/arch/x86/events/intel/intel-uncore.ko.xz" >"$vdir/boot/intel-uncore.ko"
	cp "$root/usr/src/linux-headers-$release/.config" "$vdir/boot/config"
	rm -rf "$x" "$debs"
fi
echo "$release" >"$vdir/release"
touch "$vdir/.complete"
prune_variant "$variant" "$vdir"
echo "stock-kernel: done: $vdir (kernel $release, $((SECONDS - start)) s)"

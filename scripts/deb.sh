#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds the Debian package rust-uncore-dkms (debian/), architecture-
# independent, as `dpkg-buildpackage -us -uc -b` does in a Debian 13 root:
# the root of scripts/stock-kernel.sh (made when missing; its dpkg-dev,
# debhelper, dh-dkms and lintian build and check the package, none of the
# machine's own tools), from the files a clone of the repository has. Then
# lintian checks the .deb and the .changes, pedantic tags included: an
# error, a warning or a pedantic tag that debian/*lintian-overrides does
# not override fails the build. The
# package, the .changes, the .buildinfo and lintian's report
# (lintian.txt) go to DIR, and the .deb's path is printed on the last line.
#
# Usage: scripts/deb.sh [--out DIR]
#   --out DIR   where the results go (default: build/deb in the repository)
#   --help      this text
# Needs root (or sudo), debootstrap, curl and xz and, for a new root, the
# network to Debian's archive.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

out=$REPO_DIR/build/deb
while [ $# -gt 0 ]; do
	case "$1" in
	--out) [ $# -ge 2 ] || { echo "deb: --out needs a directory (see --help)" >&2; exit 2; }; out=$2; shift 2 ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "deb: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
missing=""
for t in debootstrap curl xz; do
	command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || missing="$missing $t"
done
[ -z "$missing" ] || { echo "deb: missing:$missing (apt-get install debootstrap curl xz-utils)" >&2; exit 1; }
version=$(sed -n '1s/^rust-uncore (\([^)]*\)).*/\1/p' "$REPO_DIR/debian/changelog")
[ -n "$version" ] || { echo "deb: debian/changelog does not start with a rust-uncore entry" >&2; exit 1; }
# The source route's dkms.conf and the package's (debian/*.dkms, whose
# version dh_dkms sets) differ only in PACKAGE_VERSION, which is the
# changelog's in both.
dkms_version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$REPO_DIR/dkms.conf")
[ "$dkms_version" = "$version" ] ||
	{ echo "deb: dkms.conf's PACKAGE_VERSION ($dkms_version) is not debian/changelog's version ($version)" >&2; exit 1; }
dkms_lines() { grep -v '^#' "$1" | sed 's/^PACKAGE_VERSION=.*/PACKAGE_VERSION=/'; }
if ! diff <(dkms_lines "$REPO_DIR/dkms.conf") <(dkms_lines "$REPO_DIR/debian/rust-uncore-dkms.dkms") >&2; then
	echo "deb: dkms.conf and debian/rust-uncore-dkms.dkms differ (lines above) in more than PACKAGE_VERSION" >&2
	exit 1
fi
grep -qx 'PACKAGE_VERSION="#MODULE_VERSION#"' "$REPO_DIR/debian/rust-uncore-dkms.dkms" ||
	{ echo "deb: debian/rust-uncore-dkms.dkms's PACKAGE_VERSION is not #MODULE_VERSION#" >&2; exit 1; }

"$here/stock-kernel.sh" --variant stock --root-only >&2
root=$("$here/stock-kernel.sh" --variant stock --print-root)
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
work=$(mktemp -d)
# The root's tools write as root.
trap '"${sudo[@]}" rm -rf "$work"' EXIT
"$here/clone-files.sh" "$work/rust-uncore-$version"
inroot() { "$here/in-root.sh" "$root" --bind "$work:/mnt/work" --cwd "$1" -- "${@:2}"; }

start=$SECONDS
if ! inroot "/mnt/work/rust-uncore-$version" dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1; then
	tail -30 "$work/build.log" >&2
	echo "deb: dpkg-buildpackage failed" >&2
	exit 1
fi
deb=rust-uncore-dkms_${version}_all.deb
changes=$(cd "$work" && ls rust-uncore_"$version"_*.changes 2>/dev/null | head -1 || true)
[ -f "$work/$deb" ] && [ -n "$changes" ] || { echo "deb: dpkg-buildpackage made no $deb or .changes" >&2; exit 1; }
echo "deb: built $deb in $((SECONDS - start)) s ($(stat -c %s "$work/$deb") bytes; installed:" \
	"$(inroot /mnt/work dpkg-deb -f "$deb" Installed-Size) KiB)" >&2

# lintian (as nobody: it advises against root), with the tags it shows by
# default, its informational and its pedantic ones; the overrides it
# applied are counted.
rc=0
"${sudo[@]}" chmod -R a+rX "$work"
inroot /mnt/work setpriv --reuid=nobody --regid=nogroup --clear-groups env HOME=/tmp \
	lintian --info --display-info --pedantic --show-overrides --fail-on error,warning,pedantic "$deb" "$changes" >"$work/lintian.txt" 2>&1 || rc=$?
mkdir -p "$out"
rm -f "$out"/rust-uncore*
cp "$work/$deb" "$work/$changes" "$work"/rust-uncore_"$version"_*.buildinfo "$work/lintian.txt" "$out/"
sed 's/^/deb: lintian: /' "$work/lintian.txt" >&2
if [ "$rc" != 0 ]; then
	echo "deb: lintian found errors or warnings (exit status $rc): $out/lintian.txt" >&2
	exit 1
fi
echo "deb: lintian: no error or warning ($(grep -c '^O: ' "$work/lintian.txt" || true) overridden)" >&2
echo "$out/$deb"

# SPDX-License-Identifier: GPL-2.0
#
# Common settings for the build and test scripts; sourced, not run.
# Every tool is named by absolute path so that a rustup toolchain earlier on
# PATH never mixes with Debian's rustc-web, which built the test kernel.

REPO_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE_DIR=${UNCORE_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rust-uncore}
TOOLS_DIR=$CACHE_DIR/tools
BINDGEN_VERSION=0.70.1
BINDGEN=$TOOLS_DIR/bin/bindgen
KERNEL_SRC_TARBALL=/usr/src/linux-source-6.12.tar.xz

export RUSTC=/usr/bin/rustc
export HOSTRUSTC=/usr/bin/rustc
export RUSTDOC=/usr/bin/rustdoc
export CLIPPY_DRIVER=/usr/bin/clippy-driver
# Debian's cargo-web, which goes with rustc-web. cargo builds with RUSTC
# (above); cargo-clippy runs the cargo named by CARGO.
export CARGO=/usr/bin/cargo
# A bare `cargo` in the scripts is this one, never a rustup proxy on PATH.
cargo() { "$CARGO" "$@"; }
# The host lint runs the same clippy; cargo honours RUSTC, so a rustup
# cargo-clippy here would mix two compilers in one target directory.
CARGO_CLIPPY=/usr/bin/cargo-clippy
RUSTFMT=/usr/bin/rustfmt
export LIBCLANG_PATH=/usr/lib/llvm-19/lib
export BINDGEN

# Make flags shared by the kernel build and the module build.
KMAKE_FLAGS=(LLVM=-19 "RUSTC=$RUSTC" "HOSTRUSTC=$HOSTRUSTC" "RUSTDOC=$RUSTDOC"
	"BINDGEN=$BINDGEN" "CLIPPY_DRIVER=$CLIPPY_DRIVER")

# The distro kernel variants (scripts/build-kernel.sh --variant distro or
# distro-rt) are configured with Debian's own configurations, amd64 and
# rt-amd64 (PREEMPT_RT), taken from the linux-headers package of (or nearest
# to) the linux-source-6.12 version. The packages are only downloaded
# (scripts/install-deps.sh), into DEBS_DIR.
DEBS_DIR=$CACHE_DIR/debs

# distro_headers [FLAVOUR]: sets DISTRO_PKG, DISTRO_VERSION and DISTRO_DEB
# (the .deb in DEBS_DIR) of Debian's FLAVOUR (amd64, the default, or
# rt-amd64). Uses apt's package lists, else what was downloaded before.
distro_headers() {
	local flavour=${1:-amd64} src up names deb
	src=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
	up=${src%%-*}
	DISTRO_PKG="" DISTRO_VERSION="" DISTRO_DEB=""
	names=$(apt-cache pkgnames linux-headers-6.12. 2>/dev/null |
		grep -E "^linux-headers-6\.12\.[0-9]+\+deb[0-9]+-$flavour\$" || true)
	if [ -n "$names" ]; then
		# The same upstream patch level, else the nearest (the newer on a tie).
		DISTRO_PKG=$(printf '%s\n' "$names" | awk -v up="${up##*.}" -F'[.+]' '
			BEGIN { if (up == "") up = 1e9 }
			{ d = $3 - up; if (d < 0) d = -d }
			best == "" || d < bd || (d == bd && $3 > bp) { best = $0; bd = d; bp = $3 }
			END { print best }')
		# The linux-source version itself if apt has it, else the candidate.
		if apt-cache madison "$DISTRO_PKG" 2>/dev/null | awk -F' *[|] *' '{ print $2 }' | grep -qxF "$src"; then
			DISTRO_VERSION=$src
		else
			DISTRO_VERSION=$(apt-cache policy "$DISTRO_PKG" 2>/dev/null | sed -n 's/^ *Candidate: //p')
		fi
		[ -n "$DISTRO_VERSION" ] || return 1
		DISTRO_DEB=$DEBS_DIR/${DISTRO_PKG}_${DISTRO_VERSION//:/%3a}_amd64.deb
		return 0
	fi
	# No package lists (apt-get update never ran): the newest download.
	deb=$(ls "$DEBS_DIR"/linux-headers-6.12.*[0-9]-"$flavour"_*.deb 2>/dev/null | sort -V | tail -1 || true)
	[ -n "$deb" ] || return 1
	DISTRO_PKG=$(dpkg-deb -f "$deb" Package)
	DISTRO_VERSION=$(dpkg-deb -f "$deb" Version)
	DISTRO_DEB=$deb
}

# debian_mirrors: sets DEBIAN_MIRROR and DEBIAN_SECURITY_MIRROR, the Debian
# archive and its security archive the scripts fetch from (debootstrap,
# the roots' apt sources, the package index), and APT_PROXY, the machine's
# apt HTTP proxy if it has one. They are the machine's own apt sources' (a
# local mirror or proxy keeps working; on a machine that is not Debian,
# Debian's own addresses); the same names in the environment override them.
debian_mirrors() {
	local targets="" suites="buster|bullseye|bookworm|trixie|forky|duke|sid|oldoldstable|oldstable|stable|testing|unstable"
	# "SUITE URI" of each source apt would update from (an HTTP or HTTPS
	# one: debootstrap takes no other), in the order of its sources; only
	# Debian's suites count (not another vendor's source of the machine),
	# and a URI ending in the archive's usual name (.../debian) first.
	pick() {
		printf '%s\n' "$targets" | awk -v s="^($1)\$" -v tail="/$2/?\$" '
			$1 ~ s && $2 ~ tail { print $2; found = 1; exit }
			$1 ~ s && first == "" { first = $2 }
			END { if (!found && first != "") print first }'
	}
	if grep -qsx 'ID=debian' /etc/os-release && command -v apt-get >/dev/null; then
		targets=$(apt-get --print-uris update 2>/dev/null |
			sed -n "s|^'\(https\{0,1\}://[^']*\)/dists/\([^/']*\)/InRelease'.*|\2 \1|p" || true)
	fi
	if [ -z "${DEBIAN_MIRROR:-}" ]; then
		DEBIAN_MIRROR=$(pick "$suites" debian)
		DEBIAN_MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
	fi
	if [ -z "${DEBIAN_SECURITY_MIRROR:-}" ]; then
		DEBIAN_SECURITY_MIRROR=$(pick "($suites)-security" debian-security)
		DEBIAN_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
	fi
	DEBIAN_MIRROR=${DEBIAN_MIRROR%/}
	DEBIAN_SECURITY_MIRROR=${DEBIAN_SECURITY_MIRROR%/}
	if [ -z "${APT_PROXY+set}" ]; then
		APT_PROXY=""
		if command -v apt-config >/dev/null; then
			eval "$(apt-config shell APT_PROXY Acquire::http::Proxy)"
		fi
	fi
	[ "$APT_PROXY" != DIRECT ] || APT_PROXY=""
}

# opt_value SCRIPT OPTION ARGS...: OPTION's value (its next argument, the
# first of ARGS), or a stop that names SCRIPT.
opt_value() {
	[ $# -ge 3 ] || { echo "$1: $2 needs a value (see --help)" >&2; exit 2; }
	printf '%s' "$3"
}

# prune_variant VARIANT KEEP: removes the cached kernels of VARIANT other
# than KEEP (a <variant>-<key> directory): older keys are stale.
prune_variant() {
	for old in "$CACHE_DIR/kernel/$1"-*; do
		# distro-* also matches distro-rt-<key>: only <variant>-<key> is ours.
		case "${old##*/}" in "$1"-????????????????) ;; *) continue ;; esac
		[ "$old" = "$2" ] || rm -rf "$old"
	done
}

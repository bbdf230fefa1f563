#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian archive the scripts fetch from (scripts/env.sh,
# debian_mirrors): the machine's own apt sources' (one-line and deb822
# files), its apt proxy, Debian's addresses when it has no source of its
# own, and DEBIAN_MIRROR, DEBIAN_SECURITY_MIRROR and APT_PROXY in the
# environment over all of these; and no script names an archive of its
# own. Each case runs apt with a configuration of its own (APT_CONFIG).
# TAP.
#
# Usage: tests/host/mirrors.sh
set -uo pipefail
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# mirrors CASE [VAR=VALUE...]: prints "MIRROR SECURITY PROXY" as
# debian_mirrors sets them with apt's sources in $tmp/CASE.
mirrors() {
	local c=$tmp/$1
	shift
	mkdir -p "$c/parts" "$c/conf.d" "$c/lists/partial"
	touch "$c/sources.list"
	{
		printf 'Dir::Etc::sourcelist "%s/sources.list";\n' "$c"
		printf 'Dir::Etc::sourceparts "%s/parts";\n' "$c"
		printf 'Dir::State::lists "%s/lists";\n' "$c"
		# Not the machine's own settings (a proxy there would win).
		printf 'Dir::Etc::main "/dev/null";\n'
		printf 'Dir::Etc::parts "%s/conf.d";\n' "$c"
		[ ! -f "$c/proxy" ] || printf 'Acquire::http::Proxy "%s";\n' "$(cat "$c/proxy")"
	} >"$c/apt.conf"
	env -u DEBIAN_MIRROR -u DEBIAN_SECURITY_MIRROR -u APT_PROXY APT_CONFIG="$c/apt.conf" "$@" bash -c '
		. "$1/scripts/env.sh"
		debian_mirrors
		echo "$DEBIAN_MIRROR $DEBIAN_SECURITY_MIRROR ${APT_PROXY:--}"' mirrors "$repo"
}
expect() {
	if [ "$2" = "$3" ]; then ok "$1"; else notok "$1"; echo "#   got '$2', want '$3'"; fi
}

mkdir -p "$tmp/list"
printf '%s\n' 'deb http://mirror.example/debian/ bookworm main' \
	'deb http://mirror.example/debian bookworm-updates main' \
	'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://security.example/debian-security bookworm-security main' \
	>"$tmp/list/sources.list"
echo "http://proxy.example:3142" >"$tmp/list/proxy"
expect "one-line sources: the archive, its security archive and the proxy" \
	"$(mirrors list)" "http://mirror.example/debian http://security.example/debian-security http://proxy.example:3142"

mkdir -p "$tmp/vendor/parts"
printf '%s\n' 'deb https://vendor.example/apt bookworm main' 'deb http://nodes.example/node nodistro main' \
	'deb http://mirror.example/debian bookworm main' >"$tmp/vendor/parts/0vendor.list"
expect "another vendor's sources before Debian's: Debian's archive" \
	"$(mirrors vendor)" "http://mirror.example/debian http://deb.debian.org/debian-security -"

mkdir -p "$tmp/deb822/parts"
printf '%s\n' 'Types: deb' 'URIs: https://local.example/debian' 'Suites: bookworm bookworm-updates' 'Components: main' '' \
	'Types: deb' 'URIs: https://local.example/debian-security' 'Suites: bookworm-security' 'Components: main' \
	>"$tmp/deb822/parts/debian.sources"
expect "deb822 sources, no proxy" \
	"$(mirrors deb822)" "https://local.example/debian https://local.example/debian-security -"

expect "no source of the machine's own: Debian's addresses" \
	"$(mirrors none)" "http://deb.debian.org/debian http://deb.debian.org/debian-security -"

expect "DEBIAN_MIRROR, DEBIAN_SECURITY_MIRROR and APT_PROXY override the machine's" \
	"$(mirrors list DEBIAN_MIRROR=http://other.example/debian/ DEBIAN_SECURITY_MIRROR=http://other.example/sec APT_PROXY=)" \
	"http://other.example/debian http://other.example/sec -"

# Only env.sh's defaults name an archive.
named=$(cd "$repo" && grep -rlE 'https?://[a-z.]*debian\.(org|net)/debian' scripts tests Makefile | grep -vxE 'scripts/env.sh|tests/host/mirrors.sh' || true)
expect "no other script names a Debian archive" "${named:-none}" none
echo "1..$tap_n"
exit "$failed"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The layers: only the registries (src/hw/platforms/, src/hw/catalog/) name
# a platform. The generic core (the rest of src/hw/, the register model
# included), the engine and the abstraction layer name none: no
# PlatformId constant, no platform's module. Each platform's model rules
# are in its own model.rs. Unit tests (from a file's first #[cfg(test)])
# and comments are not looked at. TAP.
#
# Usage: tests/host/layers.sh
set -uo pipefail
. "$(dirname "$0")/tap.sh"
cd "$repo" || exit 1

names='nhmex|snbep|ivbep|hsx|bdx|bdxde|skl|l3'
pat="PlatformId::[A-Z]|(platforms|catalog)::($names)\\b"
# code FILE: the file's lines before its unit tests, without comments.
code() {
	awk '/^[[:space:]]*#\[cfg\(test\)\]/ { exit } { print FILENAME ":" FNR ":" $0 }' "$1" |
		grep -vE '^[^:]+:[0-9]+:[[:space:]]*//'
}
# layer NAME DIR...: no file of the DIRs outside the registries names a
# platform.
layer() {
	local name=$1 hits f
	shift
	hits=$(find "$@" -name '*.rs' ! -path 'src/hw/platforms/*' ! -path 'src/hw/catalog/*' \
		! -name 'tests.rs' ! -name '*_tests.rs' | sort | while read -r f; do
		code "$f" | grep -E "$pat"
	done)
	if [ -z "$hits" ]; then
		ok "$name names no platform"
	else
		notok "$name names no platform"
		printf '%s\n' "$hits" | head -5 | sed 's/^/#   /'
	fi
}
layer "the generic core (src/hw/ outside the registries)" src/hw
layer "the register model (src/hw/model/)" src/hw/model
layer "the engine (src/engine/)" src/engine
layer "the abstraction layer (rust/)" rust
# Each platform's model rules are its own file (Broadwell-DE's are
# Broadwell-EP's).
for p in nhmex snbep ivbep hsx bdx skl l3; do
	if grep -q 'sim: model::' "src/hw/platforms/$p.rs" && [ -f "src/hw/platforms/$p/model.rs" ]; then
		ok "$p's model rules are in src/hw/platforms/$p/model.rs"
	else
		notok "$p's model rules are in src/hw/platforms/$p/model.rs"
	fi
done
echo "1..$tap_n"
exit "$failed"

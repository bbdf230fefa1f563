#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-style entry point of the rust_uncore selftests: builds the
# helper programs next to this script when a C compiler is there (else uses
# them as they are), then runs uncore_test.sh (TAP). Run as root on the
# machine to check, with rust_uncore loaded.
#
# Usage: run_tests.sh
here=$(cd "$(dirname "$0")" && pwd)
if command -v "${CC:-cc}" >/dev/null 2>&1; then
	for t in memcpy_bw llc_thrash; do
		[ "$here/$t" -nt "$here/$t.c" ] || "${CC:-cc}" -O2 -Wall -o "$here/$t" "$here/$t.c" || exit 1
	done
	a=$here/../../tools/alias_check.c
	[ "$here/alias_check" -nt "$a" ] || "${CC:-cc}" -O2 -Wall -o "$here/alias_check" "$a" || exit 1
fi
TOOLS=${TOOLS:-$here} exec sh "$here/uncore_test.sh"

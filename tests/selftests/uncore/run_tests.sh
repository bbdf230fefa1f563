#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# kselftest-style entry point of the rust_uncore selftests: builds the
# helper programs (uncore_load, alias_check) with the C compiler in a
# temporary directory (unless `make` built them next to this script), so
# that it writes nothing next to itself (the Debian package's copy in
# /usr/share/rust-uncore/selftests stays as dpkg installed it), then runs
# uncore_test.sh (TAP and a summary table). Run as root on the machine to
# check, with rust_uncore loaded:
#
#   sudo ./run_tests.sh --report uncore-report.txt
#
# and attach uncore-report.txt to a report on the project's issue tracker.
#
# Usage: run_tests.sh [--report FILE] [--ab] [--help]   (uncore_test.sh's
# options; TOOLS=DIR uses the helpers built in DIR instead)
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-}" in -h | --help) exec sh "$here/uncore_test.sh" --help ;; esac
a=$here/alias_check.c
[ -f "$a" ] || a=$here/../../tools/alias_check.c
# built DIR: whether DIR has both helpers, each newer than its source.
built() { [ "$1/uncore_load" -nt "$here/uncore_load.c" ] && [ "$1/alias_check" -nt "$a" ]; }
if [ -z "${TOOLS:-}" ] && built "$here"; then
	TOOLS=$here
elif [ -z "${TOOLS:-}" ]; then
	TOOLS=$(mktemp -d) || exit 1
	trap 'rm -rf "$TOOLS"' EXIT
	if command -v "${CC:-cc}" >/dev/null 2>&1; then
		for t in "$here/uncore_load.c" "$a"; do
			"${CC:-cc}" -O2 -Wall -o "$TOOLS/$(basename "$t" .c)" "$t" || exit 1
		done
	else
		echo "# run_tests: no C compiler (${CC:-cc}): the checks that need uncore_load and alias_check fail" >&2
	fi
fi
export TOOLS
sh "$here/uncore_test.sh" "$@"

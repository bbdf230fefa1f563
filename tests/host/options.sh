#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The scripts' command lines: --help prints the usage (the script's header
# comment, nothing else) and exits 0; an unknown option, a missing value
# or a misspelled guest test stops at once with status 2 and a message
# naming it, before any set-up, build or boot (each call has a 30 s
# limit, far below what any of those takes).
# Usage: tests/host/options.sh   (TAP output; exit status 1 on a failure)
set -u
. "$(dirname "$0")/tap.sh"
cd "$repo"
# helps NAME SCRIPT [PATTERN]: --help exits 0, prints lines that are all in
# the script's header comment, among them the Usage line (and PATTERN).
helps() {
	local name=$1 script=$2 pat=${3:-}
	run "$script" --help
	local header bad
	header=$(awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$script")
	bad=$(printf '%s\n' "$out" | grep -vxF -- "$header" | grep -v '^$' || true)
	if [ "$rc" = 0 ] && [ -z "$bad" ] && printf '%s\n' "$out" | grep -q '^Usage: ' &&
		{ [ -z "$pat" ] || printf '%s\n' "$out" | grep -qE -- "$pat"; }; then
		ok "$name"
	else
		notok "$name"
		echo "# exit status $rc; lines not in the header: ${bad:-none}"
	fi
}

helps "check.sh --help" scripts/check.sh "GUEST_TEST"
refused "check.sh: an unknown option stops at once" "unknown option '--bogus'" scripts/check.sh --bogus
refused "check.sh: a misspelled guest test stops at once" "no such guest test: tests/guest/03-cuont.sh" \
	scripts/check.sh --guest-only tests/guest/03-cuont.sh
refused "check.sh: a stray word stops at once" "no such guest test: help" scripts/check.sh help
refused "check.sh: a file that is not a guest test stops at once" "tests/guest/lib.sh is not a guest test" \
	scripts/check.sh tests/guest/lib.sh
refused "check.sh: --repeat without a number stops at once" "--repeat needs a positive number, not 'x'" \
	scripts/check.sh --guest-only --repeat x tests/guest/08-pmi.sh
refused "check.sh: --repeat 0 stops at once" "--repeat needs a positive number, not '0'" \
	scripts/check.sh --guest-only --repeat 0 tests/guest/08-pmi.sh
refused "check.sh: --match without its value stops at once" "--match needs a value" \
	scripts/check.sh --guest-only --match
refused "check.sh: a --match no guest line has stops at once" "no '# guest:' line of the tests has every word of: kernel=bogus" \
	scripts/check.sh --guest-only --match kernel=bogus tests/guest/08-pmi.sh
refused "make repeat: no TEST stops at once" "TEST=tests/guest/<test>.sh is required" make -s repeat

helps "guest.sh --help" scripts/guest.sh "UNCORE_CACHE_DIR"
run scripts/guest.sh --help
if printf '%s\n' "$out" | grep -q 'make test-kernel'; then ok "guest.sh --help names make test-kernel"; else notok "guest.sh --help names make test-kernel"; fi
refused "guest.sh: an unknown option" "unknown option '--bogus'" scripts/guest.sh --bogus
refused "guest.sh: an option without its value" "--cpu needs a value" scripts/guest.sh --script tests/demo.sh --cpu
refused "guest.sh: no script" "--script FILE is required" scripts/guest.sh
refused "guest.sh: a missing script" "no such script: /nonexistent/x.sh" scripts/guest.sh --script /nonexistent/x.sh
refused "guest.sh: a kernel that is not booted" "only compiled against" scripts/guest.sh --kernel distro --script tests/demo.sh
refused "guest.sh: an unknown kernel" "unknown kernel 'bogus'" scripts/guest.sh --kernel bogus --script tests/demo.sh

helps "build-kernel.sh --help" scripts/build-kernel.sh "--variant"
refused "build-kernel.sh: an unknown option" "unknown option --bogus" scripts/build-kernel.sh --bogus
refused "build-kernel.sh: --variant without its value" "--variant needs a value" scripts/build-kernel.sh --variant
refused "build-kernel.sh: an unknown variant" "unknown variant 'bogus'" scripts/build-kernel.sh --variant bogus

helps "install-deps.sh --help" scripts/install-deps.sh "needs root"
refused "install-deps.sh: an unknown argument" "unknown argument '--bogus'" scripts/install-deps.sh --bogus

helps "build-module.sh --help" scripts/build-module.sh
refused "build-module.sh: an unknown variant" "usage: .*debug\|nodebug" scripts/build-module.sh bogus

helps "deb.sh --help" scripts/deb.sh "lintian"
refused "deb.sh: an unknown option" "unknown option '--bogus'" scripts/deb.sh --bogus
refused "deb.sh: --out without its value" "--out needs a directory" scripts/deb.sh --out
helps "clone-files.sh --help" scripts/clone-files.sh "DIR"

helps "stock-kernel.sh --help" scripts/stock-kernel.sh "--variant V"
refused "stock-kernel.sh: an unknown variant" "unknown variant 'bogus'" scripts/stock-kernel.sh --variant bogus
refused "stock-kernel.sh: an unknown option" "unknown option --bogus" scripts/stock-kernel.sh --bogus

helps "stock-kdir.sh --help" scripts/stock-kdir.sh "--release R"
refused "stock-kdir.sh: an unknown option" "unknown option '--bogus'" scripts/stock-kdir.sh --bogus
refused "stock-kdir.sh: --release without its value" "--release needs a value" scripts/stock-kdir.sh --release
run scripts/stock-kdir.sh --release 0.0.0-none --dir /nonexistent/tree
if [ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q 'install linux-headers-0.0.0-none'; then
	ok "stock-kdir.sh: a kernel without headers names the package to install"
else
	notok "stock-kdir.sh: a kernel without headers names the package to install"
	printf '%s\n' "$out" | head -3 | sed 's/^/#   /'
fi

helps "in-root.sh --help" scripts/in-root.sh "--bind DIR:PATH"
refused "in-root.sh: a missing root" "no such root: /nonexistent/root" scripts/in-root.sh /nonexistent/root -- true

helps "demo.sh --help" scripts/demo.sh "--sim"
refused "demo.sh: an unknown option" "unknown option '--bogus'" scripts/demo.sh --bogus
refused "demo.sh: an option without its value" "--sim needs a value" scripts/demo.sh --sim

echo "1..$tap_n"
exit $failed

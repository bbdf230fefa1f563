# SPDX-License-Identifier: GPL-2.0
#
# TAP helpers of the host shell tests; sourced, not run. Sets repo (the
# repository) and failed (1 after a failing check).

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tap_n=0
failed=0
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n $1"; }
notok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n $1"; failed=1; }

# run CMD...: sets out (stdout and stderr) and rc; a 30 s limit.
run() {
	out=$(timeout 30 "$@" 2>&1 </dev/null)
	rc=$?
}

# refused NAME PATTERN CMD...: exit status 2 and a message matching
# PATTERN (an extended regex).
refused() {
	local name=$1 pat=$2
	shift 2
	run "$@"
	if [ "$rc" = 2 ] && printf '%s\n' "$out" | grep -qE -- "$pat"; then
		ok "$name"
	else
		notok "$name"
		echo "# exit status $rc, output:"
		printf '%s\n' "$out" | head -5 | sed 's/^/#   /'
	fi
}

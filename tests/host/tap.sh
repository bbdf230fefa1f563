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

# stock_root: sets root and release, the Debian 13 root of
# scripts/stock-kernel.sh and the stock kernel's release; without the root,
# one failing result and exit.
stock_root() {
	root=$("$repo/scripts/stock-kernel.sh" --variant stock --print-root)
	release=$("$repo/scripts/stock-kernel.sh" --variant stock --print-release)
	if [ ! -f "$root/.complete" ]; then
		echo "not ok 1 the Debian 13 root exists ($root; scripts/build-kernel.sh --variant stock)"
		echo "1..1"
		exit 1
	fi
}

# readme_block NAME: the commands of README.md's fenced block after
# <!-- NAME: ... -->.
readme_block() {
	sed -n "/^<!-- $1:/,/^<!-- \\/$1 -->/p" "$repo/README.md" | sed -n '/^```/,/^```/p' | sed '/^```/d'
}

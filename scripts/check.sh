#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test: installs what is missing, builds (or reuses) the test
# kernel, runs the host tests (cargo test), builds the module against the
# test kernel with clippy, builds the guest tools, and runs each guest test
# in every configuration its `# guest:` lines name. Ends with one line
# "N passed, N failed" (", N skipped" if any); exits non-zero on failure.
#
# Usage: scripts/check.sh [--host-only] [--guest-only] [GUEST_TEST...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$REPO_DIR"

host=1
guest=1
only=()
for a in "$@"; do
	case "$a" in
	--host-only) guest=0 ;;
	--guest-only) host=0 ;;
	*) only+=("$a") ;;
	esac
done

passed=0
failed=0
skipped=0
failures=()
note() { printf '== %s\n' "$*"; }
pass() { passed=$((passed + $1)); }
fail() { failed=$((failed + 1)); failures+=("$1"); }

note "setup"
"$here/install-deps.sh" >/tmp/rust-uncore-deps.log 2>&1 || { cat /tmp/rust-uncore-deps.log; echo "0 passed, 1 failed"; exit 1; }
"$here/build-kernel.sh" >/tmp/rust-uncore-kernel.log 2>&1 || { tail -50 /tmp/rust-uncore-kernel.log; echo "0 passed, 1 failed"; exit 1; }
kdir=$("$here/build-kernel.sh" --print-dir)/linux-source-6.12

if [ "$host" = 1 ]; then
	note "host tests (cargo test)"
	out=$(cargo test --color never 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^test result|FAILED|panicked' || true
	p=$(printf '%s\n' "$out" | sed -n 's/^test result: .* \([0-9]*\) passed; \([0-9]*\) failed.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
	f=$(printf '%s\n' "$out" | sed -n 's/^test result: .* \([0-9]*\) passed; \([0-9]*\) failed.*/\2/p' | awk '{ s += $1 } END { print s + 0 }')
	pass "$p"
	for _ in $(seq 1 "$f"); do fail "cargo test"; done
	if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
		printf '%s\n' "$out" | tail -30
		fail "cargo test (build)"
	fi
fi

note "module build (CLIPPY=1) against the test kernel"
if make -s KDIR="$kdir" CLIPPY=1 >/tmp/rust-uncore-build.log 2>&1 && [ -f rust_uncore.ko ]; then
	pass 1
	note "module aliases"
	out=$(tests/host/modinfo.sh rust_uncore.ko)
	printf '%s\n' "$out" | sed 's/^/   /'
	pass "$(printf '%s\n' "$out" | grep -c '^ok ')"
	while IFS= read -r l; do fail "modinfo: $l"; done < <(printf '%s\n' "$out" | grep '^not ok')
else
	cat /tmp/rust-uncore-build.log
	fail "module build"
	guest=0
fi

if [ "$guest" = 1 ]; then
	note "guest tools"
	mkdir -p "$CACHE_DIR/guest-tools"
	if gcc -static -O2 -Wall -Werror -o "$CACHE_DIR/guest-tools/perf_open" tests/tools/perf_open.c; then
		pass 1
	else
		fail "guest tools"
	fi
	tests=("${only[@]}")
	[ ${#tests[@]} -gt 0 ] || tests=(tests/guest/[0-9]*.sh)
	for t in "${tests[@]}"; do
		grep '^# guest:' "$t" | sed 's/^# guest: *//' | while IFS= read -r conf; do
			echo "$conf"
		done >/tmp/rust-uncore-confs
		while IFS= read -r conf; do
			args=()
			cpu= smp= modargs=
			for w in $conf; do
				case "$w" in
				cpu=*) args+=(--cpu "${w#cpu=}") ;;
				smp=*) args+=(--smp "${w#smp=}") ;;
				sim=*) modargs="$modargs $w" ;;
				mod=*) modargs="$modargs ${w#mod=}" ;;
				noload) args+=(--no-load) ;;
				esac
			done
			[ -n "$modargs" ] && args+=(--modargs "${modargs# }")
			name="$(basename "$t") [$conf]"
			note "guest: $name"
			out=$("$here/guest.sh" --quiet "${args[@]}" --script "$t" 2>&1)
			rc=$?
			printf '%s\n' "$out" | grep -E '^(ok|not ok|#)|^guest:' | sed 's/^/   /'
			p=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+' )
			s=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+ # SKIP')
			f=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+')
			pass $((p - s))
			skipped=$((skipped + s))
			while IFS= read -r l; do fail "$name: $l"; done < <(printf '%s\n' "$out" | grep -E '^not ok [0-9]+')
			if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
				printf '%s\n' "$out" | tail -40 | sed 's/^/   | /'
				fail "$name: guest exit status $rc"
			fi
		done </tmp/rust-uncore-confs
	done
fi

if [ ${#failures[@]} -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
summary="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && summary="$summary, $skipped skipped"
echo "$summary"
[ "$failed" -eq 0 ]

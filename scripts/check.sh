#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test: installs what is missing, builds (or reuses) the test
# kernel, runs the host tests (cargo test) and lint (cargo clippy), builds
# the module against the test kernel with clippy, builds the guest tools,
# and runs each guest test in every configuration its `# guest:` lines
# name. Ends with one line "N passed, N failed" (", N skipped" if any);
# exits non-zero on failure.
#
# Tests sharing a CPU model and topology share one guest boot; boots run
# side by side, CHECK_JOBS at a time (default: the number of host CPUs).
#
# Usage: scripts/check.sh [--host-only] [--guest-only] [GUEST_TEST...]
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
cd "$REPO_DIR"

host=1
guest=1
# Guest boots run side by side.
jobs=${CHECK_JOBS:-$(nproc)}
# Side by side, a guest whose vCPUs share one host thread runs faster than
# one with a thread per vCPU (fewer threads than host cores, no stalls in
# stop_machine while CPUs go offline).
if [ "$jobs" -gt 1 ]; then
	export TCG_OPTS=${TCG_OPTS-thread=single}
fi
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
# step NAME: starts timing a step; the times are printed at the end.
times=()
step_name=""
step_start=$SECONDS
step() {
	[ -z "$step_name" ] || times+=("$step_name $((SECONDS - step_start)) s")
	step_name=$1
	step_start=$SECONDS
}
pass() { passed=$((passed + $1)); }
fail() { failed=$((failed + 1)); failures+=("$1"); }

# Step logs, shown when a step fails.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

note "setup"
step "install"
"$here/install-deps.sh" >"$logs/deps.log" 2>&1 || { cat "$logs/deps.log"; echo "0 passed, 1 failed"; exit 1; }
step "test kernel"
"$here/build-kernel.sh" >"$logs/kernel.log" 2>&1 || { tail -50 "$logs/kernel.log"; echo "0 passed, 1 failed"; exit 1; }
kdir=$("$here/build-kernel.sh" --print-dir)/linux-source-6.12

if [ "$host" = 1 ]; then
	# Host builds are cached with the test kernel, so that a fresh clone
	# builds only what changed.
	export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$CACHE_DIR/cargo-target}
	note "host tests (cargo test)"
	step "host tests"
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
	note "host lint (cargo clippy, warnings are errors)"
	if out=$("$CARGO_CLIPPY" clippy --all-targets --color never -- -D warnings 2>&1); then
		pass 1
	else
		printf '%s\n' "$out" | tail -30 | sed 's/^/   | /'
		fail "cargo clippy"
	fi
fi

note "module build (CLIPPY=1) against the test kernel"
step "module build"
if make -s KDIR="$kdir" CLIPPY=1 >"$logs/build.log" 2>&1 && [ -f rust_uncore.ko ]; then
	pass 1
	note "module aliases"
	out=$(tests/host/modinfo.sh rust_uncore.ko)
	printf '%s\n' "$out" | sed 's/^/   /'
	pass "$(printf '%s\n' "$out" | grep -c '^ok ')"
	while IFS= read -r l; do fail "modinfo: $l"; done < <(printf '%s\n' "$out" | grep '^not ok')
else
	cat "$logs/build.log"
	fail "module build"
	guest=0
fi

if [ "$guest" = 1 ]; then
	note "guest tools"
	step "guest tests"
	mkdir -p "$CACHE_DIR/guest-tools"
	if gcc -static -O2 -Wall -Werror -o "$CACHE_DIR/guest-tools/perf_open" tests/tools/perf_open.c; then
		pass 1
	else
		fail "guest tools"
	fi
	tests=("${only[@]}")
	[ ${#tests[@]} -gt 0 ] || tests=(tests/guest/[0-9]*.sh)
	# One guest boot per CPU model and topology runs every test that asks
	# for it, each with its own module arguments; boots run $jobs at a time.
	rundir=$(mktemp -d)
	"$here/mkinitramfs.sh" "$kdir" >/dev/null || fail "guest initramfs"
	keys=()
	for t in "${tests[@]}"; do
		while IFS= read -r conf; do
			cpu= smp= modargs= load=1
			for w in $conf; do
				case "$w" in
				cpu=*) cpu=${w#cpu=} ;;
				smp=*) smp=${w#smp=} ;;
				sim=*) modargs="$modargs $w" ;;
				mod=*) modargs="$modargs ${w#mod=}" ;;
				noload) load=0 ;;
				esac
			done
			key="$cpu|$smp"
			g=
			for k in "${!keys[@]}"; do [ "${keys[$k]}" = "$key" ] && g=$k; done
			if [ -z "$g" ]; then
				g=${#keys[@]}
				keys+=("$key")
			fi
			printf '%s|%s|%s\n' "$load" "${modargs# }" "$t" >>"$rundir/$g.list"
			printf '%s [%s]\n' "$(basename "$t")" "$conf" >>"$rundir/$g.names"
		done < <(grep '^# guest:' "$t" | sed 's/^# guest: *//')
	done
	# Longest boots first keeps both runners busy to the end.
	order=$(for g in "${!keys[@]}"; do echo "$(wc -l <"$rundir/$g.list") $g"; done | sort -rn | cut -d' ' -f2)
	note "guest: ${#keys[@]} boots, $(cat "$rundir"/*.list | wc -l) test runs, $jobs at a time"
	for g in $order; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		cpu=${keys[$g]%%|*}
		smp=${keys[$g]#*|}
		n=$(wc -l <"$rundir/$g.list")
		(
			start=$(date +%s)
			"$here/guest.sh" --quiet --cpu "$cpu" --smp "$smp" --timeout $((120 + 240 * n)) \
				--batch "$rundir/$g.list" --outdir "$rundir/$g.out" >"$rundir/$g.log" 2>&1
			echo $? >"$rundir/$g.rc"
			echo $(($(date +%s) - start)) >"$rundir/$g.time"
		) &
	done
	wait
	for g in "${!keys[@]}"; do
		note "guest boot: -cpu ${keys[$g]%%|*} -smp ${keys[$g]#*|} ($(cat "$rundir/$g.time" 2>/dev/null || echo ?) s)"
		if [ "$(cat "$rundir/$g.rc" 2>/dev/null)" != 0 ] || [ ! -f "$rundir/$g.out/boot.status" ]; then
			sed 's/^/   | /' "$rundir/$g.log" | tail -40
			fail "guest boot -cpu ${keys[$g]%%|*}: runner failed"
			continue
		fi
		i=0
		while IFS= read -r name; do
			i=$((i + 1))
			out=$(cat "$rundir/$g.out/$i.out")
			rc=$(cat "$rundir/$g.out/$i.status")
			note "guest: $name"
			printf '%s\n' "$out" | grep -E '^(ok|not ok|#)|^guest:' | sed 's/^/   /'
			p=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+')
			s=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+ # SKIP')
			f=$(printf '%s\n' "$out" | grep -cE '^not ok [0-9]+')
			pass $((p - s))
			skipped=$((skipped + s))
			while IFS= read -r l; do fail "$name: $l"; done < <(printf '%s\n' "$out" | grep -E '^not ok [0-9]+')
			plan=$(printf '%s\n' "$out" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | tail -1)
			if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
				printf '%s\n' "$out" | tail -40 | sed 's/^/   | /'
				fail "$name: guest exit status $rc"
			elif [ "$plan" != $((p + f)) ]; then
				printf '%s\n' "$out" | tail -40 | sed 's/^/   | /'
				fail "$name: $((p + f)) results for a TAP plan of '${plan:-none}'"
			fi
		done <"$rundir/$g.names"
		if [ "$(cat "$rundir/$g.out/boot.status")" != 0 ]; then
			sed 's/^/   | /' "$rundir/$g.out/boot.err"
			tail -60 "$rundir/$g.out/console.log" | sed 's/^/   | /'
			fail "guest boot -cpu ${keys[$g]%%|*} -smp ${keys[$g]#*|}: $(head -1 "$rundir/$g.out/boot.err")"
		fi
	done
	rm -rf "$rundir"
fi

step ""
echo "times: $(printf '%s, ' "${times[@]}" | sed 's/, $//')"
if [ ${#failures[@]} -gt 0 ]; then
	echo "failures:"
	printf '  %s\n' "${failures[@]}"
fi
summary="$passed passed, $failed failed"
[ "$skipped" -gt 0 ] && summary="$summary, $skipped skipped"
echo "$summary"
[ "$failed" -eq 0 ]

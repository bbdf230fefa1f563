#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs every test: installs what is missing, builds (or reuses) the eight
# kernels of scripts/build-kernel.sh (debug, nodebug, rt, distro,
# distro-rt; and in Debian roots stock, stock-rt, unstable), runs the host
# tests (cargo test) and lint (cargo clippy), builds the module against
# each kernel (debug and the distribution kernels with clippy;
# scripts/build-module.sh), checks the debug module's aliases, runs the
# README's commands for the stock kernel in its root
# (tests/host/stock-readme.sh), builds the Debian package and installs,
# checks and removes it in a copy of that root (tests/host/deb.sh), checks
# the patch series of `make rfc` (scripts/rfc-check.sh: applied to that
# root's linux-source-7.3, built and booted), builds the guest tools, and
# runs each guest
# test in every configuration its `# guest:` lines name. Ends with one line
# "N passed, N failed" (", N skipped" if any); exits non-zero on failure.
#
# A `# guest:` line is a list of words: cpu=MODEL, smp=TOPOLOGY (QEMU's),
# sim=... or mod=ARGS (module arguments), noload (the test loads the module
# itself), kernel=nodebug, kernel=rt or kernel=stock (boot that kernel;
# default debug), append=PARAM (a kernel command-line parameter; several
# append= words add several).
# Tests sharing a kernel, CPU model and topology share one guest boot; boots
# run side by side, CHECK_JOBS at a time (default: the number of host CPUs).
#
# --guest-only skips the host tests and the kernels only compiled against
# (and the nodebug, rt and stock ones unless a selected test boots them);
# --host-only skips the guests.
#
# To measure a flake rate: --match WORD keeps only the `# guest:` lines
# that have WORD (kernel=debug matches a line without kernel=; several
# --match words must all be there), and --repeat N boots each kept
# configuration N times, each boot on its own, CHECK_JOBS at a time as
# always; the end then also says how many boots had a failure, and which
# results failed how often. For example, 08-pmi on the rt kernel 40 times,
# two at a time:
#
#   scripts/check.sh --guest-only --repeat 40 --match kernel=rt tests/guest/08-pmi.sh
#
# (`make repeat TEST=tests/guest/08-pmi.sh RUNS=40 MATCH=kernel=rt` is the
# same.)
#
# Usage: scripts/check.sh [--host-only] [--guest-only] [--repeat N]
#                         [--match WORD]... [GUEST_TEST...]
#   GUEST_TEST   a file of tests/guest/ (at least one `# guest:` line); an
#                unknown option, a --repeat that is not a positive number,
#                a --match no `# guest:` line of the tests has, or a
#                missing or wrong file stops check.sh at once, with
#                status 2. --help prints this text.
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
repeat=1
matches=()
# A guest line's words, with kernel=debug where it names no kernel.
line_words() { case " $1 " in *" kernel="*) printf '%s\n' "$1" ;; *) printf '%s kernel=debug\n' "$1" ;; esac; }
# matching LINE: whether the guest line has every --match word.
matching() {
	local w words
	words=" $(line_words "$1") "
	for w in "${matches[@]}"; do
		case "$words" in *" $w "*) ;; *) return 1 ;; esac
	done
}
want=""
for a in "$@"; do
	if [ -n "$want" ]; then
		case "$want" in
		--repeat)
			case "$a" in ''|*[!0-9]*|0) echo "check: --repeat needs a positive number, not '$a'" >&2; exit 2 ;; esac
			repeat=$a ;;
		--match) matches+=("$a") ;;
		esac
		want=""
		continue
	fi
	case "$a" in
	--host-only) guest=0 ;;
	--guest-only) host=0 ;;
	--repeat|--match) want=$a ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	-*) echo "check: unknown option '$a' (see --help)" >&2; exit 2 ;;
	*)
		# A guest test, relative to the repository or to the directory
		# check.sh was started in (OLDPWD, before the cd above).
		arg=$a
		case "$arg" in /*) ;; *) [ -f "$arg" ] || [ ! -f "${OLDPWD:-.}/$arg" ] || arg=${OLDPWD:-.}/$arg ;; esac
		[ -f "$arg" ] || { echo "check: no such guest test: $a" >&2; exit 2; }
		grep -q '^# guest:' "$arg" || { echo "check: $a is not a guest test: it has no '# guest:' line" >&2; exit 2; }
		only+=("$arg") ;;
	esac
done
[ -z "$want" ] || { echo "check: $want needs a value (see --help)" >&2; exit 2; }
tests=("${only[@]}")
[ ${#tests[@]} -gt 0 ] || tests=(tests/guest/[0-9]*.sh)
# guest_lines: the `# guest:` lines of the tests that have every --match
# word, as "FILE|WORDS".
guest_lines() {
	local t conf
	for t in "${tests[@]}"; do
		while IFS= read -r conf; do
			matching "$conf" && printf '%s|%s\n' "$t" "$conf"
		done < <(grep '^# guest:' "$t" | sed 's/^# guest: *//')
	done
	# (A last line that does not match must not fail the pipelines this
	# feeds, under pipefail.)
	return 0
}
if [ ${#matches[@]} -gt 0 ] && [ -z "$(guest_lines)" ]; then
	echo "check: no '# guest:' line of the tests has every word of: ${matches[*]}" >&2
	exit 2
fi

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
# tally LABEL OUTPUT: a TAP output's "ok" lines pass, each "not ok" line is
# a failure named after LABEL, and no "ok" line at all is one too.
tally() {
	pass "$(printf '%s\n' "$2" | grep -c '^ok ')"
	while IFS= read -r l; do fail "$1: $l"; done < <(printf '%s\n' "$2" | grep '^not ok')
	[ -n "$(printf '%s\n' "$2" | grep '^ok ')" ] || fail "$1: no result"
}

# Step logs, shown when a step fails.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

note "setup"
step "install"
"$here/install-deps.sh" >"$logs/deps.log" 2>&1 || { cat "$logs/deps.log"; echo "0 passed, 1 failed"; exit 1; }

# The kernels: debug always (the lint build, most boots), nodebug, rt and
# stock for the host-side builds or a boot that asks for them, the ones
# only compiled against for the host side.
variants=(debug)
for v in nodebug rt stock; do
	# (grep reads every line: with -q it would stop at the first, and
	# under pipefail guest_lines's SIGPIPE would fail the test.)
	if [ "$host" = 1 ] || { [ "$guest" = 1 ] && guest_lines | grep -E "(\||[[:space:]])kernel=$v([[:space:]]|\$)" >/dev/null; }; then
		variants+=("$v")
	fi
done
[ "$host" = 0 ] || variants+=(distro distro-rt stock-rt unstable)
declare -A kernel_ok=() module_ok=() kos=()
# kernel_result V STATUS: reports kernel V's build from its log.
kernel_result() {
	if [ "$2" = 0 ]; then
		pass 1
		kernel_ok[$1]=1
		grep -E '^(build-kernel|stock-kernel|stock-kdir):' "$logs/kernel-$1.log" | sed 's/^/   /'
	else
		tail -50 "$logs/kernel-$1.log" | sed 's/^/   | /'
		fail "kernel $1"
	fi
}
# The distribution kernels' Debian roots are mostly downloads and package
# installs: they are made in the background, one after the other, while
# the 6.12 kernels compile.
roots=()
for v in "${variants[@]}"; do
	case "$v" in stock*|unstable) roots+=("$v") ;; esac
done
if [ ${#roots[@]} -gt 0 ]; then
	(
		for v in "${roots[@]}"; do
			start=$SECONDS
			"$here/build-kernel.sh" --variant "$v" >"$logs/kernel-$v.log" 2>&1
			echo $? >"$logs/kernel-$v.rc"
			echo $((SECONDS - start)) >"$logs/kernel-$v.time"
		done
	) &
	roots_pid=$!
fi
for v in "${variants[@]}"; do
	case "$v" in stock*|unstable) continue ;; esac
	note "kernel: $v"
	step "kernel $v"
	"$here/build-kernel.sh" --variant "$v" >"$logs/kernel-$v.log" 2>&1
	kernel_result "$v" $?
done
if [ ${#roots[@]} -gt 0 ]; then
	step "kernels in Debian roots (rest)"
	wait "$roots_pid"
	for v in "${roots[@]}"; do
		note "kernel: $v ($(cat "$logs/kernel-$v.time" 2>/dev/null || echo ?) s, in the background)"
		kernel_result "$v" "$(cat "$logs/kernel-$v.rc" 2>/dev/null || echo 1)"
	done
fi
boot() { "$here/build-kernel.sh" --variant "$1" --print-boot; }

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
	# What the exhaustive explorations covered (printed past the capture).
	printf '%s\n' "$out" | grep -E ' explored$' | sed 's/^/   /'
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
	# Every crate root (the modules' reach rust/ and src/engine/ through
	# their `mod` declarations) in rustfmt's default style, as the kernel's
	# own .rustfmt.toml has it.
	note "format (rustfmt --check)"
	if out=$("$RUSTFMT" --edition 2021 --check src/rust_uncore_main.rs src/rust_uncore_sim_main.rs src/hw_host.rs benches/bench.rs benches/callgrind.rs tests/module/rust_test_pmu_main.rs tests/module/rust_must_fail_main.rs 2>&1); then
		pass 1
	else
		printf '%s\n' "$out" | head -30 | sed 's/^/   | /'
		fail "rustfmt"
	fi
	note "documentation (reStructuredText: docutils, then Sphinx if installed)"
	out=$(/usr/bin/python3 tests/host/rst-check.py Documentation)
	printf '%s\n' "$out" | grep -v '^1\.\.' | sed 's/^/   /'
	s=$(printf '%s\n' "$out" | grep -c '^ok .*# SKIP')
	pass "$(($(printf '%s\n' "$out" | grep -c '^ok ') - s))"
	skipped=$((skipped + s))
	while IFS= read -r l; do fail "docs: $l"; done < <(printf '%s\n' "$out" | grep '^not ok')
	note "host tests (script options, Makefile, guest.sh's module check, Debian mirrors, layers, the selftests' arithmetic)"
	for t in tests/host/options.sh tests/host/makefile.sh tests/host/vermagic.sh tests/host/mirrors.sh tests/host/layers.sh tests/host/selftest-lib.sh; do
		out=$("$t" 2>&1)
		printf '%s\n' "$out" | grep -E '^not ok |^ok .*# SKIP' | sed 's/^/   /'
		p=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+')
		s=$(printf '%s\n' "$out" | grep -cE '^ok [0-9]+ # SKIP')
		echo "   $(basename "$t"): $((p - s)) ok, $s skipped"
		pass $((p - s))
		skipped=$((skipped + s))
		while IFS= read -r l; do fail "$(basename "$t"): $l"; done < <(printf '%s\n' "$out" | grep '^not ok')
		if [ "$p" = 0 ]; then
			printf '%s\n' "$out" | tail -10 | sed 's/^/   | /'
			fail "$(basename "$t"): no result"
		fi
	done
fi

# The module builds: build/VARIANT/ for each kernel; a build error or any
# compiler warning fails it. Each build is mostly one rustc process (the
# driver's crate), so they run $jobs at a time.
builds=(debug)
for v in stock stock-rt unstable; do
	case " ${variants[*]} " in *" $v "*) builds+=("$v") ;; esac
done
for v in "${variants[@]}"; do
	case "$v" in debug|stock*|unstable) ;; *) builds+=("$v") ;; esac
done
# The lint build (clippy) against the debug kernel and the distribution
# kernels built in their roots; the other kernels plain.
declare -A build_args=()
for v in debug stock stock-rt unstable; do build_args[$v]=CLIPPY=1; done
step "module builds"
mdir=$(mktemp -d)
for v in "${builds[@]}"; do
	[ -n "${kernel_ok[$v]:-}" ] || continue
	args=(${build_args[$v]:-})
	while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
	(
		start=$SECONDS
		"$here/build-module.sh" "$v" "${args[@]}" >"$mdir/$v.out" 2>"$logs/module-$v.log"
		echo $? >"$mdir/$v.rc"
		echo $((SECONDS - start)) >"$mdir/$v.time"
	) &
done
wait
for v in "${builds[@]}"; do
	args=${build_args[$v]:+ (${build_args[$v]})}
	if [ -z "${kernel_ok[$v]:-}" ]; then
		note "module build: $v kernel$args"
		echo "   the $v kernel did not build"
		fail "module build ($v kernel): no kernel"
		continue
	fi
	note "module build: $v kernel$args ($(cat "$mdir/$v.time" 2>/dev/null || echo ?) s)"
	if [ "$(cat "$mdir/$v.rc" 2>/dev/null)" = 0 ]; then
		pass 1
		module_ok[$v]=1
		kos[$v]=$(tail -1 "$mdir/$v.out")
		echo "   ${kos[$v]#"$REPO_DIR"/}"
	else
		sed 's/^/   | /' "$logs/module-$v.log"
		fail "module build ($v kernel)"
	fi
done
rm -rf "$mdir"
# The aliases (modpost reads device tables by another symbol name on 7.x)
# and the production module's contents, for every kernel built against.
for v in "${variants[@]}"; do
	[ -n "${module_ok[$v]:-}" ] || continue
	note "module aliases and contents ($v kernel)"
	out=$(tests/host/modinfo.sh "${kos[$v]}")
	printf '%s\n' "$out" | sed 's/^/   /'
	tally "modinfo ($v)" "$out"
done

# The abstraction layer's type rules: uses its types must refuse fail to
# build (against the debug kernel, in its module build copy).
if [ -n "${module_ok[debug]:-}" ]; then
	note "type rules of the abstraction layer (debug kernel)"
	out=$(tests/host/type-rules.sh debug 2>&1)
	printf '%s\n' "$out" | sed 's/^/   /'
	tally "type rules" "$out"
fi

# The README's commands for the stock kernel, in its Debian root: the
# guests booting it carry what they install.
if [ -n "${kernel_ok[stock]:-}" ]; then
	note "README's stock-kernel commands (Debian 13 root)"
	step "stock README"
	out=$(tests/host/stock-readme.sh 2>&1)
	printf '%s\n' "$out" | grep -E '^(ok|not ok|#)' | sed 's/^/   /'
	tally "stock README" "$out"
fi
# The Debian package: make deb, then its install with apt-get, DKMS's
# build for the stock kernel, a kernel upgrade without the new kernel's
# source (DKMS skips, apt completes) and its removal, in a copy of that
# root; the guests booting the stock kernel carry what it installed
# (tests/guest/31-deb.sh).
if [ -n "${kernel_ok[stock]:-}" ]; then
	note "Debian package (make deb; install, DKMS, purge in a copy of the Debian 13 root)"
	step "deb"
	out=$(tests/host/deb.sh 2>&1)
	printf '%s\n' "$out" | grep -E '^(ok|not ok|#)' | sed 's/^/   /'
	tally "deb" "$out"
fi

# The patch series "rust: perf: add a PMU abstraction" (scripts/rfc.sh):
# applied to linux-source-7.3 of the Debian 13 root, checked, built with
# that root's toolchain and booted (scripts/rfc-check.sh).
if [ "$host" = 1 ] && [ -n "${kernel_ok[stock]:-}" ]; then
	note "patch series: rust: perf: add a PMU abstraction (make rfc-check)"
	step "rfc-check"
	out=$(scripts/rfc-check.sh 2>&1)
	printf '%s\n' "$out" | grep -E '^(ok|not ok|#)' | sed 's/^/   /'
	tally "rfc-check" "$out"
fi

if [ "$guest" = 1 ]; then
	note "guest tools"
	step "guest tests"
	mkdir -p "$CACHE_DIR/guest-tools"
	for src in tests/tools/*.c tests/selftests/uncore/uncore_load.c; do
		tool=$(basename "$src" .c)
		if gcc -static -O2 -Wall -Werror -o "$CACHE_DIR/guest-tools/$tool" "$src"; then
			pass 1
		else
			fail "guest tool $tool"
		fi
	done
	# One guest boot per kernel, CPU model and topology runs every test
	# that asks for it, each with its own module arguments; boots run $jobs
	# at a time. A kernel whose module did not build boots nothing.
	rundir=$(mktemp -d)
	declare -A unbootable=()
	for v in debug nodebug rt stock; do
		[ -n "${module_ok[$v]:-}" ] || continue
		"$here/mkinitramfs.sh" "$(boot "$v")" >/dev/null || { fail "guest initramfs ($v kernel)"; unbootable[$v]=1; }
	done
	keys=() bkernel=() bcpu=() bsmp=() bappend=()
	per_boot=6
	declare -A skipped_runs=()
	# With --repeat, each configuration boots that many times on its own:
	# the round is part of the boot's key.
	for round in $(seq 1 "$repeat"); do
		while IFS='|' read -r t conf; do
			kernel=debug cpu= smp= modargs= load=1 desc= append=
			for w in $conf; do
				case "$w" in
				kernel=*) kernel=${w#kernel=} ;;
				cpu=*) cpu=${w#cpu=} ;;
				smp=*) smp=${w#smp=} ;;
				sim=*) modargs="$modargs $w" ;;
				mod=*) modargs="$modargs ${w#mod=}" ;;
				noload) load=0 ;;
				append=*) append="$append ${w#append=}" ;;
				esac
				case "$w" in kernel=*) ;; *) desc="$desc $w" ;; esac
			done
			if [ -z "${module_ok[$kernel]:-}" ] || [ -n "${unbootable[$kernel]:-}" ]; then
				skipped_runs[$kernel]=$((${skipped_runs[$kernel]:-0} + 1))
				continue
			fi
			# A boot runs at most $per_boot tests, so that the long ones
			# spread over both runners.
			key="$kernel|$cpu|$smp|${append# }"
			[ "$repeat" = 1 ] || key="$key|$round|$t|$conf"
			g=
			for k in "${!keys[@]}"; do
				[ "${keys[$k]}" = "$key" ] && [ "$(wc -l <"$rundir/$k.list")" -lt "$per_boot" ] && g=$k
			done
			if [ -z "$g" ]; then
				g=${#keys[@]}
				keys+=("$key")
				bkernel+=("$kernel") bcpu+=("$cpu") bsmp+=("$smp") bappend+=("${append# }")
			fi
			printf '%s|%s|%s\n' "$load" "${modargs# }" "$t" >>"$rundir/$g.list"
			printf '%s [%s:%s]%s\n' "$(basename "$t")" "$kernel" "$desc" "$([ "$repeat" = 1 ] || echo " run $round")" >>"$rundir/$g.names"
		done < <(guest_lines)
	done
	for v in "${!skipped_runs[@]}"; do
		note "guest: not run: ${skipped_runs[$v]} test runs on the $v kernel (no kernel or module for it)"
	done
	# Longest boots first keeps both runners busy to the end: a debug
	# boot counts ten times its tests (under TCG it runs about ten times
	# slower than the others).
	order=$(for g in "${!keys[@]}"; do
		n=$(wc -l <"$rundir/$g.list")
		[ "${bkernel[$g]}" != debug ] || n=$((n * 10))
		echo "$n $g"
	done | sort -rn | cut -d' ' -f2)
	note "guest: ${#keys[@]} boots, $(cat "$rundir"/*.list 2>/dev/null | wc -l) test runs, $jobs at a time"
	for g in $order; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
		n=$(wc -l <"$rundir/$g.list")
		(
			start=$(date +%s)
			"$here/guest.sh" --quiet --kernel "${bkernel[$g]}" --cpu "${bcpu[$g]}" --smp "${bsmp[$g]}" --timeout $((120 + 240 * n)) \
				${bappend[$g]:+--append "${bappend[$g]}"} \
				--batch "$rundir/$g.list" --outdir "$rundir/$g.out" >"$rundir/$g.log" 2>&1
			echo $? >"$rundir/$g.rc"
			echo $(($(date +%s) - start)) >"$rundir/$g.time"
		) &
	done
	wait
	bad_boots=0
	for g in "${!keys[@]}"; do
		failed_before=$failed
		boot="${bkernel[$g]} kernel -cpu ${bcpu[$g]} -smp ${bsmp[$g]}${bappend[$g]:+ (${bappend[$g]})}"
		note "guest boot: $boot ($(cat "$rundir/$g.time" 2>/dev/null || echo ?) s)"
		if [ "$(cat "$rundir/$g.rc" 2>/dev/null)" != 0 ] || [ ! -f "$rundir/$g.out/boot.status" ]; then
			sed 's/^/   | /' "$rundir/$g.log" | tail -40
			fail "guest boot $boot: runner failed"
			bad_boots=$((bad_boots + 1))
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
			fail "guest boot $boot: $(head -1 "$rundir/$g.out/boot.err")"
		fi
		[ "$failed" = "$failed_before" ] || bad_boots=$((bad_boots + 1))
	done
	rm -rf "$rundir"
	if [ "$repeat" -gt 1 ]; then
		# Which results failed, how often (the run number left out).
		note "repeat: ${#keys[@]} boots, $bad_boots with a failure"
		printf '%s\n' "${failures[@]}" | grep -v '^$' | sed 's/ run [0-9]*\]/]/; s/\(not ok\) [0-9]*/\1/' |
			sort | uniq -c | sort -rn | sed 's/^/   /'
	fi
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

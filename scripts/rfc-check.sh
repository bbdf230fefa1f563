#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Checks the patch series of scripts/rfc.sh (`make rfc-check`, and part of
# `make check`), printing one TAP line per check:
#   - the series applies with `git am` to Debian's linux-source-7.3, and
#     the sample's Kconfig entry lands inside `if SAMPLES_RUST`;
#   - every public item of kernel::perf has # Examples (doc_examples.py);
#   - scripts/checkpatch.pl --strict finds nothing in any patch;
#   - the kernel builds, in the Debian 13 root with the toolchain that built
#     Debian's 7.3 kernel, from tinyconfig plus scripts/rfc-kernel.config
#     (Rust, perf events, KUnit, the Rust doctests and the sample built in),
#     with CLIPPY=1: no warning in the series' files;
#   - `make rustfmtcheck` and `make rustdoc` are clean for them;
#   - rust/helpers/helpers.c compiles with CONFIG_PERF_EVENTS undefined
#     (the built tree's command; x86 cannot turn the option off);
#   - the uses of kernel::perf its types must refuse fail to build, each
#     with its error (tests/rfc/rfc_must_fail.rs, built in the tree as an
#     object of samples/rust/ once per case): an IRQ-safe lock taken with
#     read's or stop's token (both may run in NMI), enable without
#     disable; its well-formed case builds;
#   - that kernel boots in QEMU: the KUnit doctest suite passes (the perf
#     abstraction's doctests among its cases) and tests/rfc/rfc_init.c
#     counts with the sample PMU (alone, and read by a software leader's
#     samples) and sees its refusals.
# The built tree is kept in $CACHE_DIR/rfc/check-<key>, the key hashing the
# patches (but their dates and commit IDs), the configuration fragment, the
# build's recipe version and the root: an unchanged series reuses the build
# and its logs (the checks on them, the checkpatch run and the boot run
# again).
#
# Usage: scripts/rfc-check.sh [--help]
# No `set -e`: each check reports its own failure as a TAP line.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
case "${1:-}" in
-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
"") ;;
*) echo "rfc-check: unknown option $1 (see --help)" >&2; exit 2 ;;
esac

n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n $*"; }
# result STATUS TEXT: ok when STATUS is 0.
result() { if [ "$1" = 0 ]; then ok "$2"; else not_ok "$2"; fi; }
# Bump when the build's recipe (step 3) changes: it is part of the build's key.
RECIPE=2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$here/rfc.sh" --test-identity --out "$work/series" >"$work/rfc.log" 2>&1 || {
	sed 's/^/# /' "$work/rfc.log"; not_ok "make rfc writes the series"; exit 1; }
base=$("$here/rfc.sh" --print-base) && root=$("$here/stock-kernel.sh" --variant stock --print-root) ||
	{ not_ok "the base tree and the Debian 13 root are there"; exit 1; }
patches=("$work"/series/000[1-9]-*.patch)
echo "# series: ${#patches[@]} patches and a cover letter; $(tail -1 "$work/rfc.log" | sed 's/^ *//')"
# The patches' dates and commit IDs follow the newest commit under rfc/
# (the cover letter's too): they are left out of the key.
key=$( { grep -hEv '^(From [0-9a-f]{40} |Date: )' "${patches[@]}"; cat "$here/rfc-kernel.config"; echo "$RECIPE $root"; } |
	sha256sum | cut -c1-16)
tree=$CACHE_DIR/rfc/check-$key
in_root() { "$here/in-root.sh" "$root" --bind "$tree:/src" --bind "$work:/work" --cwd /src -- "$@"; }
# Files the series adds or changes, as the build's messages name them.
ours='rust/kernel/perf|rust/helpers/perf\.c|samples/rust/rust_pmu|rust/bindings/bindings_helper\.h'

# 1. It applies.
if [ ! -f "$tree/.rfc-built" ]; then
	for old in "$CACHE_DIR"/rfc/check-*; do [ "$old" = "$tree" ] || rm -rf "$old"; done
	rm -rf "$tree"
	if git -c advice.detachedHead=false clone -q --shared "$base" "$tree" &&
		git -C "$tree" -c user.name=check -c user.email=check@localhost am -q "${patches[@]}" >"$work/am.log" 2>&1; then
		touch "$tree/.rfc-applied"
	else
		sed 's/^/# /' "$work/am.log"
	fi
fi
result "$([ -f "$tree/.rfc-applied" ]; echo $?)" "the series applies to linux-source-7.3 with git am"
[ -f "$tree/.rfc-applied" ] || { rm -rf "$tree"; exit 1; }

# The sample's Kconfig entry landed between `if SAMPLES_RUST` and its
# `endif`, where SAMPLES_RUST guards it.
place=$(awk '/^if SAMPLES_RUST$/ { inside = 1 } /^endif # SAMPLES_RUST$/ { inside = 0 }
	/^config SAMPLE_RUST_PMU$/ { print FILENAME ":" FNR ": " (inside ? "inside" : "outside") " if SAMPLES_RUST" }' \
	"$tree/samples/rust/Kconfig")
echo "# ${place:-no SAMPLE_RUST_PMU in samples/rust/Kconfig}" | sed "s|$tree/||"
result "$([ "$(printf '%s\n' "$place" | grep -c ' inside ')" = 1 ] && [ "$(printf '%s\n' "$place" | grep -c .)" = 1 ]; echo $?)" \
	"the sample's Kconfig entry is inside if SAMPLES_RUST"

# 2. Every public item of the abstraction has examples (which the KUnit
# run below compiles and runs), and checkpatch.
st=0
out=$(/usr/bin/python3 "$REPO_DIR/tests/rfc/doc_examples.py" "$REPO_DIR"/rfc/rust/kernel/perf.rs \
	"$REPO_DIR"/rfc/rust/kernel/perf/*.rs 2>&1) || st=$?
printf '%s\n' "$out" | sed "s|$REPO_DIR/||; s/^/# /"
result "$st" "every public item of kernel::perf has a doc comment with # Examples"
names=()
for p in "${patches[@]}"; do names+=("/work/series/$(basename "$p")"); done
in_root perl scripts/checkpatch.pl --strict --no-tree --no-color "${names[@]}" \
	>"$work/checkpatch.log" 2>&1 || true
totals=$(grep '^total:' "$work/checkpatch.log" || true)
echo "# checkpatch --strict: $(printf '%s\n' "$totals" | awk -F'[ ,]+' '{ e += $2; w += $4; c += $6; l += $8 }
	END { printf "%d errors, %d warnings, %d checks, %d lines checked", e, w, c, l }')"
bad=$(printf '%s\n' "$totals" | grep -vc '^total: 0 errors, 0 warnings, 0 checks' || true)
[ "$bad" = 0 ] || { grep -E '^(ERROR|WARNING|CHECK)|^#[0-9]+: FILE' "$work/checkpatch.log" | sed 's/^/# /'; }
result "$([ "$bad" = 0 ] && [ "$(printf '%s\n' "$totals" | grep -c .)" = "${#patches[@]}" ]; echo $?)" \
	"checkpatch.pl --strict is clean on every patch"

# 3. The build, with clippy, rustfmt and rustdoc.
if [ ! -f "$tree/.rfc-built" ]; then
	cp "$here/rfc-kernel.config" "$work/frag.config"
	start=$SECONDS
	in_root sh -c '
		make -s tinyconfig >/dev/null
		scripts/kconfig/merge_config.sh -m .config /work/frag.config >/dev/null
		make -s olddefconfig
		grep "^CONFIG" /work/frag.config | while read -r l; do
			grep -qx "$l" .config || echo "rfc-check: $l did not stay in .config"
		done
		make -j"$(nproc)" CLIPPY=1 bzImage >.rfc-build.log 2>&1
		echo "build status $?" >>.rfc-build.log
		make rustfmtcheck >.rfc-rustfmt.log 2>&1
		echo "rustfmtcheck status $?" >>.rfc-rustfmt.log
		make -j"$(nproc)" rustdoc >.rfc-rustdoc.log 2>&1
		echo "rustdoc status $?" >>.rfc-rustdoc.log' >"$tree/.rfc-config.log" 2>&1 || true
	echo "$((SECONDS - start))" >"$tree/.rfc-build.time"
	touch "$tree/.rfc-built"
fi
log=$tree/.rfc-build.log
echo "# build: $(cat "$tree/.rfc-build.time") s (cached in $(basename "$tree"))"
sed 's/^/# /' "$tree/.rfc-config.log"
result "$(grep -q 'did not stay' "$tree/.rfc-config.log"; [ $? = 1 ]; echo $?)" "the configuration fragment holds after olddefconfig"
result "$(grep -qx 'build status 0' "$log" && [ -f "$tree/arch/x86/boot/bzImage" ]; echo $?)" \
	"the kernel builds with CLIPPY=1 (Rust, perf, KUnit doctests, the sample)"
ours_warn=$(grep -E -A4 '^(warning|error)' "$log" | grep -E -- "--> ($ours)|^($ours)[^ ]*:[0-9]+" || true)
all_warn=$(grep -cE '^warning: [^0-9]' "$log" || true)
echo "# compiler and clippy warnings in the whole build: $all_warn (none may name the series' files)"
[ -z "$ours_warn" ] || printf '%s\n' "$ours_warn" | sed 's/^/# /'
result "$([ -z "$ours_warn" ]; echo $?)" "no compiler or clippy warning in the series' files"
{ grep -v 'status 0$' "$tree/.rfc-rustfmt.log" || true; } | sed 's/^/# /' | head -40
result "$(grep -qx 'rustfmtcheck status 0' "$tree/.rfc-rustfmt.log"; echo $?)" "make rustfmtcheck is clean"
doc_warn=$(grep -E -A4 '^(warning|error)' "$tree/.rfc-rustdoc.log" | grep -E -- "--> ($ours)" || true)
[ -z "$doc_warn" ] || printf '%s\n' "$doc_warn" | sed 's/^/# /'
result "$(grep -qx 'rustdoc status 0' "$tree/.rfc-rustdoc.log" && [ -z "$doc_warn" ]; echo $?)" \
	"make rustdoc builds the documentation, no warning in the series' files"
# The helpers with CONFIG_PERF_EVENTS off (x86 always selects it, so no
# x86 configuration has it off): the built tree's own command for
# rust/helpers/helpers.c, on a file that undefines the option (after
# kconfig.h defined it, before any header) and includes helpers.c. The
# kernel crate's `pub mod perf` is `#[cfg(CONFIG_PERF_EVENTS)]` and not
# built this way.
printf '#undef CONFIG_PERF_EVENTS\n#include "/src/rust/helpers/helpers.c"\n' >"$work/perf-off.c"
cmd=$(sed -n 's|^savedcmd_rust/helpers/helpers.o := ||p' "$tree/rust/helpers/.helpers.o.cmd" 2>/dev/null |
	sed 's| -Wp,-MMD,[^ ]*||; s|-c -o rust/helpers/helpers.o rust/helpers/helpers.c|-c -o /work/perf-off.o /work/perf-off.c|')
st=1
case "$cmd" in
*" -o /work/perf-off.o /work/perf-off.c"*) in_root sh -c "$cmd" >"$work/perf-off.log" 2>&1 && st=0 ;;
*) echo "no compile command for rust/helpers/helpers.c in the built tree" >"$work/perf-off.log" ;;
esac
grep -E 'error|warning' "$work/perf-off.log" | head -10 | sed 's/^/# /'
result "$([ "$st" = 0 ] && ! grep -q 'warning' "$work/perf-off.log"; echo $?)" \
	"rust/helpers compiles, without a warning, with CONFIG_PERF_EVENTS off"

# The type rules: each case of tests/rfc/rfc_must_fail.rs is built as an
# object of samples/rust/ in the built tree (the kernel crate as built,
# with CLIPPY=0), with --cfg fail="<case>", and must fail saying what it is
# about; the well-formed case must build, so that a failure is the rule's.
mf=samples/rust/rfc_must_fail
cp "$REPO_DIR/tests/rfc/rfc_must_fail.rs" "$tree/$mf.rs"
# must_fail_build CASE: the object's build log, and its exit status.
must_fail_build() {
	rm -f "$tree/$mf.o"
	in_root make -s "RUSTFLAGS_rfc_must_fail.o=--cfg 'fail=\"$1\"'" "$mf.o" 2>&1
}
if log=$(must_fail_build none); then
	ok "the well-formed case of tests/rfc/rfc_must_fail.rs builds"
else
	printf '%s\n' "$log" | grep -E '^(error|warning)' -A6 | head -30 | sed 's/^/# /'
	not_ok "the well-formed case of tests/rfc/rfc_must_fail.rs builds"
fi
# must_fail CASE WANT DESCRIPTION: the build fails and prints WANT.
must_fail() {
	local log rc
	log=$(must_fail_build "$1")
	rc=$?
	if [ "$rc" != 0 ] && grep -qF -- "$2" <<<"$log"; then
		ok "$3"
	else
		echo "# fail=\"$1\": status $rc, want a failure saying: $2"
		grep -E '^error' -A6 <<<"$log" | head -12 | sed 's/^/# /'
		not_ok "$3"
	fi
}
must_fail irq_lock_in_read 'expected `&LocalInterruptDisabled`, found `&ReadContext`' \
	"an IRQ-safe lock taken with read's token (which admits NMI) fails to build"
must_fail irq_lock_in_stop 'expected `&LocalInterruptDisabled`, found `&StartStopContext`' \
	"an IRQ-safe lock taken with stop's token (a group's throttle, maybe NMI) fails to build"
must_fail enable_without_disable "a PMU implements both enable and disable, or neither" \
	"a PMU with enable but not disable fails to build"
rm -f "$tree/$mf.rs" "$tree/$mf.o" "$tree/samples/rust/.rfc_must_fail.o.cmd"

# 4. The boot: KUnit (the doctests) and the sample PMU.
mkdir -p "$work/initramfs/dev"
gcc -static -O2 -Wall -Werror -o "$work/initramfs/init" "$REPO_DIR/tests/rfc/rfc_init.c" &&
	(cd "$work/initramfs" && find . | cpio -o -H newc --quiet >"$work/initramfs.cpio") ||
	{ not_ok "the guest's init builds (tests/rfc/rfc_init.c)"; exit 1; }
start=$SECONDS
timeout 600 qemu-system-x86_64 -m 512 -smp 2 -nographic -no-reboot \
	-kernel "$tree/arch/x86/boot/bzImage" -initrd "$work/initramfs.cpio" \
	-append "console=ttyS0 panic=-1" >"$work/console.log" 2>&1 || true
echo "# boot: $((SECONDS - start)) s"
con=$work/console.log
suite=$(grep -o '# rust_doctests_kernel: pass:.*' "$con" | head -1 || true)
perf_cases=$(grep -cE '    ok [0-9]+ rust_doctest_kernel_perf_' "$con" || true)
perf_bad=$(grep -cE '    not ok [0-9]+ rust_doctest_kernel_perf_' "$con" || true)
echo "# KUnit: ${suite:-no summary}; the perf doctests: $perf_cases ok, $perf_bad not ok"
grep -E 'not ok [0-9]+ ' "$con" | sed 's/^/# /' | head -20 || true
result "$(printf '%s' "$suite" | grep -q 'fail:0 ' && [ "$perf_cases" -gt 0 ] && [ "$perf_bad" = 0 ]; echo $?)" \
	"the KUnit doctests pass, the perf abstraction's among them"
grep '^rfc: ' "$con" | sed 's/^/# /'
result "$(grep -qE '^rfc: [1-9][0-9]* passed, 0 failed' "$con"; echo $?)" \
	"the sample PMU counts and refuses what it should"
oops=$(grep -E 'BUG:|WARNING:|Oops|Kernel panic|UBSAN|refcount_t' "$con" || true)
[ -z "$oops" ] || printf '%s\n' "$oops" | sed 's/^/# /' | head -20
result "$([ -z "$oops" ]; echo $?)" "no kernel warning, BUG or oops during the boot"

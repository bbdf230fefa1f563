#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Builds rust_uncore.ko and the test PMU module rust_test_pmu.ko
# (tests/module/, TEST_PMU=1) against one of the kernels of
# scripts/build-kernel.sh and prints the paths of the modules, rust_uncore.ko's
# on the last line of its standard output.
#
# Kbuild writes a module's objects next to its sources, so each kernel gets
# its own copy of the module's sources, build/<variant>/ in the repository:
# the files git knows under MODULE_PATHS below (tracked, or new and not
# ignored; outside a git checkout, all of them) are mirrored there. An
# unchanged file keeps its timestamp, so that an unchanged rebuild is quick;
# a file gone from the tree is removed from the copy. The copy starts afresh
# when the kernel tree changes. The distro kernels have no Module.symvers:
# modpost only warns (KBUILD_MODPOST_WARN=1).
#
# The build fails if the compiler prints a warning ("warning:"), whatever
# the kernel's CONFIG_WERROR.
#
# Usage: scripts/build-module.sh VARIANT [MAKE_ARGS...]
#   VARIANT     debug, nodebug, rt, distro, distro-rt, stock, stock-rt or
#               unstable (the kernel must be built already: make
#               test-kernel VARIANT=...); the last three are built inside
#               their Debian root, with its toolchain
#   MAKE_ARGS   passed to make, e.g. CLIPPY=1
#   --help      this text
# The build's output (make -s: warnings and errors) goes to standard error
# and to build/<variant>.log.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

# What the module build reads, relative to the repository.
MODULE_PATHS=(Kbuild Makefile src rust rfc/rust/kernel tests/module)

variants="debug|nodebug|rt|distro|distro-rt|stock|stock-rt|unstable"
case "${1:-}" in
debug|nodebug|rt|distro|distro-rt|stock|stock-rt|unstable) variant=$1; shift ;;
-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
*) echo "build-module: usage: $0 $variants [MAKE_ARGS...] (see --help)" >&2; exit 2 ;;
esac
# The distribution kernels are built against in their Debian root, with
# the distribution's toolchain (scripts/stock-kernel.sh).
inroot=0
case "$variant" in stock*|unstable) inroot=1 ;; esac

# A fresh machine has neither the toolchain nor the kernels.
setup_hint="run make test-kernel VARIANT=$variant (scripts/install-deps.sh, then scripts/build-kernel.sh --variant $variant)"
[ "$inroot" = 1 ] || for tool in "$RUSTC" "$BINDGEN" /usr/bin/clang-19; do
	[ -x "$tool" ] || { echo "build-module: $tool is missing: $setup_hint" >&2; exit 2; }
done
kdir=$("$here/build-kernel.sh" --variant "$variant" --print-tree) ||
	{ echo "build-module: cannot name the $variant kernel: $setup_hint" >&2; exit 2; }
vdir=$("$here/build-kernel.sh" --variant "$variant" --print-dir)
if [ ! -f "$vdir/.complete" ] || [ ! -f "$kdir/rust/libkernel.rmeta" ]; then
	echo "build-module: the $variant kernel is not built: $setup_hint" >&2
	exit 2
fi

out=$REPO_DIR/build/$variant
log=$REPO_DIR/build/$variant.log
mkdir -p "$out"
# A module built against another tree (or another build of it) is stale.
if [ "$(cat "$out/.kdir" 2>/dev/null)" != "$kdir" ]; then
	rm -rf "$out"
	mkdir -p "$out"
	echo "$kdir" >"$out/.kdir"
fi

# Mirror the sources: copy what changed, delete what is gone.
cd "$REPO_DIR"
new=$(mktemp)
trap 'rm -f "$new"' EXIT
list_sources() {
	if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git ls-files -z --cached --others --exclude-standard -- "${MODULE_PATHS[@]}"
	else
		# Not a git checkout (e.g. an unpacked archive): every file.
		find "${MODULE_PATHS[@]}" -type f -print0 2>/dev/null
	fi
}
list_sources | while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\n' "$f"; done | sort -u >"$new"
[ -s "$new" ] || { echo "build-module: no module sources found under ${MODULE_PATHS[*]}" >&2; exit 1; }
if [ -f "$out/.sources" ]; then
	comm -23 "$out/.sources" "$new" | while IFS= read -r f; do rm -f "$out/$f"; done
fi
while IFS= read -r f; do
	if ! cmp -s "$f" "$out/$f"; then
		mkdir -p "$out/$(dirname "$f")"
		cp "$f" "$out/$f"
	fi
done <"$new"
cp "$new" "$out/.sources"

flags=("${KMAKE_FLAGS[@]}")
case "$variant" in distro*) flags+=(KBUILD_MODPOST_WARN=1) ;; esac
set +e
if [ "$inroot" = 1 ]; then
	# The root's own tools (rustc, bindgen, clippy-driver on its PATH);
	# the module's copy is mounted at the same path inside.
	root=$("$here/build-kernel.sh" --variant "$variant" --print-dir >/dev/null && "$here/stock-kernel.sh" --variant "$variant" --print-root)
	"$here/in-root.sh" "$root" --bind "$out:$out" -- \
		make -s -C "${kdir#"$root"}" M="$out" -j"$(nproc)" SIM=1 TEST_PMU=1 "$@" modules >"$log" 2>&1
else
	make -s -C "$kdir" M="$out" "${flags[@]}" -j"$(nproc)" SIM=1 TEST_PMU=1 "$@" modules >"$log" 2>&1
fi
rc=$?
set -e
cat "$log" >&2
if [ "$rc" != 0 ]; then
	echo "build-module: the build against the $variant kernel failed" >&2
	exit 1
fi
if grep -q 'warning:' "$log"; then
	echo "build-module: the build against the $variant kernel printed warnings:" >&2
	grep 'warning:' "$log" >&2
	exit 1
fi
# The modules Kbuild built (modules.order names their objects),
# rust_uncore.ko last.
kos=$(sed -n 's/\.o$/.ko/p' "$out/modules.order" 2>/dev/null | awk '/rust_uncore\.ko$/ { last = $0; next } { print } END { if (last != "") print last }' || true)
[ -n "$kos" ] || { echo "build-module: no module in $out/modules.order" >&2; exit 1; }
for ko in $kos; do
	case "$ko" in /*) ;; *) ko=$out/$ko ;; esac
	[ -f "$ko" ] || { echo "build-module: $ko is missing" >&2; exit 1; }
	echo "$ko"
done

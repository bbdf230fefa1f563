#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The top-level Makefile's choices, as Kbuild receives them: a stand-in
# kernel tree (a Makefile that prints the variables it was given, a
# .config, the Rust artifacts' names) takes the place of KDIR, and the
# Makefile runs from a scratch copy, so that nothing in the repository is
# built or removed.
#   - RUSTC, HOSTRUSTC, RUSTDOC, CLIPPY_DRIVER and LLVM given on make's
#     command line win over the defaults;
#   - LLVM follows KDIR's .config (clang N: -N or 1; GCC: none);
#   - a missing KDIR, one without Rust artifacts and one without kernel::ffi
#     stop `make` with the reason; `make clean` without a KDIR stops,
#     removing nothing, when Kbuild's objects are there;
#   - the build says which kernel the .ko is for; `make install` runs
#     modules_install and depmod for KDIR's release;
#   - `make selftest REPORT=FILE [AB=1]` runs the selftests with --report
#     FILE [--ab].
# Usage: tests/host/makefile.sh   (TAP output; exit status 1 on a failure)
set -u
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# t NAME GOT WANT
t() {
	if [ "$2" = "$3" ]; then ok "$1"; else notok "$1"; echo "# got '$2', want '$3'"; fi
}
# has NAME TEXT PATTERN: TEXT has a line matching the extended regex.
has() {
	if printf '%s\n' "$2" | grep -qE -- "$3"; then ok "$1"; else notok "$1"; printf '%s\n' "$2" | sed 's/^/# /'; fi
}

# A stand-in kernel tree: its Makefile prints what Kbuild would get.
# fake_kdir DIR CONFIG_LINES...
fake_kdir() {
	local d=$1
	shift
	mkdir -p "$d/rust" "$d/include/config"
	printf '%s\n' "$@" >"$d/.config"
	echo 6.12.99-fake >"$d/include/config/kernel.release"
	: >"$d/rust/libkernel.rmeta"
	: >"$d/rust/libffi.rmeta"
	mkdir -p "$d/rust/kernel/alloc"
	: >"$d/rust/kernel/alloc/kvec.rs"
	cat >"$d/Makefile" <<'EOF'
show = RUSTC=$(RUSTC) HOSTRUSTC=$(HOSTRUSTC) RUSTDOC=$(RUSTDOC) CLIPPY_DRIVER=$(CLIPPY_DRIVER) LLVM=$(LLVM) CLIPPY=$(CLIPPY) M=$(M)
modules:
	@echo "KBUILD $(show)"
modules_install:
	@echo "KBUILD-INSTALL $(show)"
	@mkdir -p $(INSTALL_MOD_PATH)/lib/modules/6.12.99-fake/updates
clean:
	@echo "KBUILD-CLEAN M=$(M)"
EOF
}
clang=$tmp/kclang
fake_kdir "$clang" CONFIG_CC_IS_CLANG=y CONFIG_CLANG_VERSION=190107
gcc=$tmp/kgcc
fake_kdir "$gcc" CONFIG_CC_IS_GCC=y CONFIG_GCC_VERSION=120200
clang99=$tmp/kclang99
fake_kdir "$clang99" CONFIG_CC_IS_CLANG=y CONFIG_CLANG_VERSION=990000
norust=$tmp/knorust
fake_kdir "$norust" CONFIG_CC_IS_CLANG=y CONFIG_CLANG_VERSION=190107
rm "$norust/rust/libkernel.rmeta" "$norust/rust/libffi.rmeta"
# What a linux-headers package has: no .config (include/config/auto.conf
# instead) and no Rust artifacts.
headers=$tmp/kheaders
fake_kdir "$headers" CONFIG_CC_IS_CLANG=y CONFIG_CLANG_VERSION=190107
mv "$headers/.config" "$headers/include/config/auto.conf"
rm "$headers/rust/libkernel.rmeta" "$headers/rust/libffi.rmeta"
noffi=$tmp/knoffi
fake_kdir "$noffi" CONFIG_CC_IS_CLANG=y CONFIG_CLANG_VERSION=190107
rm "$noffi/rust/libffi.rmeta"
nokvec=$tmp/knokvec
fake_kdir "$nokvec" CONFIG_CC_IS_CLANG=y CONFIG_CLANG_VERSION=190107
rm "$nokvec/rust/kernel/alloc/kvec.rs"

src=$tmp/src
mkdir -p "$src/target" "$src/build"
cp "$repo/Makefile" "$src/Makefile"
# mk ARGS...: runs the copy; prints its output (stdout and stderr) and
# leaves its exit status in rc. The toolchain variables are never taken
# from this environment (check.sh exports the test kernels' ones).
mk() {
	out=$(env -u LLVM -u CLIPPY -u RUSTC -u HOSTRUSTC -u RUSTDOC -u CLIPPY_DRIVER -u BINDGEN \
		make --no-print-directory -C "$src" "$@" 2>&1)
	rc=$?
}
# field NAME: the value of NAME= on the KBUILD line of the last output.
field() { printf '%s\n' "$out" | sed -n "s/^KBUILD[A-Z-]* .*\\b$1=\\([^ ]*\\).*/\\1/p" | head -1; }

def_rustc=
[ ! -x /usr/bin/rustc ] || def_rustc=/usr/bin/rustc
def_rustdoc=
[ ! -x /usr/bin/rustdoc ] || def_rustdoc=/usr/bin/rustdoc
def_llvm=1
[ ! -x /usr/bin/clang-19 ] || def_llvm=-19

mk KDIR="$clang"
t "defaults: make succeeds" "$rc" 0
t "default RUSTC" "$(field RUSTC)" "$def_rustc"
t "default HOSTRUSTC" "$(field HOSTRUSTC)" "$def_rustc"
t "default RUSTDOC" "$(field RUSTDOC)" "$def_rustdoc"
t "clang 19 kernel: LLVM from its .config" "$(field LLVM)" "$def_llvm"
t "the module is built in the directory of the Makefile" "$(field M)" "$src"
has "the build says which kernel the .ko is for" "$out" "^rust_uncore.ko is for kernel 6\.12\.99-fake \(KDIR=$clang\)$"

mk KDIR="$clang" RUSTC=/opt/rust/bin/rustc
t "make RUSTC=... is honoured" "$(field RUSTC)" /opt/rust/bin/rustc
t "HOSTRUSTC follows a RUSTC given on the command line" "$(field HOSTRUSTC)" /opt/rust/bin/rustc
t "RUSTDOC: none next to that RUSTC, so Kbuild's default" "$(field RUSTDOC)" ""
t "CLIPPY_DRIVER: none next to that RUSTC, so Kbuild's default" "$(field CLIPPY_DRIVER)" ""

mk KDIR="$clang" HOSTRUSTC=/h/rustc RUSTDOC=/d/rustdoc CLIPPY_DRIVER=/c/clippy-driver CLIPPY=1
t "make HOSTRUSTC=... is honoured" "$(field HOSTRUSTC)" /h/rustc
t "make RUSTDOC=... is honoured" "$(field RUSTDOC)" /d/rustdoc
t "make CLIPPY_DRIVER=... is honoured" "$(field CLIPPY_DRIVER)" /c/clippy-driver
t "make CLIPPY=1 reaches Kbuild" "$(field CLIPPY)" 1
t "RUSTC keeps its default beside them" "$(field RUSTC)" "$def_rustc"

mk KDIR="$clang" LLVM=1
t "make LLVM=1 is honoured" "$(field LLVM)" 1
out=$(LLVM=-17 make --no-print-directory -C "$src" KDIR="$clang" 2>&1)
t "an LLVM in the environment is left to Kbuild" "$(field LLVM)" -17

mk KDIR="$gcc"
t "GCC-built kernel: make succeeds" "$rc" 0
t "GCC-built kernel: no LLVM" "$(field LLVM)" ""
mk KDIR="$clang99"
t "clang 99 (not installed): LLVM=1" "$(field LLVM)" 1

mk KDIR="$tmp/nonexistent"
t "missing KDIR: make fails" "$rc" 2
has "missing KDIR: the reason is given" "$out" "KDIR=$tmp/nonexistent is not a configured kernel build tree"
: >"$src/rust_uncore.ko"
mk KDIR="$tmp/nonexistent" clean
t "missing KDIR, Kbuild's objects here: make clean fails" "$rc" 2
has "missing KDIR, Kbuild's objects here: make clean gives the reason" "$out" "KDIR=$tmp/nonexistent is not a kernel build tree, and Kbuild's objects are here"
t "missing KDIR, Kbuild's objects here: make clean removes nothing" \
	"$(ls -d "$src/target" "$src/build" "$src/rust_uncore.ko" 2>/dev/null | wc -l)" 3
rm "$src/rust_uncore.ko"
mk KDIR="$tmp/nonexistent" clean
t "missing KDIR, no Kbuild objects: make clean succeeds" "$rc" 0
t "missing KDIR, no Kbuild objects: make clean removes target/ and build/" "$(ls -d "$src/target" "$src/build" 2>/dev/null | wc -l)" 0
mkdir -p "$src/target" "$src/build"
# refuses WHAT TREE CHECK PATTERN: make with KDIR=TREE fails (status 2),
# and its output matches PATTERN (the check CHECK).
refuses() {
	mk KDIR="$2"
	t "$1: make fails" "$rc" 2
	has "$1: $3" "$out" "$4"
}
refuses "KDIR without Rust artifacts" "$norust" "linux-headers named" "has no Rust build .*|linux-headers"
refuses "a linux-headers tree" "$headers" "the reason is given" "KDIR=$headers has no Rust build"
refuses "KDIR without kernel::ffi" "$noffi" "the reason is given" "no kernel::ffi crate"
refuses "KDIR without KVec" "$nokvec" "what it lacks is named" "no KVec in its kernel crate \\(rust/kernel/alloc/kvec.rs\\)"
has "a linux-headers tree: make stock is named" "$(mk KDIR="$headers"; echo "$out")" "run make stock"

mk KDIR="$clang" clean
t "make clean with a kernel tree" "$rc" 0
has "make clean asks Kbuild" "$out" "^KBUILD-CLEAN M=$src$"
t "make clean removes target/ and build/" "$(ls -d "$src/target" "$src/build" 2>/dev/null | wc -l)" 0

mk KDIR="$clang" INSTALL_MOD_PATH="$tmp/root" install
t "make install succeeds" "$rc" 0
has "make install: Kbuild's modules_install" "$out" "^KBUILD-INSTALL .*M=$src"
has "make install: depmod for KDIR's release" "$out" "depmod -b $tmp/root -a 6\.12\.99-fake$"
t "make install: depmod wrote its index" "$(ls "$tmp/root/lib/modules/6.12.99-fake/modules.dep" 2>/dev/null | wc -l)" 1

# make help: every target a user runs, in one screen.
help=$(make -s -C "$repo" help 2>&1)
t "make help exits 0" "$?" 0
missing=""
for target in $(sed -n 's/^\.PHONY: *//; T; s/\\$//; p; :a; n; s/^\t//; s/\\$//; p; /\\$/ba' "$repo/Makefile" | tr ' ' '\n' | grep -vxE 'all|ru-kdir|modules'); do
	printf '%s\n' "$help" | grep -qE "^  make $target( |$)" || missing="$missing $target"
done
t "make help lists every target (missing:${missing:- none})" "$missing" ""
t "make help fits one screen ($(printf '%s\n' "$help" | wc -l) lines)" "$([ "$(printf '%s\n' "$help" | wc -l)" -le 24 ] && echo yes)" yes

# The selftests' target, as the README and the admin guide show it: the
# command it runs (make -n).
mk -n selftest REPORT=uncore-report.txt
t "make selftest REPORT=uncore-report.txt runs the selftests with --report" "$out" \
	"tests/selftests/uncore/run_tests.sh --report uncore-report.txt "
mk -n selftest REPORT=uncore-report.txt AB=1
t "make selftest REPORT=uncore-report.txt AB=1 adds --ab" "$out" \
	"tests/selftests/uncore/run_tests.sh --report uncore-report.txt --ab"

echo "1..$tap_n"
exit $failed

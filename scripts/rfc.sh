#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Writes the patch series "rust: perf: add a PMU abstraction" (`make rfc`):
# the files under rfc/ (the kernel tree's paths: rust/kernel/perf.rs,
# rust/kernel/perf/, rust/helpers/perf.c, samples/rust/rust_pmu.rs), the
# edits of existing kernel files each patch makes (below), the commit
# messages of rfc/messages/ and the cover letter rfc/cover-letter.txt, as
# `git format-patch` output against Debian's linux-source-7.3 (the source
# package of the stock kernel, in the Debian 13 root scripts/stock-kernel.sh
# makes).
#
# The base tree is that source unpacked into a git repository, one commit,
# kept in $CACHE_DIR/rfc/base-<key> (the key hashes the source package's
# version and this recipe); scripts/rfc-check.sh applies the series to it.
#
# The patches are addressed to perf's maintainers (To: Peter Zijlstra, Ingo
# Molnar, Kan Liang, who are also the R: of the series' MAINTAINERS entry;
# Cc: Arnaldo Carvalho de Melo and Namhyung Kim for perf's tools, the Rust
# maintainers and the lists).
#
# Usage: scripts/rfc.sh [--out DIR] [--print-base] [--test-identity]
#   --out DIR          write the series there (default build/rfc); the old
#                      patches there are removed first
#   --print-base       only print the base tree (making it if needed)
#   --test-identity    author and sign off as "RFC Check
#                      <rfc-check@example.com>" (scripts/rfc-check.sh; a
#                      series nobody may send)
#   --help             this text
# The patches' author, Signed-off-by and MAINTAINERS M: are
# RFC_AUTHOR_NAME and RFC_AUTHOR_EMAIL from the environment, else `git
# config user.name` and `user.email`; an address nobody can answer (a
# domain reserved for examples or tests, localhost, a no-reply address,
# the old placeholder) is refused.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

out=$REPO_DIR/build/rfc
print_base=0
test_identity=0
while [ $# -gt 0 ]; do
	case "$1" in
	--out) out=${2:?--out needs a directory}; shift 2 ;;
	--print-base) print_base=1; shift ;;
	--test-identity) test_identity=1; shift ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "rfc: unknown option $1 (see --help)" >&2; exit 2 ;;
	esac
done
die() { echo "rfc: $*" >&2; exit 1; }

# Bump when the base tree's recipe changes.
RECIPE=1
root=$("$here/stock-kernel.sh" --variant stock --print-root 2>/dev/null) ||
	die "no Debian 13 root: run scripts/build-kernel.sh --variant stock first"
tarball=$root/usr/src/linux-source-7.3.tar.xz
[ -f "$tarball" ] || die "no $tarball in the Debian 13 root"
version=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Version}' linux-source-7.3 2>/dev/null) ||
	die "linux-source-7.3 is not installed in $root"
key=$(printf '%s\n' "$version" "$RECIPE" | sha256sum | cut -c1-16)
base=$CACHE_DIR/rfc/base-$key

# The base tree: the source as Debian ships it, committed (its top-level
# .gitignore ignores everything at the top: -f).
git_q() { git -c user.name=base -c user.email=base@localhost -c advice.detachedHead=false "$@"; }
if [ ! -f "$base/.rfc-base-done" ]; then
	mkdir -p "$CACHE_DIR/rfc"
	for old in "$CACHE_DIR"/rfc/base-*; do [ "$old" = "$base" ] || rm -rf "$old"; done
	rm -rf "$base"
	tmp=$base.tmp
	rm -rf "$tmp"; mkdir -p "$tmp"
	tar -xJf "$tarball" -C "$tmp"
	mv "$tmp/linux-source-7.3" "$base"; rmdir "$tmp"
	(
		cd "$base"
		git_q init -q
		git_q add -f -A .
		GIT_AUTHOR_DATE="1970-01-01T00:00:00Z" GIT_COMMITTER_DATE="1970-01-01T00:00:00Z" git_q commit -q -m "Debian linux-source-7.3 $version"
	)
	touch "$base/.rfc-base-done"
fi
if [ "$print_base" = 1 ]; then echo "$base"; exit 0; fi

# The author: a name and an address someone answers at.
if [ "$test_identity" = 1 ]; then
	author_name="RFC Check" author_email=rfc-check@example.com
else
	author_name=${RFC_AUTHOR_NAME:-$(git -C "$REPO_DIR" config user.name || true)}
	author_email=${RFC_AUTHOR_EMAIL:-$(git -C "$REPO_DIR" config user.email || true)}
	domain=$(printf '%s' "${author_email##*@}" | tr 'A-Z' 'a-z')
	why=
	case "$author_email" in
	*@*@* | *[[:space:]\<\>]* | @* | *@) why="is not an address" ;;
	*@*) ;;
	*) why="is not an address" ;;
	esac
	case "$domain" in
	example.com | example.net | example.org | *.example | *.example.com | *.example.net | \
		*.example.org | *.invalid | *.test | localhost | *.localhost | *.local | *.localdomain | \
		*noreply*)
		why=${why:-"is nobody's address (a reserved, local or no-reply domain)"} ;;
	esac
	[ -n "$author_name" ] || why=${why:-"has no name"}
	[ "$author_name" != "Rust Uncore Developers" ] || why=${why:-"is the placeholder"}
	[ -z "$why" ] || die "the author '$author_name <$author_email>' $why: set RFC_AUTHOR_NAME and RFC_AUTHOR_EMAIL (or git config user.name and user.email) to the person who sends the series"
fi
author="$author_name <$author_email>"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Only the paths the series touches are checked out (a sparse checkout:
# seconds instead of the whole tree's minute).
git_q clone -q --shared --no-checkout "$base" "$work/tree"
cd "$work/tree"
git_q sparse-checkout set --no-cone /MAINTAINERS /rust/helpers/ /rust/bindings/ /rust/kernel/lib.rs \
	/rust/kernel/perf.rs /rust/kernel/perf/ /samples/rust/
git_q checkout -q

# insert_after FILE ANCHOR TEXT: inserts TEXT (lines) after the first line
# equal to ANCHOR; fails when there is none.
insert_after() {
	local file=$1 anchor=$2 text=$3
	grep -qxF -- "$anchor" "$file" || die "$file has no line '$anchor'"
	ANCHOR=$anchor TEXT=$text awk '
		!done && $0 == ENVIRON["ANCHOR"] { print; print ENVIRON["TEXT"]; done = 1; next }
		{ print }' "$file" >"$file.new"
	mv "$file.new" "$file"
}
# insert_before FILE ANCHOR TEXT: inserts TEXT (lines) before the first line
# equal to ANCHOR; fails when there is none.
insert_before() {
	local file=$1 anchor=$2 text=$3
	grep -qxF -- "$anchor" "$file" || die "$file has no line '$anchor'"
	ANCHOR=$anchor TEXT=$text awk '
		!done && $0 == ENVIRON["ANCHOR"] { print ENVIRON["TEXT"]; done = 1 }
		{ print }' "$file" >"$file.new"
	mv "$file.new" "$file"
}
# copy PATH...: copies rfc/PATH into the tree.
copy() {
	local p
	for p in "$@"; do
		mkdir -p "$(dirname "$p")"
		cp "$REPO_DIR/rfc/$p" "$p"
	done
}
# commit MESSAGE: commits everything changed, with the message file of
# rfc/messages/ and a Signed-off-by; one date for every patch (the newest
# commit of rfc/ in this repository) so that the series is reproducible.
date=$(git -C "$REPO_DIR" log -1 --format=%cI -- rfc 2>/dev/null || true)
date=${date:-2026-11-27T00:00:00+00:00}
commit() {
	{ cat "$REPO_DIR/rfc/messages/$1"; echo; echo "Signed-off-by: $author"; } >"$work/msg"
	git_q add -f -A .
	GIT_AUTHOR_NAME=$author_name GIT_AUTHOR_EMAIL=$author_email \
		GIT_COMMITTER_NAME=$author_name GIT_COMMITTER_EMAIL=$author_email \
		GIT_AUTHOR_DATE=$date GIT_COMMITTER_DATE=$date \
		git commit -q -F "$work/msg"
}

# 1: the helpers and the bindings, and the MAINTAINERS entry.
copy rust/helpers/perf.c
insert_after rust/helpers/helpers.c '#include "pci.c"' '#include "perf.c"'
insert_after rust/bindings/bindings_helper.h '#include <linux/pci.h>' '#include <linux/perf_event.h>'
insert_after rust/bindings/bindings_helper.h 'const vm_flags_t RUST_CONST_HELPER_VM_NOHUGEPAGE = VM_NOHUGEPAGE;' '
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_NONE = PERF_PMU_SCOPE_NONE;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_CORE = PERF_PMU_SCOPE_CORE;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_DIE = PERF_PMU_SCOPE_DIE;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_CLUSTER = PERF_PMU_SCOPE_CLUSTER;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_PKG = PERF_PMU_SCOPE_PKG;
const unsigned int RUST_CONST_HELPER_PERF_PMU_SCOPE_SYS_WIDE = PERF_PMU_SCOPE_SYS_WIDE;
const unsigned int RUST_CONST_HELPER_PERF_EV_CAP_READ_ACTIVE_PKG = PERF_EV_CAP_READ_ACTIVE_PKG;'
insert_after MAINTAINERS 'F:	tools/perf/' "
PERFORMANCE EVENTS SUBSYSTEM [RUST]
M:	$author
R:	Peter Zijlstra <peterz@infradead.org>
R:	Ingo Molnar <mingo@redhat.com>
R:	Kan Liang <kan.liang@linux.intel.com>
L:	linux-perf-users@vger.kernel.org
L:	rust-for-linux@vger.kernel.org
S:	Maintained
F:	rust/helpers/perf.c"
commit 1-helpers.txt

# 2: the abstractions.
copy rust/kernel/perf.rs rust/kernel/perf/attr.rs rust/kernel/perf/context.rs rust/kernel/perf/event.rs \
	rust/kernel/perf/pmu.rs
insert_after rust/kernel/lib.rs 'pub mod pci;' '#[cfg(CONFIG_PERF_EVENTS)]
pub mod perf;'
insert_after MAINTAINERS 'F:	rust/helpers/perf.c' 'F:	rust/kernel/perf.rs
F:	rust/kernel/perf/'
commit 2-perf.txt

# 3: the sample.
copy samples/rust/rust_pmu.rs
# After SAMPLE_RUST_PRINT, inside `if SAMPLES_RUST` (scripts/rfc-check.sh
# checks where it landed).
insert_before samples/rust/Kconfig 'config SAMPLE_RUST_DMA' 'config SAMPLE_RUST_PMU
	tristate "perf PMU"
	depends on PERF_EVENTS
	help
	  This option builds the Rust perf PMU sample: a software PMU,
	  rust_pmu, that counts the nanoseconds its events run for,
	  registered under a faux device of the same name.

	  To compile this as a module, choose M here:
	  the module will be called rust_pmu.

	  If unsure, say N.
'
insert_after samples/rust/Makefile 'obj-$(CONFIG_SAMPLE_RUST_PRINT)			+= rust_print.o' \
	'obj-$(CONFIG_SAMPLE_RUST_PMU)			+= rust_pmu.o'
insert_after MAINTAINERS 'F:	rust/kernel/perf/' 'F:	samples/rust/rust_pmu.rs'
commit 3-sample.txt

# The series, and the cover letter's subject and text in place of
# format-patch's placeholders.
rm -rf "$out"; mkdir -p "$out"
to=("Peter Zijlstra <peterz@infradead.org>" "Ingo Molnar <mingo@redhat.com>"
	"Kan Liang <kan.liang@linux.intel.com>")
cc=("Arnaldo Carvalho de Melo <acme@kernel.org>" "Namhyung Kim <namhyung@kernel.org>"
	"Miguel Ojeda <ojeda@kernel.org>" "Boqun Feng <boqun@kernel.org>" "Gary Guo <gary@garyguo.net>"
	"Björn Roy Baron <bjorn3_gh@protonmail.com>" "Benno Lossin <lossin@kernel.org>"
	"Andreas Hindborg <a.hindborg@kernel.org>" "Alice Ryhl <aliceryhl@google.com>"
	"Trevor Gross <tmgross@umich.edu>" "Danilo Krummrich <dakr@kernel.org>"
	linux-perf-users@vger.kernel.org rust-for-linux@vger.kernel.org linux-kernel@vger.kernel.org)
addr=()
for a in "${to[@]}"; do addr+=(--to="$a"); done
for a in "${cc[@]}"; do addr+=(--cc="$a"); done
git -c user.name="$author_name" -c user.email="$author_email" \
	format-patch -q --cover-letter --subject-prefix="RFC PATCH v2" "${addr[@]}" -o "$out" HEAD~3..HEAD
cover=$(ls "$out"/0000-*.patch)
subject=$(head -1 "$REPO_DIR/rfc/cover-letter.txt")
SUBJECT=$subject BLURB_FILE=$REPO_DIR/rfc/cover-letter.txt awk '
	/\*\*\* SUBJECT HERE \*\*\*/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, ENVIRON["SUBJECT"]) }
	/^\*\*\* BLURB HERE \*\*\*$/ {
		n = 0
		while ((getline line < ENVIRON["BLURB_FILE"]) > 0) { if (n++ >= 2) print line }
		next
	}
	{ print }' "$cover" >"$cover.new"
mv "$cover.new" "$cover"
echo "rfc: $(ls "$out" | wc -l) files in $out, against linux-source-7.3 $version:"
git diff --stat HEAD~3 HEAD | tail -1

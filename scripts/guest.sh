#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs shell scripts inside a QEMU (TCG) guest booted on a cached test
# kernel, and prints each script's output and exit status.
#
# Usage: scripts/guest.sh [options] --script FILE [--script FILE...]
#   --kernel K       the kernel to boot: the test kernels debug (default),
#                    nodebug or rt, or stock, Debian's own trixie-backports
#                    kernel (scripts/build-kernel.sh --variant K), with the
#                    modules built for it: build/K/rust_uncore.ko and
#                    build/K/rust_uncore_sim.ko, made by
#                    scripts/build-module.sh K
#   --module FILE    load FILE instead of build/K/rust_uncore.ko
#   --cpu MODEL      QEMU -cpu value (default: SandyBridge,model=45,-hypervisor)
#   --smp TOPOLOGY   QEMU -smp value (default: 4,sockets=2,cores=2)
#   --modargs ARGS   module parameters; with sim= (e.g. "sim=snbep:2")
#                    the simulation module rust_uncore_sim.ko is loaded,
#                    else rust_uncore.ko
#   --no-load        do not insmod the module before the script
#   --no-leak-check  skip the kmemleak scan after the scripts (the nodebug
#                    and rt kernels have no kmemleak: never scanned)
#   --append ARGS    more kernel command-line parameters
#   --mem MB         guest memory (default: 512)
#   --timeout SECS   whole-run limit (default: 300)
#   --script FILE    a script to run (at least one)
#   --batch LIST     scripts with their own settings, one per line:
#                    "LOAD|MODARGS|FILE", LOAD 1 or 0 (--no-load)
#   --outdir DIR     write results to DIR instead of printing them:
#                    N.out, N.status (script N), boot.status, boot.err,
#                    console.log
#   --quiet          print only the scripts' output and the verdicts
#   --help           this text
#
# On a fresh machine, `make test-kernel VARIANT=K` installs the packages and
# builds the kernel K; `make guest` also builds the module.
#
# The guest has busybox, perf, the modules (/lib/modules/rust_uncore.ko,
# and the simulation module rust_uncore_sim.ko and the test PMU module
# rust_test_pmu.ko built with it), the kernel's own C
# driver (/lib/modules/intel-uncore.ko), the test library and tools and
# README.md and Documentation/platforms.rst (/tests). On the stock kernel it also has what the
# README's commands installed in its Debian root (/lib/modules/<release>/,
# for modprobe), and what the Debian package's install made of that
# directory in a copy of the root (/deb/lib/modules/<release>/) and the
# selftests and rust-uncore-report it installed (/deb/usr/). MODARGS is also exported to the script. Between scripts
# the guest unloads what a script left loaded and brings every CPU online.
# The tools (tests/tools/*.c and the selftests' uncore_load, static
# binaries) are built when missing or
# older than their source.
#
# Before booting, the module's vermagic must equal that of the kernel's own
# modules, and build/K/rust_uncore.ko must have been built against the
# kernel tree booted (not an older build of K): otherwise it stops, with
# status 2, and says how to rebuild it.
#
# TCG_OPTS in the environment adds options to QEMU's "-accel tcg" (e.g.
# thread=single: all vCPUs in one host thread, which make check uses when
# it runs guests side by side).
#
# The cache directory, $UNCORE_CACHE_DIR (by default
# ${XDG_CACHE_HOME:-~/.cache}/rust-uncore), holds the test kernels, the
# initramfs images, the guest tools and the whole console log of the last
# run (last-console.log).
#
# Exit status: the first failing script's exit status, else 0; 2 on a usage
# error or a missing or mismatched kernel or module; 124 on timeout; 125
# when the kernel log shows an oops, BUG, WARNING, CFI failure, lockdep,
# KASAN or kmemleak report; 126 when the guest did not run a script to its
# end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

kernel=debug
cpu="SandyBridge,model=45,-hypervisor"
smp="4,sockets=2,cores=2"
modargs=""
autoload=1
leakcheck=1
timeout=300
mem=512
scripts=()
batch=""
outdir=""
quiet=0
module=""
extra=""
# value OPTION ARGS...: the option's value (its next argument), or a stop.
value() { opt_value guest "$@"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$(value "$@"); shift 2 ;;
	--module) module=$(value "$@"); shift 2 ;;
	--cpu) cpu=$(value "$@"); shift 2 ;;
	--smp) smp=$(value "$@"); shift 2 ;;
	--modargs) modargs=$(value "$@"); shift 2 ;;
	--no-load) autoload=0; shift ;;
	--no-leak-check) leakcheck=0; shift ;;
	--mem) mem=$(value "$@"); shift 2 ;;
	--append) extra=$(value "$@"); shift 2 ;;
	--timeout) timeout=$(value "$@"); shift 2 ;;
	--script) scripts+=("$(value "$@")"); shift 2 ;;
	--batch) batch=$(value "$@"); shift 2 ;;
	--outdir) outdir=$(value "$@"); shift 2 ;;
	--quiet) quiet=1; shift ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "guest: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done

# The run list: LOAD, MODARGS and FILE of each script.
loads=() margs=() files=()
for s in "${scripts[@]}"; do
	loads+=("$autoload"); margs+=("$modargs"); files+=("$s")
done
if [ -n "$batch" ]; then
	[ -f "$batch" ] || { echo "guest: no such batch list: $batch" >&2; exit 2; }
	while IFS='|' read -r l m f; do
		[ -n "$f" ] || continue
		loads+=("$l"); margs+=("$m"); files+=("$f")
	done <"$batch"
fi
[ ${#files[@]} -gt 0 ] || { echo "guest: --script FILE is required" >&2; exit 2; }
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "guest: no such script: $f" >&2; exit 2; }
done

case "$kernel" in
debug|nodebug|rt|stock) ;;
distro*|stock-rt|unstable) echo "guest: the $kernel kernel is only compiled against, not booted: use debug, nodebug, rt or stock" >&2; exit 2 ;;
*) echo "guest: unknown kernel '$kernel' (debug, nodebug, rt or stock)" >&2; exit 2 ;;
esac
# A fresh machine has neither the toolchain nor the kernels.
setup_hint="run make test-kernel VARIANT=$kernel (scripts/install-deps.sh, then scripts/build-kernel.sh --variant $kernel)"
for tool in /usr/bin/qemu-system-x86_64 /sbin/modinfo; do
	[ -x "$tool" ] || { echo "guest: $tool is missing: $setup_hint" >&2; exit 2; }
done
kdir=$("$here/build-kernel.sh" --variant "$kernel" --print-tree) &&
	boot=$("$here/build-kernel.sh" --variant "$kernel" --print-boot) ||
	{ echo "guest: cannot name the $kernel kernel: $setup_hint" >&2; exit 2; }
[ -f "$boot/bzImage" ] && [ -f "$boot/../.complete" ] ||
	{ echo "guest: no $kernel kernel: $setup_hint" >&2; exit 2; }
if [ -n "$module" ]; then
	ko=$module
	[ -f "$ko" ] || { echo "guest: no such module: $ko" >&2; exit 2; }
else
	ko=$REPO_DIR/build/$kernel/rust_uncore.ko
	[ -f "$ko" ] || { echo "guest: $ko not built; run scripts/build-module.sh $kernel (make guest builds it)" >&2; exit 2; }
	# build-module.sh records the tree it built against; a rebuilt kernel
	# (new inputs, new tree) may keep the vermagic but not the Rust ABI.
	built=$(cat "$REPO_DIR/build/$kernel/.kdir" 2>/dev/null || true)
	[ "$built" = "$kdir" ] || [ "$(cd "$built" 2>/dev/null && pwd -P)" = "$(cd "$kdir" && pwd -P)" ] ||
		{ echo "guest: $ko was built against ${built:-an unknown tree}, not the $kernel kernel booted ($kdir); run scripts/build-module.sh $kernel" >&2; exit 2; }
fi
# The module must be for this kernel: the vermagic of the kernel's own
# modules (its C uncore driver, which the guest also carries).
ref=$boot/intel-uncore.ko
want=$(/sbin/modinfo -F vermagic "$ref" 2>/dev/null || true)
got=$(/sbin/modinfo -F vermagic "$ko" 2>/dev/null || true)
[ -n "$want" ] || { echo "guest: no module of the $kernel kernel to read its vermagic from ($ref)" >&2; exit 2; }
if [ "$got" != "$want" ]; then
	echo "guest: $ko is built for another kernel: vermagic '${got:-none}', the $kernel kernel's is '$want'" >&2
	echo "guest: rebuild it for this kernel: scripts/build-module.sh $kernel" >&2
	exit 2
fi

# The guest tools: built when missing or older than their source (make
# check builds them all first). A tool that does not build is left out,
# with a warning: the tests that run it fail.
tools=$CACHE_DIR/guest-tools
mkdir -p "$tools"
for src in "$REPO_DIR"/tests/tools/*.c "$REPO_DIR"/tests/selftests/uncore/uncore_load.c; do
	[ -f "$src" ] || continue
	tool=$tools/$(basename "$src" .c)
	[ ! "$src" -nt "$tool" ] && [ -x "$tool" ] && continue
	tmp=$(mktemp "$tool.XXXXXX")
	if gcc -static -O2 -Wall -Werror -o "$tmp" "$src"; then
		mv "$tmp" "$tool"
	else
		rm -f "$tmp"
		echo "guest: warning: the guest tool $(basename "$src") does not build; the tests that run it will fail" >&2
	fi
done
# kmemleak is off unless asked for, where the kernel has it.
append="console=ttyS0 loglevel=4 panic=-1 oops=panic nokaslr${extra:+ $extra}"
if grep -qx 'CONFIG_DEBUG_KMEMLEAK=y' "$boot/config"; then
	append="$append kmemleak=on"
fi

base=$("$here/mkinitramfs.sh" "$boot")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The per-run overlay: module, tests, the scripts and their settings.
mkdir -p "$work/root/lib/modules" "$work/root/run" "$work/root/tests"
cp "$ko" "$work/root/lib/modules/rust_uncore.ko"
# The simulation and test PMU modules built with it (build-module.sh
# builds the three).
for m in rust_uncore_sim rust_test_pmu; do
	if [ -z "$module" ] && [ -f "$(dirname "$ko")/$m.ko" ]; then
		cp "$(dirname "$ko")/$m.ko" "$work/root/lib/modules/"
	fi
done
cp -r "$REPO_DIR/tests/guest/." "$work/root/tests/"
cp -r "$REPO_DIR/tests/selftests" "$work/root/tests/"
cp "$REPO_DIR/README.md" "$work/root/tests/"
# The list of deliberate differences from the C driver (33-c-writes).
cp "$REPO_DIR/Documentation/platforms.rst" "$work/root/tests/"
if [ "$kernel" = stock ]; then
	# What the README's commands installed in the Debian root (check.sh
	# runs them), without the link to the headers.
	root=$("$here/stock-kernel.sh" --variant stock --print-root)
	release=$(cat "$boot/../release")
	if [ -d "$root/lib/modules/$release" ]; then
		mkdir -p "$work/root/lib/modules/$release"
		(cd "$root/lib/modules/$release" && find . -path ./build -prune -o -print | cpio -pdm --quiet "$work/root/lib/modules/$release")
	fi
	# What the Debian package's install made of it in a copy of that root
	# (tests/host/deb.sh), at /deb/lib/modules/<release>, and the
	# selftests and command it installed (/deb/usr/).
	if [ -d "$boot/../deb/lib/modules/$release" ]; then
		mkdir -p "$work/root/deb/lib/modules"
		cp -a "$boot/../deb/lib/modules/$release" "$work/root/deb/lib/modules/"
	fi
	if [ -d "$boot/../deb/usr" ]; then
		cp -a "$boot/../deb/usr" "$work/root/deb/"
	fi
fi
if [ -d "$CACHE_DIR/guest-tools" ]; then
	cp -r "$CACHE_DIR/guest-tools/." "$work/root/tests/"
fi
n=${#files[@]}
for i in $(seq 1 "$n"); do
	mkdir -p "$work/root/run/$i"
	cp "${files[$((i - 1))]}" "$work/root/run/$i/script.sh"
	{
		printf 'MODARGS=%q\n' "${margs[$((i - 1))]}"
		printf 'AUTOLOAD=%s\n' "${loads[$((i - 1))]}"
	} >"$work/root/run/$i/run.conf"
done
[ "$leakcheck" = 1 ] || : >"$work/root/run/no-leak-check"
(cd "$work/root" && find . | cpio -o -H newc --quiet) >"$work/overlay.cpio"
cat "$base" "$work/overlay.cpio" >"$work/initrd.cpio"

log=$work/console.log
set +e
timeout --foreground "$timeout" qemu-system-x86_64 -accel "tcg${TCG_OPTS:+,$TCG_OPTS}" -cpu "$cpu" -smp "$smp" -m "$mem" \
	-nographic -serial mon:stdio -serial "file:$work/results.log" -no-reboot -kernel "$boot/bzImage" -initrd "$work/initrd.cpio" \
	-append "$append" \
	</dev/null >"$log" 2>&1
qrc=$?
set -e
# Drop carriage returns and the firmware's terminal escapes.
tidy() { tr -d '\r' | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g'; }
console=$work/console.clean
tidy <"$log" >"$console"
# What the guest's /init wrote to the second serial port: the scripts'
# output and status, their kernel logs and the kmemleak report.
clean=$work/results.clean
tidy <"$work/results.log" >"$clean" 2>/dev/null || : >"$clean"
mkdir -p "$CACHE_DIR"
cat "$console" "$clean" >"$CACHE_DIR/last-console.log"

# section NAME ID: the lines between "NAME-BEGIN ID" and "NAME-END ID".
section() { sed -n "/^$1-BEGIN${2:+ $2}\$/,/^$1-END${2:+ $2}\$/p" "$clean" | sed '1d;$d'; }
# problems: the kernel-log lines of stdin that report a bug.
problems() {
	grep -E 'Oops|BUG:|WARNING:|CFI failure|Kernel panic|NMI received for unknown reason|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|KASAN|UBSAN|general protection fault|sleeping function called from invalid context|scheduling while atomic' | sort -u || true
}

res=$work/results
mkdir -p "$res"
cat "$console" "$clean" >"$res/console.log"
: >"$res/boot.err"
boot=0
# report FILE WHAT TEXT: appends "guest: WHAT:" and TEXT, each line
# indented, to FILE.
report() {
	echo "guest: $2:" >>"$1"
	printf '%s\n' "$3" | sed 's/^/guest:   /' >>"$1"
}
for i in $(seq 1 "$n"); do
	sed -n "/^GUEST-SCRIPT-BEGIN $i\$/,/^GUEST-SCRIPT-END $i status=/p" "$clean" |
		sed '1d' | sed '/^GUEST-SCRIPT-END /d' >"$res/$i.out"
	status=$(sed -n "s/^GUEST-SCRIPT-END $i status=\([0-9]*\)\$/\1/p" "$clean")
	bad=$(section GUEST-DMESG "$i" | problems)
	if [ -z "$status" ] || ! grep -q "^GUEST-SCRIPT-BEGIN $i\$" "$clean"; then
		echo "guest: the script did not run to its end, or its output was lost" >>"$res/$i.out"
		status=126
	elif [ -n "$bad" ]; then
		report "$res/$i.out" "kernel reported a problem" "$bad"
		status=125
	fi
	echo "$status" >"$res/$i.status"
done
# What the kernel said outside the scripts: at boot, in the kmemleak scan,
# at power-off, or on the console alone (a panic).
inscripts=$(for i in $(seq 1 "$n"); do section GUEST-DMESG "$i"; done | problems)
outside=$( {
	section GUEST-DMESG end
	cat "$console"
} | problems | comm -23 - <(printf '%s\n' "$inscripts" | sort -u))
leaks=$(section GUEST-KMEMLEAK "")
if [ "$qrc" = 124 ]; then
	echo "guest: timeout after ${timeout}s" >>"$res/boot.err"
	boot=124
fi
if [ -n "$outside" ]; then
	report "$res/boot.err" "kernel reported a problem" "$outside"
	boot=125
fi
if [ -n "$(printf '%s' "$leaks" | tr -d '[:space:]')" ]; then
	report "$res/boot.err" "kmemleak reported leaks" "$(printf '%s\n' "$leaks" | head -40)"
	boot=125
fi
echo "$boot" >"$res/boot.status"

if [ -n "$outdir" ]; then
	mkdir -p "$outdir"
	cp -r "$res/." "$outdir/"
	exit 0
fi

verdict=0
for i in $(seq 1 "$n"); do
	[ "$n" = 1 ] || echo "guest: --- ${files[$((i - 1))]}"
	cat "$res/$i.out"
	s=$(cat "$res/$i.status")
	[ "$n" = 1 ] || [ "$quiet" = 1 ] || echo "guest: exit status $s"
	[ "$verdict" != 0 ] || verdict=$s
done
cat "$res/boot.err" >&2
[ "$boot" = 0 ] || verdict=$boot
if [ "$verdict" != 0 ] && [ "$quiet" = 0 ]; then
	echo "guest: ---- console log ----" >&2
	tail -200 "$res/console.log" >&2
fi
[ "$n" != 1 ] || [ "$quiet" = 1 ] || echo "guest: exit status $verdict"
exit "$verdict"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs one shell script inside a QEMU (TCG) guest booted on the cached test
# kernel, and prints the script's output and exit status.
#
# Usage: scripts/guest.sh [options] --script FILE
#   --cpu MODEL      QEMU -cpu value (default: SandyBridge,model=45,-hypervisor)
#   --smp TOPOLOGY   QEMU -smp value (default: 4,sockets=2,cores=2)
#   --modargs ARGS   parameters for rust_uncore.ko (e.g. "sim=snbep:2")
#   --no-load        do not insmod rust_uncore.ko before the script
#   --no-leak-check  skip the kmemleak scan after the script
#   --timeout SECS   whole-run limit (default: 300)
#   --script FILE    the script to run (required)
#   --quiet          print only the script's output and the verdict
#
# The guest has busybox, perf, the module (/lib/modules/rust_uncore.ko), the
# kernel's own C driver (/lib/modules/intel-uncore.ko), the test library and
# tools (/tests). MODARGS is also exported to the script.
#
# The whole console log of the last run is kept in
# ${XDG_CACHE_HOME:-~/.cache}/rust-uncore/last-console.log.
#
# Exit status: the script's exit status; 124 on timeout; 125 when the kernel
# log shows an oops, BUG, WARNING, lockdep, KASAN or kmemleak report; 126
# when the guest did not run the script to its end.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"

cpu="SandyBridge,model=45,-hypervisor"
smp="4,sockets=2,cores=2"
modargs=""
autoload=1
leakcheck=1
timeout=300
script=""
quiet=0
while [ $# -gt 0 ]; do
	case "$1" in
	--cpu) cpu=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--modargs) modargs=$2; shift 2 ;;
	--no-load) autoload=0; shift ;;
	--no-leak-check) leakcheck=0; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--script) script=$2; shift 2 ;;
	--quiet) quiet=1; shift ;;
	-h|--help) sed -n '3,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "guest: unknown option $1" >&2; exit 2 ;;
	esac
done
[ -n "$script" ] || { echo "guest: --script FILE is required" >&2; exit 2; }
[ -f "$script" ] || { echo "guest: no such script: $script" >&2; exit 2; }

kdir=$("$here/build-kernel.sh" --print-dir)/linux-source-6.12
[ -f "$kdir/arch/x86/boot/bzImage" ] || { echo "guest: no test kernel; run scripts/build-kernel.sh" >&2; exit 2; }
ko=$REPO_DIR/rust_uncore.ko
[ -f "$ko" ] || { echo "guest: $ko not built; run make KDIR=$kdir" >&2; exit 2; }

base=$("$here/mkinitramfs.sh" "$kdir")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The per-run overlay: module, tests, the script and its configuration.
mkdir -p "$work/root/lib/modules" "$work/root/run" "$work/root/tests"
cp "$ko" "$work/root/lib/modules/"
cp -r "$REPO_DIR/tests/guest/." "$work/root/tests/"
if [ -d "$CACHE_DIR/guest-tools" ]; then
	cp -r "$CACHE_DIR/guest-tools/." "$work/root/tests/"
fi
cp "$script" "$work/root/run/script.sh"
{
	printf 'MODARGS=%q\n' "$modargs"
	printf 'export MODARGS\n'
	printf 'AUTOLOAD=%s\n' "$autoload"
	[ "$leakcheck" = 1 ] || printf 'NO_LEAK_CHECK=1\n'
} >"$work/root/run/run.conf"
(cd "$work/root" && find . | cpio -o -H newc --quiet) >"$work/overlay.cpio"
cat "$base" "$work/overlay.cpio" >"$work/initrd.cpio"

log=$work/console.log
set +e
timeout --foreground "$timeout" qemu-system-x86_64 -accel tcg -cpu "$cpu" -smp "$smp" -m 1024 \
	-nographic -no-reboot -kernel "$kdir/arch/x86/boot/bzImage" -initrd "$work/initrd.cpio" \
	-append "console=ttyS0 loglevel=4 panic=-1 oops=panic kmemleak=on nokaslr" \
	</dev/null >"$log" 2>&1
qrc=$?
set -e
# Drop carriage returns and the firmware's terminal escapes.
tr -d '\r' <"$log" | sed 's/\x1b\[[0-9;?]*[a-zA-Z]//g; s/\x1bc//g' >"$log.clean"
mkdir -p "$CACHE_DIR"
cp "$log.clean" "$CACHE_DIR/last-console.log"

section() { sed -n "/$1-BEGIN\$/,/^$1-END\$/p" "$log.clean" | sed '1d;$d'; }
out=$(sed -n '/GUEST-SCRIPT-BEGIN$/,/^GUEST-SCRIPT-END status=/p' "$log.clean" | sed '1d' | sed '/^GUEST-SCRIPT-END status=/d')
status=$(sed -n 's/^GUEST-SCRIPT-END status=\([0-9]*\)$/\1/p' "$log.clean")
dmesg_out=$(section GUEST-DMESG)
leaks=$(section GUEST-KMEMLEAK)

printf '%s\n' "$out"
verdict=0
if [ "$qrc" = 124 ]; then
	echo "guest: timeout after ${timeout}s" >&2
	verdict=124
elif [ -z "$status" ]; then
	echo "guest: the script did not run to its end" >&2
	verdict=126
fi
bad=$(printf '%s\n%s\n' "$dmesg_out" "$(cat "$log.clean")" |
	grep -E 'Oops|BUG:|WARNING:|Kernel panic|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|KASAN|UBSAN|general protection fault|sleeping function called from invalid context|scheduling while atomic' | sort -u || true)
if [ -n "$bad" ]; then
	echo "guest: kernel reported a problem:" >&2
	printf '%s\n' "$bad" | sed 's/^/guest:   /' >&2
	verdict=125
fi
if [ -n "$(printf '%s' "$leaks" | tr -d '[:space:]')" ]; then
	echo "guest: kmemleak reported leaks:" >&2
	printf '%s\n' "$leaks" | head -40 | sed 's/^/guest:   /' >&2
	verdict=125
fi
if [ "$verdict" != 0 ]; then
	if [ "$quiet" = 0 ]; then
		echo "guest: ---- console log ----" >&2
		tail -200 "$log.clean" >&2
	fi
	exit "$verdict"
fi
[ "$quiet" = 1 ] || echo "guest: exit status $status"
exit "$status"

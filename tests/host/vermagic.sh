#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/guest.sh refuses, before booting, a module that is not for the
# kernel it boots: a vermagic other than that of the kernel's own modules,
# or a build/K/rust_uncore.ko built against another tree (an older build of
# K); and on a fresh machine it says to run `make test-kernel`. The modules
# are stand-ins (an object file with a .modinfo section); guest.sh runs
# from a scratch copy of scripts/, so build/ of the repository is never
# touched, and no guest boots (each call has a 30 s limit). Needs the debug
# test kernel; without it the tests are skipped.
# Usage: tests/host/vermagic.sh   (TAP output; exit status 1 on a failure)
set -u
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

plan=6
kdir=$("$repo/scripts/build-kernel.sh" --variant debug --print-dir 2>/dev/null)/linux-source-6.12
ref=$kdir/arch/x86/events/intel/intel-uncore.ko
if [ ! -f "$kdir/../.complete" ] || [ ! -f "$ref" ] || ! command -v objcopy >/dev/null; then
	for i in $(seq 1 $plan); do echo "ok $i # SKIP no debug test kernel (make test-kernel) or no objcopy"; done
	echo "1..$plan"
	exit 0
fi
want=$(/sbin/modinfo -F vermagic "$ref")

# fake_ko FILE VERMAGIC: a stand-in module with that vermagic.
fake_ko() {
	printf 'license=GPL\0vermagic=%s\0' "$2" >"$tmp/modinfo"
	echo 'int rust_uncore_stand_in;' | gcc -c -x c - -o "$tmp/obj.o"
	objcopy --add-section .modinfo="$tmp/modinfo" "$tmp/obj.o" "$1"
}
script=$repo/tests/demo.sh

fake_ko "$tmp/other.ko" "6.12.0-other SMP mod_unload "
refused "--module: another release is refused before booting" \
	"built for another kernel: vermagic '6\.12\.0-other SMP mod_unload ', the debug kernel's is '$want'" \
	"$repo/scripts/guest.sh" --kernel debug --module "$tmp/other.ko" --script "$script"

# The same release with the preemption model of another kernel (the
# nodebug kernel's "preempt").
fake_ko "$tmp/preempt.ko" "${want%% *} SMP preempt mod_unload "
refused "--module: another preemption model is refused" "built for another kernel: vermagic '[^ ]+ SMP preempt " \
	"$repo/scripts/guest.sh" --kernel debug --module "$tmp/preempt.ko" --script "$script"

# build/debug/rust_uncore.ko of a scratch checkout.
mkdir -p "$tmp/repo/build/debug"
cp -r "$repo/scripts" "$tmp/repo/scripts"
refused "build/debug/rust_uncore.ko missing: says how to build it" "not built; run scripts/build-module.sh debug" \
	"$tmp/repo/scripts/guest.sh" --kernel debug --script "$script"

fake_ko "$tmp/repo/build/debug/rust_uncore.ko" "$want"
echo "/elsewhere/kernel/debug-0000000000000000/linux-source-6.12" >"$tmp/repo/build/debug/.kdir"
refused "built against an older build of the kernel: refused" "was built against /elsewhere/kernel/debug-0000000000000000/linux-source-6.12, not the debug kernel booted" \
	"$tmp/repo/scripts/guest.sh" --kernel debug --script "$script"

echo "$kdir" >"$tmp/repo/build/debug/.kdir"
fake_ko "$tmp/repo/build/debug/rust_uncore.ko" "${want%% *} SMP preempt_rt mod_unload "
refused "build/debug/rust_uncore.ko with another vermagic: refused" "rust_uncore.ko is built for another kernel" \
	"$tmp/repo/scripts/guest.sh" --kernel debug --script "$script"

# A fresh machine: an empty cache directory (no bindgen, no kernels).
refused "fresh machine: says to run make test-kernel" "run make test-kernel VARIANT=debug" \
	env UNCORE_CACHE_DIR="$tmp/empty-cache" "$tmp/repo/scripts/guest.sh" --kernel debug --script "$script"

[ "$tap_n" = "$plan" ] || notok "plan: $tap_n tests run, $plan planned"
echo "1..$tap_n"
exit $failed

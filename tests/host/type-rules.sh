#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The abstraction layer's type rules: each case of
# tests/module/rust_must_fail_main.rs is built against the debug kernel
# (the object alone, in the module's build copy build/debug/, which
# scripts/build-module.sh debug made) and must fail with the error it is
# about; the well-formed case ("none") must build, so that a failure is the
# rule's and not the harness's. TAP on standard output.
# Usage: tests/host/type-rules.sh [VARIANT]  (default debug)
set -uo pipefail
here=$(cd "$(dirname "$0")/../../scripts" && pwd)
. "$here/env.sh"
variant=${1:-debug}
kdir=$("$here/build-kernel.sh" --variant "$variant" --print-tree) || { echo "not ok 1 the $variant kernel"; exit 1; }
out=$REPO_DIR/build/$variant
obj=tests/module/rust_must_fail_main.o
[ -f "$out/$obj" ] || [ -f "$out/tests/module/rust_must_fail_main.rs" ] ||
	{ echo "not ok 1 $out has the module's sources (scripts/build-module.sh $variant)"; exit 1; }
n=0
failed=0
# build CASE: the object's build log, and its exit status.
build() {
	rm -f "$out/$obj"
	make -s -C "$kdir" M="$out" "${KMAKE_FLAGS[@]}" MUST_FAIL="$1" "$obj" 2>&1
}
# case NAME WANT DESCRIPTION: the build must fail and print WANT.
case_fails() {
	local log rc
	n=$((n + 1))
	log=$(build "$1")
	rc=$?
	if [ "$rc" != 0 ] && grep -qF -- "$2" <<<"$log"; then
		echo "ok $n $3"
	else
		echo "not ok $n $3"
		echo "# MUST_FAIL=$1: status $rc, want a failure saying: $2"
		grep -E '^error' <<<"$log" | head -3 | sed 's/^/# /'
		failed=1
	fi
}
n=1
if log=$(build none); then
	echo "ok 1 the well-formed case builds"
else
	echo "not ok 1 the well-formed case builds"
	printf '%s\n' "$log" | head -20 | sed 's/^/# /'
	failed=1
fi
case_fails guard_into_without_irqs "cannot be sent between threads safely" \
	"an IrqLock guard cannot be moved into without_irqs"
case_fails guard_out_of_without_irqs "cannot be sent between threads safely" \
	"an IrqLock guard cannot be returned out of without_irqs"
case_fails write_config_of_any_device "no method named \`write_config_u32\` found" \
	"a device found by ID (not bound to the driver) has no configuration writes"
case_fails bound_device_kept 'cannot return value referencing local variable `g`' \
	"a device given by a binding does not outlive the RCU read-side section"
case_fails event_slot_in_process_context "call to unsafe function" \
	"an event's entry cannot be used without the proof that interrupts are off"
case_fails rcu_section_in_process_context "this function takes 1 argument but 0 arguments were supplied" \
	"an RCU read-side section cannot be entered without the proof that interrupts are off"
case_fails enable_without_disable "a PMU implements both enable and disable, or neither" \
	"a PMU of the series with enable but not disable fails to build"
case_fails disable_without_enable "a PMU implements both enable and disable, or neither" \
	"a PMU of the series with disable but not enable fails to build"
case_fails irq_lock_in_read 'expected `&LocalInterruptDisabled`, found `&ReadContext`' \
	"the series' read token (which admits NMI) is no proof for an IRQ-safe lock"
rm -f "$out/$obj"
echo "1..$n"
exit $failed

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: sets everything up (packages, the debug test kernel, the
# module built for it in build/debug/) and boots a QEMU guest that
# simulates a two-socket Sandy Bridge-EP (sim=snbep:2), then shows the
# uncore PMUs, `perf list` and `perf stat -a -e uncore_...` counting events
# injected into the simulated hardware (LLC lookups through the
# llc_lookup.data_read alias, memory traffic in MiB); fails unless each
# count is the injected one.
#
# Usage: scripts/demo.sh [--sim PLATFORM[:SOCKETS]] [--cpu MODEL] [--smp TOPOLOGY]
#   --sim    module argument sim= (default snbep:2); SOCKETS must equal the
#            sockets of --smp; the events the demo counts are Sandy
#            Bridge-EP's and Ivy Bridge-EP's (snbep, ivbep)
#   --cpu    QEMU -cpu value (default SandyBridge,model=45,-hypervisor)
#   --smp    QEMU -smp value (default 4,sockets=2,cores=2)
#   --help   this text
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
sim="snbep:2"
cpu="SandyBridge,model=45,-hypervisor"
smp="4,sockets=2,cores=2"
# value OPTION ARGS...: the option's value (its next argument), or a stop.
value() { opt_value demo "$@"; }
while [ $# -gt 0 ]; do
	case "$1" in
	--sim) sim=$(value "$@"); shift 2 ;;
	--cpu) cpu=$(value "$@"); shift 2 ;;
	--smp) smp=$(value "$@"); shift 2 ;;
	-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
	*) echo "demo: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
"$here/install-deps.sh"
"$here/build-kernel.sh" --variant debug
"$here/build-module.sh" debug >/dev/null
exec "$here/guest.sh" --kernel debug --no-leak-check --cpu "$cpu" --smp "$smp" --modargs "sim=$sim" --script "$REPO_DIR/tests/demo.sh"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job: sets everything up (packages, test kernel, module) and boots
# a QEMU guest that simulates a two-socket Sandy Bridge-EP (sim=snbep:2),
# then shows the uncore PMUs, `perf list` and `perf stat -a -e uncore_...`
# counting events injected into the simulated hardware.
#
# Usage: scripts/demo.sh [--sim PLATFORM[:SOCKETS]] [--cpu MODEL] [--smp TOPOLOGY]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
sim="snbep:2"
cpu="SandyBridge,model=45,-hypervisor"
smp="4,sockets=2,cores=2"
while [ $# -gt 0 ]; do
	case "$1" in
	--sim) sim=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	-h|--help) sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "demo: unknown option $1" >&2; exit 2 ;;
	esac
done
"$here/install-deps.sh"
"$here/build-kernel.sh"
kdir=$("$here/build-kernel.sh" --print-dir)/linux-source-6.12
make -s -C "$REPO_DIR" KDIR="$kdir"
exec "$here/guest.sh" --no-leak-check --cpu "$cpu" --smp "$smp" --modargs "sim=$sim" --script "$REPO_DIR/tests/demo.sh"

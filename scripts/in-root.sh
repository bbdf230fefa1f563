#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs a command inside a Debian root made by scripts/stock-kernel.sh, as
# root, with /proc, /sys and /dev of the machine and the given directories
# mounted in a private mount namespace (they go away with the command).
# The command gets a clean environment: PATH, HOME=/root, LANG=C.UTF-8 and
# DEBIAN_FRONTEND=noninteractive.
#
# Usage: scripts/in-root.sh ROOT [--bind DIR:PATH]... [--cwd PATH] -- CMD [ARG...]
#   ROOT           the root directory
#   --bind DIR:PATH  mount the machine's DIR at PATH inside the root
#   --cwd PATH     run CMD in PATH (inside the root; default /root)
#   --help         this text
set -euo pipefail

case "${1:-}" in
""|-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; [ -n "${1:-}" ]; exit ;;
esac
[ -d "$1" ] || { echo "in-root: no such root: $1" >&2; exit 2; }
root=$(cd "$1" && pwd)
shift
binds=()
cwd=/root
while [ $# -gt 0 ]; do
	case "$1" in
	--bind) binds+=("${2:?--bind needs DIR:PATH}"); shift 2 ;;
	--cwd) cwd=${2:?--cwd needs a path}; shift 2 ;;
	--) shift; break ;;
	*) echo "in-root: unknown option '$1' (see --help)" >&2; exit 2 ;;
	esac
done
[ $# -gt 0 ] || { echo "in-root: no command (see --help)" >&2; exit 2; }
[ -x "$root/bin/sh" ] || { echo "in-root: $root is not a root file system" >&2; exit 2; }
sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)

# The mounts, made inside the new namespace by the shell below: "SRC DST" lines.
mounts="/dev $root/dev
/sys $root/sys"
for b in "${binds[@]}"; do
	src=${b%%:*}
	dst=$root/${b#*:}
	[ -d "$src" ] || { echo "in-root: no such directory: $src" >&2; exit 2; }
	mkdir -p "$dst" 2>/dev/null || "${sudo[@]}" mkdir -p "$dst"
	mounts="$mounts
$(cd "$src" && pwd) $dst"
done
exec "${sudo[@]}" unshare --mount --propagation private --fork /bin/bash -c '
	set -e
	root=$1 cwd=$2 mounts=$3
	shift 3
	mount -t proc proc "$root/proc"
	while read -r src dst; do mount --rbind "$src" "$dst"; done <<<"$mounts"
	exec chroot "$root" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive /bin/sh -c "cd \"\$0\" && exec \"\$@\"" "$cwd" "$@"
' in-root "$root" "$cwd" "$mounts" "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Copies the files a clone of the repository has (tracked and new files
# that .gitignore does not exclude; outside a git checkout, every file but
# .git, build/ and target/) into DIR, which it makes, keeping their paths
# and modes.
#
# Usage: scripts/clone-files.sh DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")

case "${1:-}" in
""|-h|--help) awk 'NR > 3 && !/^#/ { exit } NR > 3 { sub(/^# ?/, ""); print }' "$0"; [ -n "${1:-}" ]; exit ;;
esac
mkdir -p "$1"
dest=$(cd "$1" && pwd)
if ! (cd "$repo" && git ls-files -z --cached --others --exclude-standard 2>/dev/null |
	xargs -0 -r cp --parents -t "$dest" 2>/dev/null) || [ ! -f "$dest/Makefile" ]; then
	(cd "$repo" && find . -path ./.git -prune -o -path ./build -prune -o -path ./target -prune -o -type f -print0 |
		xargs -0 -r cp --parents -t "$dest")
fi
[ -f "$dest/Makefile" ] || { echo "clone-files: copying the repository's files into $dest failed" >&2; exit 1; }

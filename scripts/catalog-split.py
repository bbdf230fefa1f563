#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Stores the events that platforms' catalogs share once: splits the
catalog files catalog-from-json.py wrote for each platform into the lines
of that platform only and the lines each set of platforms has in common.

    catalog-split.py OUT_DIR SHARED NAME=DIR...

For each box file of the DIRs (NAME's full tables), writes
OUT_DIR/NAME/<box>.tsv, the lines of NAME alone, and
OUT_DIR/SHARED/<box>.<A>-<B>[-<C>].tsv, the lines of exactly the platforms
A, B (and C), in the order of the first of them (the Linux driver's
aliases first, as catalog-from-json.py puts them); a file that would be
empty is not written. The platform's catalog module joins its own table and
the shared ones it is named in (src/hw/catalog/<NAME>.rs).
"""
import glob
import os
import sys

HEADER = '# SPDX-License-Identifier: GPL-2.0\n'


def lines(path):
    """The data lines of a catalog file, in order."""
    return [l for l in open(path).read().split('\n') if l and not l.startswith('#')]


def main():
    out, shared = sys.argv[1:3]
    plats = [a.split('=', 1) for a in sys.argv[3:]]
    names = [n for n, _ in plats]
    boxes = sorted({os.path.basename(f) for _, d in plats for f in glob.glob(os.path.join(d, '*.tsv'))})
    os.makedirs(os.path.join(out, shared), exist_ok=True)
    for box in boxes:
        have = {}
        for n, d in plats:
            p = os.path.join(d, box)
            if os.path.exists(p):
                have[n] = lines(p)
        sets = {n: set(v) for n, v in have.items()}
        groups = {}
        for n in names:
            for l in have.get(n, []):
                sig = tuple(m for m in names if m in sets and l in sets[m])
                groups.setdefault(sig, [])
                if l not in groups[sig]:
                    groups[sig].append(l)
        for sig, ls in groups.items():
            stem = box[:-len('.tsv')]
            if len(sig) == 1:
                path = os.path.join(out, sig[0], box)
                what = "%s's own %s events" % (sig[0], stem)
            else:
                path = os.path.join(out, shared, '%s.%s.tsv' % (stem, '-'.join(sig)))
                what = 'the %s events of %s' % (stem, ', '.join(sig))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            open(path, 'w').write(HEADER + '# %s: perf\'s uncore tables (scripts/catalog-from-json.py,\n'
                                  '# then scripts/catalog-split.py).\n' % what + '\n'.join(ls) + '\n')
        for n in have:
            if (n,) not in groups:
                p = os.path.join(out, n, box)
                if os.path.exists(p):
                    os.remove(p)


main()

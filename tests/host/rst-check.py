#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parses every reStructuredText file under Documentation/ with docutils
and fails on any warning or error (unknown directives and roles, bad
tables, broken title levels, unreferenced targets), and checks that every
link to a local file in them names a file that exists. Prints one TAP line
per file.

Usage: tests/host/rst-check.py [DOCUMENTATION_DIR]"""

import io
import os
import re
import sys

import docutils.core
import docutils.utils


def check(path):
    """The problems of one file, as a list of strings."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    problems = []
    warnings = io.StringIO()
    try:
        docutils.core.publish_doctree(
            src,
            source_path=path,
            settings_overrides={
                "halt_level": 5,
                "report_level": 2,
                "warning_stream": warnings,
            },
        )
    except docutils.utils.SystemMessage as e:
        problems.append(str(e))
    problems += [l for l in warnings.getvalue().splitlines() if l.strip()]
    if not src.startswith(".. SPDX-License-Identifier:"):
        problems.append("no SPDX-License-Identifier line first")
    # `text <target>`__ links to files of the tree.
    for target in re.findall(r"`[^`<]*<([^>`]+)>`__?", src):
        if "://" in target or target.startswith("#"):
            continue
        if not os.path.exists(os.path.join(os.path.dirname(path), target)):
            problems.append(f"link to a missing file: {target}")
    return problems


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "Documentation"
    files = sorted(
        os.path.join(d, f)
        for d, _, fs in os.walk(top)
        for f in fs
        if f.endswith(".rst")
    )
    if not files:
        print(f"not ok 1 no .rst files under {top}")
        return 1
    bad = 0
    for n, path in enumerate(files, 1):
        problems = check(path)
        if problems:
            bad += 1
            print(f"not ok {n} {path} parses as reStructuredText")
            for p in problems[:10]:
                print(f"# {p}")
        else:
            print(f"ok {n} {path} parses as reStructuredText")
    print(f"1..{len(files)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

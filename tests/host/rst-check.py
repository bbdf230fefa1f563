#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Parses every reStructuredText file under Documentation/ with docutils
and fails on any warning or error (unknown directives and roles, bad
tables, broken title levels, unreferenced targets). The two Sphinx
constructs the kernel's documentation uses for links between files are
understood: a ``:doc:`` role must name a document that exists, and so
must each entry of a ``.. toctree::`` (a glob entry must match one). A
link to a local file must name a file that exists, and a link to an .rst
file is refused (Sphinx renders the documents as HTML: it would point
nowhere; use :doc:). Every path of the tree the text names under src/,
tests/, scripts/, benches/, debian/, rfc/ or Documentation/ must exist
(a glob must match), except the kernel tree's own files of
KERNEL_PATHS. Prints one TAP line per file.

Each file under Documentation/ABI/ must be in the kernel's ABI format
(its Documentation/ABI/README): entries of What: (one or more), Date:,
KernelVersion:, Contact: (with an address), Description: and Users:, in
that order, continuation lines indented, no other tags; What: a path
under /sys/; KernelVersion: says the module is out of tree (no kernel
version has it). One TAP line per file.

Then, when sphinx-build is installed, builds the documents as the kernel
would (sphinx-build -W -b html, into a temporary directory) and prints
one more TAP line: any Sphinx warning fails it; without sphinx-build
that line is a SKIP.

Usage: tests/host/rst-check.py [DOCUMENTATION_DIR]"""

import glob
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile

import docutils.core
import docutils.nodes
import docutils.parsers.rst
import docutils.utils

# Paths of the kernel tree (not of this one) that the documents name.
KERNEL_PATHS = {
    "scripts/config",
    "scripts/Makefile.build",
    "scripts/mod/file2alias.c",
    "scripts/checkpatch.pl",
}

# The tree's directories whose paths the documents name.
TREE_DIRS = ("src", "tests", "scripts", "benches", "debian", "rfc", "Documentation")

# The targets of the :doc: roles and toctree entries of the file being
# parsed.
doc_targets = []


def doc_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """Sphinx's :doc:`target` or :doc:`text <target>`: records the target,
    renders the text."""
    m = re.fullmatch(r"(.*?)\s*<([^<>]+)>", text, re.S)
    label, target = (m.group(1), m.group(2)) if m else (text, text)
    doc_targets.append(target.strip())
    return [docutils.nodes.inline(rawtext, label)], []


class TocTree(docutils.parsers.rst.Directive):
    """Sphinx's toctree: records its entries (a glob entry with a
    leading "glob:"); renders nothing."""

    has_content = True
    option_spec = {
        "maxdepth": int,
        "glob": docutils.parsers.rst.directives.flag,
        "hidden": docutils.parsers.rst.directives.flag,
        "caption": docutils.parsers.rst.directives.unchanged,
        "numbered": docutils.parsers.rst.directives.unchanged,
        "titlesonly": docutils.parsers.rst.directives.flag,
    }

    def run(self):
        is_glob = "glob" in self.options
        for entry in self.content:
            entry = entry.strip()
            if not entry:
                continue
            m = re.fullmatch(r".*<([^<>]+)>", entry)
            target = m.group(1) if m else entry
            doc_targets.append(("glob:" if is_glob else "") + target)
        return []


docutils.parsers.rst.roles.register_local_role("doc", doc_role)
docutils.parsers.rst.directives.register_directive("toctree", TocTree)


def tree_paths(src):
    """The paths of the tree that the text names, with their line numbers."""
    dirs = "|".join(re.escape(d) for d in TREE_DIRS)
    for m in re.finditer(rf"(?<![\w/.$~-])((?:{dirs})/[\w./*<>{{}}-]*)", src):
        path = m.group(1).rstrip(".,:;")
        yield src.count("\n", 0, m.start()) + 1, path


def path_exists(root, path):
    """Whether the tree at root has path (a glob matches something; a
    path with a placeholder, <name> or {a,b}, is not checked)."""
    if any(c in path for c in "<>{}") or path in KERNEL_PATHS:
        return True
    if "*" in path:
        return bool(glob.glob(os.path.join(root, path)))
    return os.path.exists(os.path.join(root, path))


def check(path):
    """The problems of one file, as a list of strings."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    problems = []
    doc_targets.clear()
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
    here = os.path.dirname(path)
    for target in re.findall(r"`[^`<]*<([^>`]+)>`__?", src):
        if "://" in target or target.startswith("#"):
            continue
        if target.endswith(".rst"):
            problems.append(f"link to {target}: use :doc:`{target[:-4]}`")
        elif not os.path.exists(os.path.join(here, target)):
            problems.append(f"link to a missing file: {target}")
    for target in doc_targets:
        if target.startswith("glob:"):
            if not glob.glob(os.path.join(here, target[5:] + ".rst")):
                problems.append(f"toctree glob {target[5:]} matches no document")
        elif not os.path.exists(os.path.join(here, target + ".rst")):
            problems.append(f"reference to a missing document: {target}")
    root = os.path.dirname(os.path.abspath(here))
    for line, p in tree_paths(src):
        if not path_exists(root, p):
            problems.append(f"{path}:{line}: names {p}, which the tree does not have")
    return problems


ABI_TAGS = ["What", "Date", "KernelVersion", "Contact", "Description", "Users"]


def abi_check(path):
    """The problems of one ABI file, as a list of strings."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    problems = []
    entries = []
    for n, line in enumerate(lines, 1):
        m = re.match(r"([A-Za-z]+):(\s|$)", line)
        if m:
            tag, value = m.group(1), line[m.end(1) + 1:].strip()
            if tag not in ABI_TAGS:
                problems.append(f"line {n}: unknown tag {tag}:")
                continue
            if tag == "What" and (not entries or entries[-1][-1][0] != "What"):
                entries.append([])
            if not entries:
                problems.append(f"line {n}: {tag}: before the first What:")
                continue
            entries[-1].append((tag, value, n))
        elif line.strip() and not line[0].isspace():
            problems.append(f"line {n}: neither a tag nor an indented line")
    if not entries:
        problems.append("no entries")
    for e in entries:
        n = e[0][2]
        tags = [tag for tag, _, _ in e]
        if [t for t in tags if t != "What"] != ABI_TAGS[1:]:
            problems.append(f"entry at line {n}: tags {tags}, not What:, then {ABI_TAGS[1:]}")
        for tag, value, line in e:
            if tag == "What" and not value.startswith("/sys/"):
                problems.append(f"line {line}: What: {value} is not a path under /sys/")
            if tag == "KernelVersion" and "out of tree" not in value:
                problems.append(f"line {line}: KernelVersion: {value} (no kernel has the module: say out of tree)")
            if tag == "Contact" and not re.search(r"<[^<>@\s]+@[^<>@\s]+>", value):
                problems.append(f"line {line}: Contact: {value} has no <address>")
    return problems


def sphinx(top):
    """Sphinx's warnings when it builds the documents as HTML (None
    without sphinx-build)."""
    tool = shutil.which("sphinx-build")
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run(
            [tool, "-q", "-C", "-W", "--keep-going", "-b", "html", "-d",
             os.path.join(out, "doctrees"), top, os.path.join(out, "html")],
            capture_output=True,
            text=True,
        )
    lines = [l for l in (r.stdout + r.stderr).splitlines() if l.strip()]
    if r.returncode != 0 and not lines:
        lines = [f"sphinx-build exited with status {r.returncode}"]
    return lines


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

    def report(n, what, problems):
        """One TAP line for `what`, with up to ten of its problems."""
        nonlocal bad
        if problems:
            bad += 1
            print(f"not ok {n} {what}")
            for p in problems[:10]:
                print(f"# {p}")
        else:
            print(f"ok {n} {what}")

    for n, path in enumerate(files, 1):
        report(n, f"{path} parses as reStructuredText", check(path))
    abi = sorted(
        os.path.join(d, f)
        for d, _, fs in os.walk(os.path.join(top, "ABI"))
        for f in fs
    )
    for n, path in enumerate(abi, len(files) + 1):
        report(n, f"{path} is in the kernel's ABI format", abi_check(path))
    n = len(files) + len(abi) + 1
    problems = sphinx(top)
    if problems is None:
        print(f"ok {n} # SKIP sphinx-build is not installed")
    else:
        report(n, f"{top} builds with sphinx-build -W -b html", problems)
    print(f"1..{n}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Lists the public items of Rust files whose doc comment has no
`# Examples` section, for scripts/rfc-check.sh.

An item is public when declared `pub` (not `pub(crate)` or `pub(super)`),
or when it is a member of a `pub trait`. Its doc comment is the block of
`///` lines before it (attributes in between are skipped). Prints one line
per item without examples, "FILE:LINE: ITEM", and the number of public
items checked last; exits 1 when one lacks examples.

Usage: doc_examples.py FILE...
"""
import re
import sys

ITEM = re.compile(
    r"^\s*(pub\s+)?(unsafe\s+)?(const\s+)?(extern\s+\"C\"\s+)?"
    r"(fn|struct|enum|trait|type|const|static|mod)\s+(\w+)"
)


def check(path):
    missing, count = [], 0
    lines = open(path, encoding="utf-8").read().split("\n")
    doc = []
    trait_depth = None
    depth = 0
    for n, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("///"):
            doc.append(stripped)
            continue
        if stripped.startswith("#[") or stripped.startswith("#!["):
            continue
        m = ITEM.match(line)
        if m and not stripped.startswith("//"):
            public = m.group(1) is not None and not stripped.startswith("pub(")
            in_pub_trait = trait_depth is not None and depth == trait_depth + 1
            if public or in_pub_trait:
                count += 1
                if not any(d.startswith("/// # Examples") for d in doc):
                    missing.append(f"{path}:{n}: {m.group(5)} {m.group(6)}")
            if public and m.group(5) == "trait":
                trait_depth = depth
        depth += line.count("{") - line.count("}")
        if trait_depth is not None and depth <= trait_depth and "}" in line:
            trait_depth = None
        doc = []
    return missing, count


def main():
    missing, count = [], 0
    for path in sys.argv[1:]:
        m, c = check(path)
        missing += m
        count += c
    for m in missing:
        print(m)
    print(f"{count} public items, {len(missing)} without examples")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

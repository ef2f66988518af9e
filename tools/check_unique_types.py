#!/usr/bin/env python3
"""Fails when two public headers define a struct or class of the same name in the same namespace.

Two different types of one name in one program break the one-definition rule: the linker keeps one copy of
their inline members (constructors, destructors, Expected<T> accessors) and the other type's objects are then
read with the wrong layout. (Found once: two `cudnnctl::ArchiveLibraries`, one in bundle/, one in install/,
corrupted inspect's and bundle swap's results under the sanitizers.)

    tools/check_unique_types.py DIR...      exit 0: no duplicate, 1: duplicates (listed)
"""
import os
import re
import sys

DEF = re.compile(r"^\s*(?:struct|class)\s+([A-Za-z_]\w*)\s*(?:final\s*)?(?::[^;{]*)?\{", re.M)
NS = re.compile(r"^\s*namespace\s+([A-Za-z_][\w:]*)\s*\{", re.M)


def definitions(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    ns = NS.findall(text)
    scope = ns[0] if ns else ""
    return [(scope, name) for name in DEF.findall(text)]


def main(dirs):
    seen = {}
    for top in dirs:
        for root, _, files in os.walk(top):
            for f in sorted(files):
                if f.endswith((".hpp", ".h")):
                    path = os.path.join(root, f)
                    for key in definitions(path):
                        seen.setdefault(key, []).append(path)
    dups = {k: v for k, v in seen.items() if len(set(v)) > 1}
    for (scope, name), paths in sorted(dups.items()):
        print(f"{scope}::{name} is defined in {len(set(paths))} headers: {', '.join(sorted(set(paths)))}")
    if not seen:
        print("no headers read: wrong folder?")
        return 1
    if dups:
        print("rename one of each pair: two types of one name in one program break the one-definition rule")
        return 1
    print(f"check_unique_types: {len(seen)} types, each defined in one header")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""The layering check: every #include between cudnnctl's modules points down, and OS-specific code
stays in src/platform/.

    tools/check_layers.py [--root DIR]        exit 0: clean; exit 1: violations (one line each)

Rules, all derived from the one table below (module, layer, what it may use):
  1. every folder under src/ and include/cudnnctl/ is a module of the table;
  2. a file of module M includes "cudnnctl/<N>/..." only when N is M or N is reachable from M through
     the "may use" edges (the table's edges must point to a lower layer, so there are no cycles);
  3. `#if`/`#ifdef` on _WIN32, _WIN64, _MSC_VER, __linux__, __APPLE__ or __unix__, and OS headers
     (<unistd.h>, <windows.h>, <sys/...>, <dlfcn.h>, ...), appear only in src/platform/.

The table mirrors the CMake targets' target_link_libraries (CMakeLists.txt) and docs/architecture.md.
It lives here until docs/architecture.md carries a "may use" column to read it from.
"""
import argparse
import re
import sys
from pathlib import Path

# module: (layer, may use). Layers: 1 base, 2 platform, 3 domain (ordered among themselves by the
# edges), 4 commands, 5 app.
TABLE = {
    "base": (1, []),
    "platform": (2, ["base"]),
    "contract": (3, ["base"]),
    "loader": (3, ["platform"]),
    "catalog": (3, ["contract", "platform"]),
    "archive": (3, ["catalog", "contract", "platform"]),
    "env": (3, ["platform", "loader", "contract"]),
    "install": (3, ["archive", "env"]),
    "bundle": (3, ["install", "archive", "env", "loader", "contract"]),
    "fetch": (3, ["catalog", "contract"]),
    "gpu": (3, ["platform"]),
    "child": (3, ["platform"]),
    "workload": (3, ["gpu", "child"]),
    "doctor": (3, ["install", "env", "catalog", "loader", "workload", "gpu", "child", "contract"]),
    "trace": (3, ["doctor", "install", "env", "loader"]),
    "commands": (4, ["archive", "catalog", "contract", "doctor", "env", "fetch", "install", "loader", "workload", "trace", "bundle"]),
    "app": (5, ["commands"]),
}

# Known violations being removed (issue 19 item 2: the workload includes the doctor's probe protocol
# and status names). Each entry must still match an include, so it is dropped with the fix.
KNOWN: set = set()

OS_MACRO = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*\b(_WIN32|_WIN64|_MSC_VER|__linux__|__APPLE__|__unix__)\b")
OS_HEADER = re.compile(r"^\s*#\s*include\s*<(unistd|windows|dlfcn|fcntl|poll|iconv|pwd|grp|io|direct|shlobj|winreg|wincrypt|"
                       r"bcrypt|processthreadsapi|sys/[A-Za-z0-9_]+)\.h>")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]cudnnctl/([A-Za-z0-9_]+)/')
SOURCES = (".cpp", ".hpp", ".h", ".cc", ".inc")


def reachable(module, table):
    seen, todo = set(), list(table[module][1])
    while todo:
        m = todo.pop()
        if m in seen or m not in table:
            continue
        seen.add(m)
        todo.extend(table[m][1])
    return seen


def check_table(table):
    problems = []
    for m, (layer, uses) in sorted(table.items()):
        for u in uses:
            if u not in table:
                problems.append(f"table: {m} may use '{u}', which is not a module of the table")
            elif table[u][0] > layer or (table[u][0] == layer and m in reachable(u, table)):
                problems.append(f"table: {m} (layer {layer}) may use {u} (layer {table[u][0]}): edges must point down, without cycles")
    return problems


def module_of(rel):
    parts = rel.parts
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ("include", "cudnnctl") and len(parts) > 3:
        return parts[2]
    return None


def check_tree(root, table, known):
    problems = check_table(table)
    used_known = set()
    for top in (root / "src", root / "include" / "cudnnctl"):
        if not top.is_dir():
            continue
        for d in sorted(p for p in top.iterdir() if p.is_dir()):
            if d.name not in table:
                problems.append(f"{d.relative_to(root)}: module '{d.name}' is not in the layer table (tools/check_layers.py)")
        for f in sorted(top.rglob("*")):
            if not f.is_file() or f.suffix not in SOURCES:
                continue
            rel = f.relative_to(root)
            module = module_of(rel)
            if module is None or module not in table:
                continue
            allowed = reachable(module, table) | {module}
            in_platform = rel.parts[:2] == ("src", "platform")
            for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) not in allowed:
                    target = m.group(1)
                    if (rel.as_posix(), target) in known:
                        used_known.add((rel.as_posix(), target))
                        continue
                    why = "a module above it" if target in table and table[target][0] > table[module][0] else "a module it may not use"
                    problems.append(f"{rel}:{n}: {module} includes {target} ({why}): {line.strip()}")
                if not in_platform and OS_MACRO.match(line):
                    problems.append(f"{rel}:{n}: OS-specific #if outside src/platform/: {line.strip()}")
                if not in_platform and OS_HEADER.match(line):
                    problems.append(f"{rel}:{n}: OS header outside src/platform/: {line.strip()}")
    for file, target in sorted(known - used_known):
        problems.append(f"{file}: the known violation '{file} -> {target}' is gone: remove it from KNOWN in tools/check_layers.py")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path, help="the source tree (default: this one)")
    args = ap.parse_args()
    problems = check_tree(args.root, TABLE, KNOWN)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} problem(s); the layers and what each may use are the table in tools/check_layers.py")
        return 1
    print(f"check_layers: {len(TABLE)} modules, every include points down, OS code only in src/platform/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The architecture check: CMakeLists.txt is the one hand-kept module graph, and everything else is checked
against it.

    tools/check_architecture.py [--root DIR]     exit 0: clean; exit 1: problems (one line each)

From CMakeLists.txt: each module (a folder of src/) is compiled by one cudnnctl_* library target, and the
cudnnctl_* targets it links are what it may use. Then:
  1. every folder of src/ and include/cudnnctl/ is a module with a target, and no file is compiled by two
     library targets (how a cycle between two modules can hide);
  2. the links between module targets have no cycle;
  3. a file of module M includes "cudnnctl/<N>/..." only when N is M or N's target is reachable from M's
     through the links (includes point down);
  4. `#if`/`#ifdef` on _WIN32, _WIN64, _MSC_VER, __linux__, __APPLE__ or __unix__, and OS headers
     (<unistd.h>, <windows.h>, <sys/...>, <dlfcn.h>, ...), appear only in src/platform/;
  5. docs/architecture.md's module table has one row per module, naming its target and exactly the targets
     it links ("may use");
  6. src/commands/ is the thin layer (options, one call, printing): each of its .cpp files defines a command
     (a `CommandRun setup_*` function, or CLI11's add_option/add_flag/add_subcommand) or is one of the shared
     renderers and option helpers named in COMMANDS_SHARED; domain logic lives in the modules below.
"""
import argparse
import re
import sys
from pathlib import Path

OS_MACRO = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif)\b.*\b(_WIN32|_WIN64|_MSC_VER|__linux__|__APPLE__|__unix__)\b")
OS_HEADER = re.compile(r"^\s*#\s*include\s*<(unistd|windows|dlfcn|fcntl|poll|iconv|pwd|grp|io|direct|shlobj|winreg|wincrypt|"
                       r"bcrypt|processthreadsapi|sys/[A-Za-z0-9_]+)\.h>")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]cudnnctl/([A-Za-z0-9_]+)/')
SOURCES = (".cpp", ".hpp", ".h", ".cc", ".inc")  # not .c: the LD_AUDIT library is C that uses nothing of ours
# library targets that are not modules: third-party aliases, and the audit library (C, links nothing of ours)
NOT_MODULES = {"cudnnctl_libdeflate"}
# a file another module's target compiles, on purpose: SHA-256 through Windows' bcrypt is base's hash on Windows
FOREIGN_ALLOWED = {("src/platform/win/sha256_bcrypt.cpp", "cudnnctl_base")}
# src/commands/ files that define no command but are shared by several: renderers, the JSON envelope, option helpers,
# the registry of rows. A new name here is a decision (docs/architecture.md's commands/ row), not a way around rule 6.
COMMANDS_SHARED = {"archive_match_json.cpp", "contract_output.cpp", "floor_output.cpp", "gpu_code_output.cpp", "json_envelope.cpp",
                   "json_text.cpp", "progress.cpp", "registry.cpp"}
COMMAND_FILE = re.compile(r"\bCommandRun\s+setup_\w+\s*\(|\badd_(?:option|flag|subcommand)\s*\(")


def read_cmake(root):
    """(target -> source files under src/, target -> linked cudnnctl_* targets) of the library targets."""
    cmake = (root / "CMakeLists.txt").read_text(encoding="utf-8")
    sources, links = {}, {}
    for m in re.finditer(r"add_library\(\s*(cudnnctl_\w+)\s+([^)]*)\)", cmake):
        if "ALIAS" in m.group(2) or m.group(1) in NOT_MODULES:
            continue
        sources.setdefault(m.group(1), []).extend(re.findall(r"src/[\w/.-]+", m.group(2)))
    for m in re.finditer(r"target_link_libraries\(\s*(cudnnctl_\w+)\s+([^)]*)\)", cmake):
        if m.group(1) in sources:
            links.setdefault(m.group(1), set()).update(d for d in re.findall(r"\bcudnnctl_\w+", m.group(2)) if d in sources or d not in NOT_MODULES)
    for t in sources:
        links.setdefault(t, set())
        links[t] -= NOT_MODULES
    return sources, links


def home_of(files):
    """The folder below src/ that holds every file of a target: "doctor", "platform", "trace/audit"."""
    dirs = [f.split("/")[1:-1] for f in files]
    firsts = [d[0] for d in dirs if d]
    top = max(set(firsts), key=firsts.count)  # the folder most of its files are in (base also compiles one win/ file)
    dirs = [d for d in dirs if d and d[0] == top]
    common = dirs[0]
    for d in dirs[1:]:
        n = 0
        while n < min(len(common), len(d)) and common[n] == d[n]:
            n += 1
        common = common[:n]
    return "/".join(common)


def module_targets(sources):
    """module (a target's home folder) -> its library target; file -> every target compiling it."""
    target_of, compiled_by = {}, {}
    for target, files in sources.items():
        if files:
            target_of[home_of(files)] = target
        for f in files:
            compiled_by.setdefault(f, set()).add(target)
    return target_of, compiled_by


def reachable(target, links):
    seen, todo = set(), list(links.get(target, ()))
    while todo:
        t = todo.pop()
        if t not in seen:
            seen.add(t)
            todo.extend(links.get(t, ()))
    return seen


def check_graph(sources, links):
    problems = []
    for t, deps in sorted(links.items()):
        for d in sorted(deps):
            if d not in sources:
                problems.append(f"CMakeLists.txt: {t} links {d}, which is no library target of a module")
        if t in reachable(t, links):
            problems.append(f"CMakeLists.txt: {t} reaches itself through its links: the module graph has a cycle")
    return problems


def module_of(rel):
    parts = rel.parts
    if parts[0] == "src" and len(parts) > 2:
        return parts[1]
    if parts[:2] == ("include", "cudnnctl") and len(parts) > 3:
        return parts[2]
    return None


def check_files(root, target_of, links):
    problems = []
    for top in (root / "src", root / "include" / "cudnnctl"):
        if not top.is_dir():
            continue
        for d in sorted(p for p in top.iterdir() if p.is_dir()):
            if d.name not in target_of:
                problems.append(f"{d.relative_to(root)}: module '{d.name}' is compiled by no cudnnctl_* library target in CMakeLists.txt")
        for f in sorted(top.rglob("*")):
            if not f.is_file() or f.suffix not in SOURCES:
                continue
            rel = f.relative_to(root)
            module = module_of(rel)
            if module not in target_of:
                continue
            allowed = {module} | {m for m, t in target_of.items() if t in reachable(target_of[module], links)}
            in_platform = rel.parts[:2] == ("src", "platform")
            for n, line in enumerate(f.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                m = INCLUDE.match(line)
                if m and m.group(1) not in allowed:
                    problems.append(f"{rel}:{n}: {module} includes {m.group(1)}, which its target {target_of[module]} does not link "
                                    f"(includes point down the CMake graph): {line.strip()}")
                if not in_platform and OS_MACRO.match(line):
                    problems.append(f"{rel}:{n}: OS-specific #if outside src/platform/: {line.strip()}")
                if not in_platform and OS_HEADER.match(line):
                    problems.append(f"{rel}:{n}: OS header outside src/platform/: {line.strip()}")
    return problems


def check_docs(root, target_of, links):
    doc = (root / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = {}
    for line in doc.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and re.fullmatch(r"`[\w/]+/`", cells[0]):
            rows[cells[0].strip("`/")] = (cells[1].strip("`"), set(re.findall(r"cudnnctl_\w+", cells[3])))
    problems = []
    for module, target in sorted(target_of.items()):
        if module not in rows:
            problems.append(f"docs/architecture.md: module {module}/ ({target}) has no row")
            continue
        doc_target, uses = rows[module]
        if doc_target != target:
            problems.append(f"docs/architecture.md: {module}/ is compiled by {target}, the row says {doc_target}")
        if uses != links[target]:
            problems.append(f"docs/architecture.md: {module}/ may use {sorted(uses) or 'nothing'}, CMake links {sorted(links[target]) or 'nothing'}")
    for module in sorted(set(rows) - set(target_of)):
        problems.append(f"docs/architecture.md: a row for {module}/, which no target compiles")
    return problems + check_docs_order(list(rows), target_of, links)


def check_docs_order(order, target_of, links):
    """The table lists modules lowest first: a module's row after the row of every module it may use."""
    problems = []
    module_of_target = {t: m for m, t in target_of.items()}
    for i, module in enumerate(order):
        if module not in target_of:
            continue
        for used in sorted(module_of_target.get(t) for t in links[target_of[module]] if t in module_of_target):
            if used in order and order.index(used) > i:
                problems.append(f"docs/architecture.md: the {module}/ row comes before the {used}/ row, a module it uses: "
                                "the table lists modules lowest first")
    return problems


def check_commands(root):
    """Rule 6: no domain file in src/commands/."""
    problems = []
    folder = root / "src" / "commands"
    for f in sorted(folder.glob("*.cpp")) if folder.is_dir() else []:
        if f.name in COMMANDS_SHARED or COMMAND_FILE.search(f.read_text(encoding="utf-8", errors="replace")):
            continue
        problems.append(f"{f.relative_to(root)}: a file of commands/ that defines no command (no setup_* function, no option) and is no "
                        "named shared renderer: move its logic to the module it belongs to (docs/architecture.md), or name it in "
                        "tools/check_architecture.py's COMMANDS_SHARED if it is one")
    return problems


def check_tree(root):
    sources, links = read_cmake(root)
    target_of, compiled_by = module_targets(sources)
    problems = check_graph(sources, links)
    for f, targets in sorted(compiled_by.items()):
        if len(targets) > 1:
            problems.append(f"CMakeLists.txt: {f} is compiled by {', '.join(sorted(targets))}: each file belongs to one module's target")
        homes = [m for m in target_of if f.startswith(f"src/{m}/")]
        owner = target_of[max(homes, key=len)] if homes else None
        for t in sorted(targets):
            if owner and t != owner and (f, t) not in FOREIGN_ALLOWED:
                problems.append(f"CMakeLists.txt: {t} compiles {f}, a file of {owner}'s module (a dependency hidden from the graph)")
    problems += check_files(root, target_of, links)
    problems += check_docs(root, target_of, links)
    problems += check_commands(root)
    return problems, target_of


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=Path(__file__).resolve().parent.parent, type=Path, help="the source tree (default: this one)")
    args = ap.parse_args()
    problems, target_of = check_tree(args.root)
    for p in problems:
        print(p)
    if problems:
        print(f"check_architecture: {len(problems)} problem(s); the module graph is CMakeLists.txt's targets and their links")
        return 1
    print(f"check_architecture: {len(target_of)} modules; includes follow CMake's links, no cycle, OS code only in src/platform/, "
          "docs/architecture.md agrees, commands/ holds no domain file")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Keeps docs/architecture.md's module table in step with CMakeLists.txt.

Every folder of src/ has one row; the row's target compiles that folder's sources; its "may use" column is
exactly the cudnnctl_* targets the target links; every cudnnctl_* library has a row. Exit 1 with one line
per disagreement."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
cmake = (root / "CMakeLists.txt").read_text()
doc = (root / "docs/architecture.md").read_text()

# add_library / add_executable: target -> its source files; target_link_libraries: target -> cudnnctl_* deps
sources, links = {}, {}
for m in re.finditer(r"add_(?:library|executable)\(\s*(cudnnctl\w*)\s+([^)]*)\)", cmake):
    if "ALIAS" in m.group(2):
        continue
    sources.setdefault(m.group(1), []).extend(re.findall(r"src/[\w/.-]+", m.group(2)))
for m in re.finditer(r"target_link_libraries\(\s*(cudnnctl\w*)\s+([^)]*)\)", cmake):
    links.setdefault(m.group(1), set()).update(d for d in re.findall(r"\bcudnnctl_\w+", m.group(2)) if d != "cudnnctl_libdeflate")

rows = {}
for line in doc.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) != 4 or not re.fullmatch(r"`[\w/]+/`", cells[0]):
        continue
    module = cells[0].strip("`")
    target = cells[1].strip("`")
    uses = set(re.findall(r"cudnnctl_\w+", cells[3]))
    rows[module] = (target, uses)

problems = []
for d in sorted(p.name + "/" for p in (root / "src").iterdir() if p.is_dir()):
    if d not in rows:
        problems.append(f"src/{d} has no row in docs/architecture.md's module table")
for module, (target, uses) in sorted(rows.items()):
    if not (root / "src" / module).is_dir():
        problems.append(f"docs/architecture.md lists {module}, which is not a folder of src/")
        continue
    if target not in sources:
        problems.append(f"{module}: target {target} is not defined in CMakeLists.txt")
        continue
    if not any(s.startswith("src/" + module) for s in sources[target]):
        problems.append(f"{module}: {target} compiles none of src/{module} (CMakeLists.txt)")
    wanted = links.get(target, set())
    if uses != wanted:
        problems.append(f"{module}: docs say {target} may use {sorted(uses) or 'nothing'}, CMake links {sorted(wanted) or 'nothing'}")
documented = {t for t, _ in rows.values()}
for target in sorted(sources):
    if target.startswith("cudnnctl_") and target not in documented:
        problems.append(f"CMake target {target} has no row in docs/architecture.md")
for p in problems:
    print("architecture:", p)
if not problems:
    print(f"architecture: {len(rows)} modules, table and CMake agree")
sys.exit(1 if problems else 0)

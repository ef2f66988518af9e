#!/usr/bin/env python3
"""tools/check_architecture.py must pass on this tree and fail on each kind of planted violation.

    check_architecture_test.py SOURCE_DIR
"""
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(sys.argv[1]).resolve()
failures = []


def expect(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name)
    if not condition:
        failures.append(name)
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def fresh_copy(tmp, name):
    root = Path(tmp) / name
    for part in ("src", "include", "docs", "tools"):
        shutil.copytree(SOURCE / part, root / part, symlinks=True)
    shutil.copy(SOURCE / "CMakeLists.txt", root)
    return root


def run(root):
    r = subprocess.run([sys.executable, str(root / "tools" / "check_architecture.py"), "--root", str(root)], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def edit(path, pattern, replacement):
    text = path.read_text(encoding="utf-8")
    new, n = re.subn(pattern, replacement, text, count=1)
    assert n == 1, f"{pattern} not found in {path}"
    path.write_text(new, encoding="utf-8")


with tempfile.TemporaryDirectory() as tmp:
    root = fresh_copy(tmp, "clean")
    code, out = run(root)
    expect("the unchanged tree passes", code == 0, out)

    root = fresh_copy(tmp, "upward")
    append(root / "src/base/strings.cpp", '\n#include "cudnnctl/app/app.hpp"\n')
    code, out = run(root)
    expect("base including app fails, naming the file and line", code == 1 and "src/base/strings.cpp:" in out and "base includes app" in out, out)

    root = fresh_copy(tmp, "sideways")
    append(root / "include/cudnnctl/fetch/fetch.hpp", '\n#include "cudnnctl/install/installer.hpp"\n')
    code, out = run(root)
    expect("a module including one its target does not link fails", code == 1 and "fetch includes install" in out, out)

    root = fresh_copy(tmp, "gpu-up")
    append(root / "src/workload/conv_shape.cpp", '\n#include "cudnnctl/doctor/doctor.hpp"\n')
    code, out = run(root)
    expect("the workload including the doctor fails (gpu, child -> workload -> doctor, one way)", code == 1 and "workload includes doctor" in out, out)

    root = fresh_copy(tmp, "ifdef")
    append(root / "src/env/toolkit.cpp", "\n#ifdef _WIN32\n#endif\n")
    code, out = run(root)
    expect("#ifdef _WIN32 outside src/platform fails", code == 1 and "OS-specific #if outside src/platform/" in out, out)

    root = fresh_copy(tmp, "osheader")
    append(root / "src/commands/inspect.cpp", "\n#include <unistd.h>\n")
    code, out = run(root)
    expect("an OS header in commands fails", code == 1 and "src/commands/inspect.cpp" in out and "OS header" in out, out)

    root = fresh_copy(tmp, "newmodule")
    (root / "src/gadget").mkdir()
    (root / "src/gadget/gadget.cpp").write_text('#include "cudnnctl/base/error.hpp"\n')
    code, out = run(root)
    expect("a folder no target compiles fails", code == 1 and "module 'gadget' is compiled by no cudnnctl_* library target" in out, out)

    root = fresh_copy(tmp, "cycle")
    edit(root / "CMakeLists.txt", r"target_link_libraries\(cudnnctl_loader PUBLIC cudnnctl_platform", "target_link_libraries(cudnnctl_loader PUBLIC cudnnctl_platform cudnnctl_env")
    code, out = run(root)
    expect("a cycle in CMake's links fails", code == 1 and "cycle" in out, out)

    root = fresh_copy(tmp, "foreign")
    edit(root / "CMakeLists.txt", r"add_library\(cudnnctl_doctor STATIC", "add_library(cudnnctl_doctor STATIC\n  src/workload/conv_shape.cpp")
    code, out = run(root)
    expect("a module's file compiled into another module's target fails", code == 1 and "src/workload/conv_shape.cpp" in out, out)

    root = fresh_copy(tmp, "docs")
    edit(root / "docs/architecture.md", r"(\| `fetch/` \| `cudnnctl_fetch` \|[^\n]*\| )`cudnnctl_catalog`", r"\1`cudnnctl_catalog`, `cudnnctl_install`")
    code, out = run(root)
    expect("docs/architecture.md disagreeing with CMake fails", code == 1 and "docs/architecture.md: fetch/ may use" in out, out)

    root = fresh_copy(tmp, "domain-in-commands")
    (root / "src/commands/machine_guess.cpp").write_text(
        '#include "cudnnctl/commands/commands.hpp"\n\nnamespace cudnnctl {\nint gpus_here() { return 0; }\n} // namespace cudnnctl\n',
        encoding="utf-8")
    code, out = run(root)
    expect("a domain file in src/commands/ (no command, no option, not a named renderer) fails, naming it",
           code == 1 and "src/commands/machine_guess.cpp: a file of commands/ that defines no command" in out, out)

    root = fresh_copy(tmp, "renderer-in-commands")
    (root / "src/commands/floor_output.cpp").write_text("// a named shared renderer\n", encoding="utf-8")
    code, out = run(root)
    expect("a named shared renderer of src/commands/ passes", code == 0, out)

    root = fresh_copy(tmp, "header_upward")
    append(root / "include/cudnnctl/env/toolkit.hpp", '\n#include "cudnnctl/doctor/facts.hpp"\n')
    code, out = run(root)
    expect("a header of include/ pointing up the floors fails", code == 1 and "include/cudnnctl/env/toolkit.hpp:" in out and "env includes doctor" in out, out)

    root = fresh_copy(tmp, "docs_order")
    doc = root / "docs/architecture.md"
    lines = doc.read_text(encoding="utf-8").split("\n")
    loader = next(i for i, line in enumerate(lines) if line.startswith("| `loader/`"))
    row = lines.pop(loader)
    lines.insert(next(i for i, line in enumerate(lines) if line.startswith("| `install/`")) + 1, row)
    doc.write_text("\n".join(lines), encoding="utf-8")
    code, out = run(root)
    expect("a docs/architecture.md row above a module it uses fails", code == 1 and "the env/ row comes before the loader/ row" in out, out)

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("every architecture check behaves")

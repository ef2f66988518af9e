#!/usr/bin/env python3
"""tools/check_layers.py must pass on this tree and fail on each kind of planted violation.

    check_layers_test.py SOURCE_DIR
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = Path(sys.argv[1]).resolve()
sys.path.insert(0, str(SOURCE / "tools"))
import check_layers  # noqa: E402

failures = []


def expect(name, condition, detail=""):
    print(("ok   " if condition else "FAIL ") + name)
    if not condition:
        failures.append(name)
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def fresh_copy(tmp, name):
    root = Path(tmp) / name
    for part in ("src", "include"):
        shutil.copytree(SOURCE / part, root / part, symlinks=True)
    (root / "tools").mkdir()
    shutil.copy(SOURCE / "tools" / "check_layers.py", root / "tools")
    return root


def run(root):
    r = subprocess.run([sys.executable, str(root / "tools" / "check_layers.py"), "--root", str(root)], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def append(path, text):
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


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
    expect("a domain module using one it may not use fails", code == 1 and "fetch includes install" in out, out)

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
    expect("a module missing from the table fails", code == 1 and "module 'gadget' is not in the layer table" in out, out)

    root = fresh_copy(tmp, "stale")
    problems = check_layers.check_tree(root, check_layers.TABLE, check_layers.KNOWN | {("src/base/error.cpp", "app")})
    expect("a known violation that no longer occurs fails", any("is gone" in p for p in problems), "\n".join(problems))

    table = dict(check_layers.TABLE)
    table["platform"] = (2, ["base", "env"])
    problems = check_layers.check_table(table)
    expect("an upward edge in the table fails", any("platform (layer 2) may use env" in p for p in problems), "\n".join(problems))
    table = dict(check_layers.TABLE)
    table["loader"] = (3, ["platform", "env"])
    problems = check_layers.check_table(table)
    expect("a cycle in the table fails", any("without cycles" in p for p in problems), "\n".join(problems))

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("all layering checks behave")

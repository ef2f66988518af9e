#!/usr/bin/env python3
"""tools/check_unique_types.py must fail on a planted duplicate and pass on the same tree without it."""
import os
import subprocess
import sys
import tempfile

tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "check_unique_types.py")
with tempfile.TemporaryDirectory() as tmp:
    for sub in ("a", "b"):
        os.makedirs(os.path.join(tmp, sub))
    open(os.path.join(tmp, "a", "one.hpp"), "w").write("namespace cudnnctl {\nstruct Planted {\n  int x;\n};\n}\n")
    open(os.path.join(tmp, "b", "two.hpp"), "w").write("namespace cudnnctl {\nstruct Other {\n  int y;\n};\n}\n")
    ok = subprocess.run([sys.executable, tool, tmp], capture_output=True, text=True)
    open(os.path.join(tmp, "b", "three.hpp"), "w").write("namespace cudnnctl {\nstruct Planted {\n  double z;\n};\n}\n")
    bad = subprocess.run([sys.executable, tool, tmp], capture_output=True, text=True)
if ok.returncode != 0:
    sys.exit(f"the clean tree was refused: {ok.stdout}")
if bad.returncode != 1 or "cudnnctl::Planted" not in bad.stdout:
    sys.exit(f"the planted duplicate was not found (exit {bad.returncode}): {bad.stdout}")
print("check_unique_types finds a planted duplicate type name")

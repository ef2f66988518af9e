#!/usr/bin/env python3
"""tools/function_lengths.py finds what it should: a planted long function (its signature over two lines,
braces inside strings, comments and a lambda) is named with its length, short ones and class bodies are
not, and the exit code says so."""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "function_lengths.py")

body = "\n".join(f"  x += {i};  // {{ not a brace" for i in range(85))
source = f'''#include <string>
namespace cudnnctl {{
namespace {{
struct Holder {{
  int short_method() {{ return 1; }}
}};
}} // namespace

int long_function(int a,
                  int b) {{
  int x = a + b;
  const char* s = "}}}}{{";
  auto f = [&] {{ return x; }};
{body}
  return x + f();
}}

int short_function() {{
  return 2;
}}
}} // namespace cudnnctl
'''


def run(root, limit):
    return subprocess.run([sys.executable, TOOL, "--max", str(limit), root], capture_output=True, text=True)


with tempfile.TemporaryDirectory() as d:
    os.makedirs(os.path.join(d, "src"))
    with open(os.path.join(d, "src", "planted.cpp"), "w") as f:
        f.write(source)
    r = run(os.path.join(d, "src"), 80)
    problems = []
    if r.returncode != 1:
        problems.append(f"exit {r.returncode}, want 1")
    if "long_function: 92 lines" not in r.stdout:
        problems.append("the planted 92-line function (lines 9 to 100) is not named with its length")
    for name in ("short_function", "short_method", "Holder"):
        if name in r.stdout:
            problems.append(f"{name} named")
    r2 = run(os.path.join(d, "src"), 100)
    if r2.returncode != 0 or "0 function(s)" not in r2.stdout:
        problems.append(f"with --max 100: exit {r2.returncode}: {r2.stdout}")
    if problems:
        print("FAIL:", "; ".join(problems), "\n", r.stdout)
        sys.exit(1)
print("function_lengths finds the planted function and nothing else")

#!/usr/bin/env python3
"""tools/function_lengths.py finds what it should: a planted long function (its signature over two lines,
braces inside strings, comments and a lambda) is named with its length, short ones and class bodies are
not, and the exit code says so. A .cpp or .hpp over the file limit (451 short functions, in a second root
as CTest passes include/) fails the check too; one at the limit, and a long file of another kind, do not."""
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


def run(root, limit, *more):
    return subprocess.run([sys.executable, TOOL, "--max", str(limit), root, *more], capture_output=True, text=True)


def check_file_limit(d, problems):
    """Files over 450 lines in either root are named and fail the run; 450 lines, or a .txt, pass."""
    inc = os.path.join(d, "include", "cudnnctl")
    os.makedirs(inc)
    short_lines = "".join(f"int f{i}();\n" for i in range(451))
    for name, text in (("big.hpp", short_lines), ("big.txt", short_lines), ("at_limit.hpp", short_lines[: short_lines.rindex("int f450")])):
        with open(os.path.join(inc, name), "w") as f:
            f.write(text)
    big_cpp = os.path.join(d, "src", "big.cpp")
    with open(big_cpp, "w") as f:
        f.write(short_lines.rstrip("\n"))  # the last line without a newline still counts
    r = run(os.path.join(d, "src"), 100, os.path.join(d, "include"))
    if r.returncode != 1:
        problems.append(f"files over 450 lines: exit {r.returncode}, want 1")
    for want in ("src/big.cpp: 451 lines", "cudnnctl/big.hpp: 451 lines"):
        if want not in r.stdout:
            problems.append(f"'{want}' not named")
    for name in ("big.txt", "at_limit.hpp"):
        if name in r.stdout:
            problems.append(f"{name} named")
    os.remove(big_cpp)
    os.remove(os.path.join(inc, "big.hpp"))
    r = run(os.path.join(d, "src"), 100, os.path.join(d, "include"))
    if r.returncode != 0 or "0 file(s)" not in r.stdout:
        problems.append(f"with the big files removed: exit {r.returncode}: {r.stdout}")


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
    check_file_limit(d, problems)
    if problems:
        print("FAIL:", "; ".join(problems), "\n", r.stdout)
        sys.exit(1)
print("function_lengths finds the planted function and the files over 450 lines, and nothing else")

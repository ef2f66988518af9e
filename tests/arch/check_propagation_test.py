#!/usr/bin/env python3
"""tools/check_propagation.py finds what it should: in a planted tree, the hand-written propagations (one
line, `if (auto x = ...; !x)` over several lines, the brace block, std::move and a cudnnctl:: prefix) are
each named by file and line and fail the run; a block that cleans up first, a helper that adds context, an
inspected error, comments, strings and the macros' own definition are not named. A file in the allow-list
keeps its sites; an allow-listed file with none left is named as a stale entry and fails the run too."""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "check_propagation.py")

PLANTED = """#include "cudnnctl/base/error.hpp"
namespace cudnnctl {
Result<int> one_line() {
  auto a = parse();
  if (!a) return Unexpected<Error>(a.error());
  return *a;
}
Result<void> with_init() {
  if (auto ok = check(1,
                      2);
      !ok)
    return Unexpected<Error>(ok.error());
  return {};
}
Result<void> brace_block() {
  auto r = check(3);
  if (!r) {
    return ::cudnnctl::Unexpected<::cudnnctl::Error>(std::move(r).error());
  }
  return {};
}
}
"""

ACCEPTED = """#include "cudnnctl/base/error.hpp"
#define MY_TRY(expr) \\
  if (auto t = (expr); !t) return Unexpected<Error>(t.error())
namespace cudnnctl {
// if (!x) return Unexpected<Error>(x.error());   (a comment)
const char* text = "if (!y) return Unexpected<Error>(y.error());";
Result<int> kept(const std::string& staging) {
  auto a = parse();
  if (!a) {
    remove_tree(staging);
    return Unexpected<Error>(a.error());
  }
  auto b = parse();
  if (!b) return drop(b.error());
  auto c = parse();
  if (!c) return Unexpected<Error>(with_context(c.error()));
  auto d = parse();
  if (d.error().code == ErrorCode::usage) return Unexpected<Error>(d.error());
  if (!a) return Unexpected<Error>(b.error());
  return *a;
}
}
"""


ALLOW = ["--allow", "src/commands/install.cpp=planted: kept on purpose", "--allow", "src/commands/fetch.cpp=planted: kept on purpose"]


def run(*roots, allow=()):
    return subprocess.run([sys.executable, TOOL, *allow, *roots], capture_output=True, text=True)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


with tempfile.TemporaryDirectory() as d:
    src = os.path.join(d, "src")
    problems = []
    write(os.path.join(src, "mod", "accepted.cpp"), ACCEPTED)
    r = run(src)
    if r.returncode != 0:
        problems.append(f"only accepted shapes: exit {r.returncode}, want 0:\n{r.stdout}")

    write(os.path.join(src, "mod", "planted.cpp"), PLANTED)
    r = run(src)
    if r.returncode != 1:
        problems.append(f"planted: exit {r.returncode}, want 1")
    for want in ("src/mod/planted.cpp:5: 'a'", "src/mod/planted.cpp:11: 'ok'", "src/mod/planted.cpp:17: 'r'"):
        if want not in r.stdout:
            problems.append(f"'{want}' not named")
    if "accepted.cpp" in r.stdout or "3 hand-written" not in r.stdout:
        problems.append(f"want exactly the 3 planted sites named:\n{r.stdout}")

    # an allow-listed file keeps its sites; one with nothing left is a stale entry
    os.remove(os.path.join(src, "mod", "planted.cpp"))
    write(os.path.join(src, "commands", "install.cpp"), PLANTED)
    r = run(src, allow=ALLOW)
    if r.returncode != 0 or "allowed: src/commands/install.cpp" not in r.stdout:
        problems.append(f"allow-listed file with sites: exit {r.returncode}, want 0:\n{r.stdout}")
    write(os.path.join(src, "commands", "fetch.cpp"), ACCEPTED)
    r = run(src, allow=ALLOW)
    if r.returncode != 1 or "src/commands/fetch.cpp: in ALLOWED" not in r.stdout:
        problems.append(f"stale allow-list entry: exit {r.returncode}, want 1 and the entry named:\n{r.stdout}")
    if problems:
        print("FAIL:", "\n".join(problems))
        sys.exit(1)
print("check_propagation names the planted hand-written propagations and stale allow-list entries, and nothing else")

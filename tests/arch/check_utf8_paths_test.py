#!/usr/bin/env python3
"""tools/check_utf8_paths.py finds what it should: in a planted tree, streams opened from a std::string (a
variable, a parameter, `*opt`, a make_unique'd one) and fopen/freopen calls are each named by file and line
and fail the run; streams opened from path_from_utf8(...), a name declared as a std::filesystem::path, a
directory entry's path(), a default-constructed stream, zip_fopen_index, comments, strings and anything
under a platform/ folder are not named."""
import os
import subprocess
import sys
import tempfile

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "check_utf8_paths.py")

PLANTED = """#include <fstream>
namespace cudnnctl {
void report(const std::string& html, const Options& opts) {
  std::ofstream out(html, std::ios::binary | std::ios::trunc);
  std::ifstream in{opts.archive};
  auto log = std::make_unique<std::ofstream>(*opts.log_file, std::ios::app);
  std::FILE* f = std::fopen(html.c_str(), "rb");
  FILE* g = fopen(name, "wb");
  std::fstream both(html + ".tmp");
}
}
"""

ACCEPTED = """#include <fstream>
#include <filesystem>
namespace fs = std::filesystem;
namespace cudnnctl {
// std::ofstream out(html);   fopen(x, "r") in a comment
const char* text = "std::ifstream in(name); fopen(name)";
void ok(const std::string& html, const fs::path& dir, const std::filesystem::path& other) {
  std::ofstream a(path_from_utf8(html), std::ios::binary);
  std::ofstream b(path_from_utf8(html) / "x.html");
  std::ifstream c(dir, std::ios::binary);
  std::ifstream d{other};
  auto p = path_from_utf8(html);
  std::ifstream e(p);
  for (const auto& entry : fs::directory_iterator(dir)) std::ifstream f(entry.path());
  std::ofstream g;
  auto h = std::make_unique<std::ifstream>(path_from_utf8(html), std::ios::binary);
  zip_file_t* z = zip_fopen_index(archive, 0, 0);
}
}
"""


def run(*roots):
    return subprocess.run([sys.executable, TOOL, *roots], capture_output=True, text=True)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


with tempfile.TemporaryDirectory() as d:
    src = os.path.join(d, "src")
    problems = []
    write(os.path.join(src, "mod", "accepted.cpp"), ACCEPTED)
    write(os.path.join(src, "platform", "win", "files.cpp"), PLANTED)  # the seam's own home may
    r = run(src)
    if r.returncode != 0:
        problems.append(f"only accepted shapes and platform/: exit {r.returncode}, want 0:\n{r.stdout}")

    write(os.path.join(src, "mod", "planted.cpp"), PLANTED)
    r = run(src)
    if r.returncode != 1:
        problems.append(f"planted: exit {r.returncode}, want 1")
    for want in ("src/mod/planted.cpp:4: std::ofstream out opened from 'html'", "src/mod/planted.cpp:5: std::ifstream in opened from 'opts.archive'",
                 "src/mod/planted.cpp:6: std::make_unique<std::ofstream>", "src/mod/planted.cpp:7: std::fopen",
                 "src/mod/planted.cpp:8: fopen", "src/mod/planted.cpp:9: std::fstream both opened from 'html +"):
        if want not in r.stdout:
            problems.append(f"'{want}' not named")
    if "accepted.cpp" in r.stdout or "platform/" in r.stdout.replace("outside platform/", "").replace("platform::", "") \
            or "check_utf8_paths: 6 file(s)" not in r.stdout:
        problems.append(f"want exactly the 6 planted sites named:\n{r.stdout}")
    if problems:
        print("FAIL:", "\n".join(problems))
        sys.exit(1)
print("check_utf8_paths names the planted narrow-string opens, and nothing else")

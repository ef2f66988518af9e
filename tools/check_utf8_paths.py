#!/usr/bin/env python3
"""Files opened by a narrow string outside src/platform/ (issue 45): cudnnctl's paths are UTF-8, and a
std::string given to std::ofstream / std::ifstream / std::fstream or to fopen is read in the ANSI code page
on Windows, so a non-ASCII --html, --output or archive path names another file there. Every file opened by
name goes through the one UTF-8 seam: a std::filesystem::path built with path_from_utf8
(include/cudnnctl/base/utf8_path.hpp), or a platform/ function (platform::open_stdio_file for a FILE*).

This names, in each C/C++ file below a root that is not in a platform/ folder:
    std::ofstream out(ARG, ...);   std::ifstream{ARG};   std::make_unique<std::ifstream>(ARG, ...)
whose first argument ARG is not a path: a path is `path_from_utf8(...)` (with `/ ...` after it), a
directory entry's `x.path()` / `x->path()`, or a name this file declares as a std::filesystem::path
(`fs::path p`, `const std::filesystem::path& p`, `auto p = path_from_utf8(...)`); and every call of
fopen / freopen (they take a char*, always narrow). Comments and string literals are skipped.

    tools/check_utf8_paths.py [ROOT...]
        exit 1 when a site is found; ROOT defaults to src/
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from function_lengths import strip_code  # noqa: E402  (the one comment and string blanker)

STREAM = r"std::(?:basic_)?(?:i|o)?fstream(?:<\s*char\s*>)?"
# a stream variable constructed with arguments, a temporary, or one made by make_unique / make_shared
STREAM_OPEN = re.compile(
    r"\b" + STREAM + r"\s+[A-Za-z_]\w*\s*[({]"
    r"|\b" + STREAM + r"\s*[({]"
    r"|\bstd::make_(?:unique|shared)\s*<\s*" + STREAM + r"\s*>\s*\(")
STDIO_OPEN = re.compile(r"(?<![\w.>])(?:std::|::)?(?:fopen|freopen|fopen64)\s*\(")
PATH_TYPE = r"(?:std::filesystem::path|std::experimental::filesystem::path|(?:fs|fsys|filesystem)::path)"


def argument_end(code, start):
    """Index of the ',' or closing bracket that ends the argument starting at `start`."""
    depth, i = 0, start
    while i < len(code):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif c == "," and depth == 0:
            return i
        i += 1
    return i


def declared_as_path(code, name):
    """Whether the file declares `name` as a std::filesystem::path (a variable, a parameter, an auto from the seam)."""
    n = re.escape(name)
    return bool(re.search(PATH_TYPE + r"\s*(?:const\s*)?&{0,2}\s*\b" + n + r"\b", code) or
                re.search(r"\bauto\s*&{0,2}\s*\b" + n + r"\s*=\s*path_from_utf8\s*\(", code) or
                re.search(r"\b" + n + r"\s*=\s*" + PATH_TYPE + r"\s*[({]", code))


def is_path_argument(code, arg):
    if re.match(r"(?:::)?(?:cudnnctl::)?path_from_utf8\s*\(", arg):
        return True
    if re.search(r"(?:\.|->)path\s*\(\s*\)$", arg):
        return True
    if re.fullmatch(PATH_TYPE + r"\s*[({].*", arg, re.S):
        return True
    if re.fullmatch(r"\*?[A-Za-z_]\w*", arg):
        return declared_as_path(code, arg.lstrip("*"))
    return False


def sites(path):
    """(line, what) of each file opened by a narrow string in a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = strip_code(f.read())
    found = []
    for m in STREAM_OPEN.finditer(code):
        start = m.end()
        arg = " ".join(code[start:argument_end(code, start)].split())
        if not arg or is_path_argument(code, arg):
            continue  # a default-constructed stream opens nothing
        found.append((code.count("\n", 0, m.start()) + 1, f"{m.group(0).rstrip('({ ')} opened from '{arg}', not a std::filesystem::path"))
    for m in STDIO_OPEN.finditer(code):
        found.append((code.count("\n", 0, m.start()) + 1, f"{m.group(0).rstrip('( ')} opens a narrow char* path"))
    return sorted(found)


def in_platform(shown):
    return "/platform/" in "/" + shown


def main(argv):
    roots = argv or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")]
    found = []
    for root in roots:
        above = os.path.join(root, "..")
        for d, _, files in os.walk(root):
            for fn in sorted(files):
                if not fn.endswith((".cpp", ".hpp", ".c", ".h", ".cc", ".cxx")):
                    continue
                p = os.path.join(d, fn)
                shown = os.path.relpath(p, above).replace(os.sep, "/")
                if in_platform(shown):
                    continue
                found += [(shown, line, what) for line, what in sites(p)]
    for shown, line, what in sorted(found):
        print(f"{shown}:{line}: {what}: on Windows that is the ANSI code page; build the path with path_from_utf8 "
              f"(base/utf8_path.hpp), or use platform::open_stdio_file for a FILE*")
    print(f"check_utf8_paths: {len(found)} file(s) opened by a narrow string outside platform/")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

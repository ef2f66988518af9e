#!/usr/bin/env python3
"""Hand-written error propagation in src/ (issue 43): CONTRIBUTING.md says to pass an error on with
CUDNNCTL_TRY / CUDNNCTL_TRY_ASSIGN (include/cudnnctl/base/error.hpp), never by hand. This names each

    if (!x) return Unexpected<Error>(x.error());          (also `if (auto x = f(); !x) ...`, `else if`)
    if (!x) {
      return Unexpected<Error>(x.error());
    }

where the error goes back untouched (std::move(x).error(), std::unexpected and a cudnnctl:: prefix count
too). A block that does something before it returns (clean-up, another message) is not named, nor is a
helper that adds context (`return drop(x.error())`). Comments, string literals and preprocessor lines
(the macros themselves) are skipped.

    tools/check_propagation.py [ROOT...]
        exit 1 when a file that is not in ALLOWED has such a site, or when a file in ALLOWED exists under a
        root but has none left (then its entry is stale: remove it); ROOT defaults to src/
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in tools/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from function_lengths import strip_code  # noqa: E402  (the one comment and string blanker)

# Files that may keep the hand-written form, with why. Paths as printed: relative to the folder above a root.
ALLOWED: dict[str, str] = {}

_UNEXPECTED = r"(?:std::unexpected|(?:::)?(?:cudnnctl::)?Unexpected)\s*(?:<\s*(?:::)?(?:cudnnctl::)?Error\s*>)?"
HAND_PROPAGATION = re.compile(
    r"!\s*(?P<var>[A-Za-z_]\w*)\s*\)"           # the condition ends in `!x)`
    r"\s*(?P<brace>\{)?\s*"                     # perhaps a block ...
    r"return\s+" + _UNEXPECTED + r"\s*[({]\s*"  # ... whose first statement returns x's error untouched
    r"(?:std::move\s*\(\s*(?P=var)\s*\)|(?P=var))\s*\.\s*error\s*\(\s*\)\s*[)}]\s*;"
    r"(?(brace)\s*\})")                         # and is its only one


def without_preprocessor(code):
    """Preprocessor lines (continued lines too) blanked, newlines kept."""
    return re.sub(r"^[ \t]*#(?:.*\\\n)*.*$", lambda m: re.sub(r"[^\n]", " ", m.group(0)), code, flags=re.M)


def sites(path):
    """(line, variable) of each hand-written propagation in a file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        code = without_preprocessor(strip_code(f.read()))
    return [(code.count("\n", 0, m.start()) + 1, m.group("var")) for m in HAND_PROPAGATION.finditer(code)]


def main(argv):
    # --allow PATH=REASON adds an entry for this run (the planted-violation test uses it)
    while len(argv) >= 2 and argv[0] == "--allow":
        path, _, reason = argv[1].partition("=")
        ALLOWED[path] = reason or "allowed for this run"
        argv = argv[2:]
    roots = argv or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")]
    found, allowed_seen, present = [], set(), set()
    for root in roots:
        above = os.path.join(root, "..")
        for d, _, files in os.walk(root):
            for fn in sorted(files):
                if not fn.endswith((".cpp", ".hpp", ".c", ".h")):
                    continue
                p = os.path.join(d, fn)
                shown = os.path.relpath(p, above).replace(os.sep, "/")
                if shown in ALLOWED:
                    present.add(shown)
                for line, var in sites(p):
                    if shown in ALLOWED:
                        allowed_seen.add(shown)
                    else:
                        found.append((shown, line, var))
    for shown, line, var in sorted(found):
        print(f"{shown}:{line}: '{var}' is propagated by hand: use CUDNNCTL_TRY or CUDNNCTL_TRY_ASSIGN "
              f"(include/cudnnctl/base/error.hpp, CONTRIBUTING.md)")
    stale = sorted(present - allowed_seen)
    for shown in stale:
        print(f"{shown}: in ALLOWED ({ALLOWED[shown]}) but propagates nothing by hand now: remove its entry "
              f"from tools/check_propagation.py")
    for shown in sorted(allowed_seen):
        print(f"allowed: {shown} ({ALLOWED[shown]})")
    print(f"check_propagation: {len(found)} hand-written propagation(s), {len(stale)} stale allow-list entr(y/ies)")
    return 1 if found or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

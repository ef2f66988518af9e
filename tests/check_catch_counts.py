#!/usr/bin/env python3
"""Every Catch case runs under CTest, exactly once.

catch_discover_tests turns each name that `cudnnctl_tests --list-test-names-only` lists into a CTest
entry whose argument is a Catch test spec. A name with `;` splits into several entries, one ending in
`\\` swallows the next, and `\\` or `,` inside a spec change what it matches; such an entry matches no
case and, without `-w NoTests`, passes. This check asks Catch which cases each CTest entry's spec
selects and fails unless every listed case is selected by exactly one entry.

usage: check_catch_counts.py <build dir> <cudnnctl_tests binary>
"""
import json
import os
import subprocess
import sys


def main() -> int:
    build, exe = sys.argv[1], sys.argv[2]
    listed = [n for n in subprocess.run([exe, "--list-test-names-only"], capture_output=True, text=True).stdout.splitlines() if n]
    shown = json.loads(subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"], capture_output=True, text=True,
                                      check=True).stdout)
    entries = [t for t in shown["tests"] if t.get("command") and os.path.basename(t["command"][0]) == os.path.basename(exe)]
    runs: dict[str, int] = {n: 0 for n in listed}
    problems = []
    for t in entries:
        spec = t["command"][1]
        extra = [a for a in t["command"][2:] if a]
        if "NoTests" not in extra:
            problems.append(f"CTest entry {t['name']!r} does not pass -w NoTests (an empty match would pass)")
        picked = [n for n in subprocess.run([exe, spec, "--list-test-names-only"], capture_output=True, text=True).stdout.splitlines() if n]
        if not picked:
            problems.append(f"CTest entry {t['name']!r} matches no Catch case")
        for n in picked:
            runs[n] = runs.get(n, 0) + 1
    for n, k in runs.items():
        if k != 1:
            problems.append(f"Catch case {n!r} is run {k} times by CTest")
    print(f"Catch lists {len(listed)} cases; CTest has {len(entries)} entries for them; "
          f"{sum(1 for k in runs.values() if k == 1)} cases run exactly once")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems or len(entries) != len(listed) else 0


if __name__ == "__main__":
    sys.exit(main())

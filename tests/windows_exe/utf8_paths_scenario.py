#!/usr/bin/env python3
"""cudnnctl.exe under wine writes its report files to non-ASCII paths (issue 45: every file opened by a
user-given name goes through the UTF-8 path seam, never the ANSI code page): `doctor --html`, `trace --output`
and `trace --html` into a folder and under names in Chinese and German. Needs only the exe and wine (no
NVIDIA DLLs: doctor reports what it finds, trace runs cmd.exe), so it runs where the other windows_exe
scenarios skip for want of the cached wheels. Skipped (SKIP:) when the exe or wine is absent.

    utf8_paths_scenario.py CUDNNCTL_EXE WORKDIR
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wine_harness import WINE, WINESERVER, check, failures, make_prefix, run_wine, skip_or_fail, wine_env  # noqa: E402

EXE, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
if not os.path.isfile(EXE):
    skip_or_fail(f"{EXE} is not built (scripts/build-windows.sh builds it)")
if not WINE:
    skip_or_fail("wine64 is not installed")

shutil.rmtree(os.path.join(WORK, "out"), ignore_errors=True)
OUT = os.path.join(WORK, "out", "报告 Über")
os.makedirs(OUT)
ENV = wine_env(os.path.join(WORK, "wineprefix"))
make_prefix(ENV)


def win(path):
    """A Unix path as wine sees it (Z: is /)."""
    return "Z:" + path.replace("/", "\\")


def html_in(path):
    return os.path.isfile(path) and "<html" in open(path, encoding="utf-8", errors="replace").read().lower()


doctor_html = os.path.join(OUT, "doctor 诊断.html")
rc, out, err = run_wine(ENV, EXE, "doctor", "--layer", "1", "--html", win(doctor_html))
check(rc in (0, 10, 11) and html_in(doctor_html), f"doctor --html {win(doctor_html)}: the page is there (rc {rc}) {err[-300:]}")

report, page = os.path.join(OUT, "trace 跟踪.txt"), os.path.join(OUT, "trace 跟踪.html")
rc, out, err = run_wine(ENV, EXE, "trace", "--output", win(report), "--html", win(page), "--", "C:\\windows\\system32\\cmd.exe", "/c", "exit 3")
text = open(report, encoding="utf-8", errors="replace").read() if os.path.isfile(report) else ""
check(rc == 3 and "cudnnctl trace" in text and "exited with 3" in text, f"trace --output {win(report)}: the report is there (rc {rc}) {err[-300:]}")
check(html_in(page), f"trace --html {win(page)}: the page is there")
check(sorted(os.listdir(OUT)) == sorted(os.path.basename(p) for p in (doctor_html, report, page)),
      f"nothing written under another (mis-encoded) name: {os.listdir(OUT)} {os.listdir(os.path.dirname(OUT))}")

subprocess.run([WINESERVER, "-k"], env=ENV)
print(f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)

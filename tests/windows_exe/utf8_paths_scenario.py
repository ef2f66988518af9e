#!/usr/bin/env python3
"""cudnnctl.exe under wine writes its report files to non-ASCII paths (issue 45: every file opened by a
user-given name goes through the UTF-8 path seam, never the ANSI code page): `doctor --html`, `trace --output`
and `trace --html` into a folder and under names in Chinese and German. Needs only the exe and wine (no
NVIDIA DLLs: doctor reports what it finds, trace runs cmd.exe), so it runs where the other windows_exe
scenarios skip for want of the cached wheels. Skipped (SKIP:) when the exe or wine is absent.

Twice: the exe as built, whose manifest asks for the UTF-8 code page (activeCodePage, honoured from Windows 10
1903 and by wine), and a copy whose activeCodePage element is renamed so that it is ignored, as Windows before
1903 ignores it: that one runs in the ANSI code page, where a UTF-8 std::string given to std::ofstream names
another file (the bug of issue 45: doctor and trace exited 8 and wrote nothing).

    utf8_paths_scenario.py CUDNNCTL_EXE WORKDIR
"""
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wine_harness import finish, WINE, WINESERVER, check, failures, make_prefix, run_wine, skip_or_fail, wine_env  # noqa: E402

EXE, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
if not os.path.isfile(EXE):
    skip_or_fail(f"{EXE} is not built (scripts/build-windows.sh builds it)")
if not WINE:
    skip_or_fail("wine64 is not installed")

ENV = wine_env(os.path.join(WORK, "wineprefix"))
make_prefix(ENV)


def win(path):
    """A Unix path as wine sees it (Z: is /)."""
    return "Z:" + path.replace("/", "\\")


def html_in(path):
    return os.path.isfile(path) and "<html" in open(path, encoding="utf-8", errors="replace").read().lower()


def legacy_copy():
    """The exe with its manifest's activeCodePage element renamed (same length): the ANSI code page applies."""
    data = open(EXE, "rb").read()
    legacy = data.replace(b"<activeCodePage ", b"<activeCodePagX ").replace(b"</activeCodePage>", b"</activeCodePagX>")
    check(legacy != data, "the exe's manifest has an activeCodePage element to disable")
    path = os.path.join(WORK, "cudnnctl-legacy-codepage.exe")
    open(path, "wb").write(legacy)
    return path


def writes_reports(exe, label):
    out_dir = os.path.join(WORK, "out", label, "报告 Über")
    shutil.rmtree(os.path.dirname(out_dir), ignore_errors=True)
    os.makedirs(out_dir)
    doctor_html = os.path.join(out_dir, "doctor 诊断.html")
    rc, out, err = run_wine(ENV, exe, "doctor", "--layer", "1", "--html", win(doctor_html))
    check(rc in (0, 10, 11) and html_in(doctor_html), f"{label}: doctor --html {win(doctor_html)}: the page is there (rc {rc}) {err[-300:]}")
    report, page = os.path.join(out_dir, "trace 跟踪.txt"), os.path.join(out_dir, "trace 跟踪.html")
    rc, out, err = run_wine(ENV, exe, "trace", "--output", win(report), "--html", win(page), "--", "C:\\windows\\system32\\cmd.exe", "/c", "exit 3")
    text = open(report, encoding="utf-8", errors="replace").read() if os.path.isfile(report) else ""
    check(rc == 3 and "cudnnctl trace" in text and "exited with 3" in text,
          f"{label}: trace --output {win(report)}: the report is there (rc {rc}) {err[-300:]}")
    check(html_in(page), f"{label}: trace --html {win(page)}: the page is there")
    check(sorted(os.listdir(out_dir)) == sorted(os.path.basename(p) for p in (doctor_html, report, page)),
          f"{label}: nothing written under another (mis-encoded) name: {os.listdir(out_dir)} {os.listdir(os.path.dirname(out_dir))}")


writes_reports(EXE, "utf-8 code page")
writes_reports(legacy_copy(), "ANSI code page")

finish(ENV, WORK, "")

#!/usr/bin/env python3
"""`cudnnctl.exe trace` under wine64, through the CLI, on NVIDIA's real cudnn64_9.dll. CTest label: windows_exe.

tests/windows/trace_probe.cpp is built with mingw-w64 (with tests/windows/fake_plain.cpp as cublasLt64_12.dll
beside it, so one DLL comes from the application folder). Then
    cudnnctl.exe trace --json -- trace_probe.exe 5 load:cudnn64_9.dll load:cublasLt64_12.dll child:cudnn64_9.dll echo:...
runs with the nvidia-cudnn-cu12 9.1.0.70 wheel's bin first on PATH, and the report is checked: the DLL paths in
load order, the search step of each (PATH, application folder), cuDNN's version from its version resource,
both processes, no faults; the probe's own output (cudnnGetVersion's 90100, an argument with spaces and quotes)
passes through, and its exit code 5 is cudnnctl's. A missing program exits 127. The text report is printed.

    trace_scenario.py CUDNNCTL_EXE WORKDIR [WHEEL_CACHE]
Skips (prints SKIP:) when the exe, wine64, mingw-w64 or the cached wheel is absent, unless
CUDNNCTL_REQUIRE_WINDOWS_EXE=1 (CI), which makes that a failure. Wheels: tests/windows_exe/fetch_wheels.sh.
"""
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wine_harness import finish, WINE, check, failures, make_prefix, run_wine, skip_or_fail, wine_env  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(os.path.dirname(HERE), "windows")
EXE, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CACHE = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cudnnctl", "wheels")
CUDNN_BIN = os.path.join(CACHE, "nvidia-cudnn-cu12-9.1.0.70", "bin")
GXX = shutil.which("x86_64-w64-mingw32-g++-posix") or shutil.which("x86_64-w64-mingw32-g++")


if not os.path.isfile(EXE):
    skip_or_fail(f"{EXE} is not built (scripts/build-windows.sh builds it)")
if not WINE:
    skip_or_fail("wine64 is not installed")
if not GXX:
    skip_or_fail("mingw-w64 (x86_64-w64-mingw32-g++) is not installed")
if not os.path.isfile(os.path.join(os.path.dirname(CUDNN_BIN), ".complete")):
    skip_or_fail(f"NVIDIA's Windows DLLs are not cached in {os.path.dirname(CUDNN_BIN)} (tests/windows_exe/fetch_wheels.sh)")

def win(path):
    """A Unix path as wine sees it (Z: is /)."""
    return "Z:" + path.replace("/", "\\")


def same(a, b):
    return a.replace("/", "\\").lower() == b.replace("/", "\\").lower()


shutil.rmtree(WORK, ignore_errors=True)
APP = os.path.join(WORK, "app dir")  # a space in the program's path: quoted on the command line
os.makedirs(APP)
t = time.time()
for args in ([GXX, "-std=c++20", "-O1", "-static", "-municode", "-o", os.path.join(APP, "trace_probe.exe"), os.path.join(SRC, "trace_probe.cpp")],
             [GXX, "-shared", "-O1", "-static", "-o", os.path.join(APP, "cublasLt64_12.dll"), os.path.join(SRC, "fake_plain.cpp")]):
    subprocess.run(args, check=True)
print(f"  built trace_probe.exe and cublasLt64_12.dll in {time.time() - t:.1f} s", flush=True)

ENV = wine_env(os.path.join(WORK, "wineprefix"))
# wine builds the Windows PATH from WINEPATH (prepended): the wheel's bin comes first
ENV["WINEPATH"] = win(CUDNN_BIN)


def wine(*args, timeout=600):
    return run_wine(ENV, *args, timeout=timeout)


make_prefix(ENV)

PROBE = win(os.path.join(APP, "trace_probe.exe"))
ECHO = 'echo:two words "quoted" C:\\end\\'
STEPS = ["load:cudnn64_9.dll", "load:cublasLt64_12.dll", "child:cudnn64_9.dll", ECHO]
REPORT = os.path.join(WORK, "trace.json")

rc, out, err = wine(EXE, "trace", "--json", "--output", win(REPORT), "--", PROBE, "5", *STEPS)
check(rc == 5, f"cudnnctl exits with the command's exit code (5): {rc}")
check(out == "cudnn64_9.dll version 90100\ncudnn64_9.dll version 90100\n[two words \"quoted\" C:\\end\\]\n",
      f"the command's output passes through unchanged, its argument whole: {out!r}")
try:
    with open(REPORT, encoding="utf-8") as f:
        doc = json.load(f)
except (OSError, json.JSONDecodeError) as e:
    print(err[-3000:])
    check(False, f"the JSON report was written to --output: {e}")
    sys.exit(1)
check(doc["schema"] == "cudnnctl.trace/1" and doc["exit_code"] == 5, "schema cudnnctl.trace/1 with the exit code")
procs = doc["processes"]
check(len(procs) == 2, f"the command and the child it started: {len(procs)} processes")
if len(procs) == 2:
    check(procs[1]["ppid"] == procs[0]["pid"], "the child names the command as its parent")
    check(all(same(p["program"], PROBE) for p in procs), f"both run trace_probe.exe: {[p['program'] for p in procs]}")
libs = doc["libraries"]
names = [(l["pid"], os.path.basename(l["path"].replace("\\", "/"))) for l in libs]
print("  loaded:", [(l["order"], l["path"], l["step"], l["version"]) for l in libs])
root = procs[0]["pid"] if procs else None
first = [l for l in libs if l["pid"] == root]
check(len(first) >= 2 and first[0]["name"].lower() == "cudnn64_9.dll" and same(first[0]["path"], win(os.path.join(CUDNN_BIN, "cudnn64_9.dll"))),
      "the command's first traced DLL is NVIDIA's cudnn64_9.dll from the wheel's bin")
if first:
    check(first[0]["step"] == "PATH", f"found via PATH: {first[0]['step']}")
    check(first[0]["family"] == "cudnn" and first[0]["version"] == "9.1.0.70" and first[0]["version_source"] == "version resource",
          f"cuDNN 9.1.0.70 from its version resource: {first[0]['version']} ({first[0]['version_source']})")
lt = [l for l in first if l["name"].lower() == "cublaslt64_12.dll"]
check(len(lt) == 1 and same(lt[0]["path"], win(os.path.join(APP, "cublasLt64_12.dll"))) and lt[0]["step"] == "application folder"
      and lt[0]["family"] == "cublasLt" and lt[0]["major"] == 12, "cublasLt64_12.dll from the application folder, CUDA 12")
if lt:
    check(lt[0]["version"] == "12" and lt[0]["version_source"] == "number in the DLL name",
          f"a DLL without a version resource: its number ({lt[0]['version']}, {lt[0]['version_source']})")
order = [n for _, n in names]
check(order.index("cudnn64_9.dll") < order.index("cublasLt64_12.dll"), f"load order kept: {order}")
child = [l for l in libs if len(procs) == 2 and l["pid"] == procs[1]["pid"]]
check(len(child) >= 1 and child[0]["name"].lower() == "cudnn64_9.dll" and child[0]["step"] == "PATH", "the child's cudnn64_9.dll, via PATH")
check(all(l["family"] != "other" for l in libs), "only the cuDNN/CUDA libraries are listed")
check(doc["missing"] == [] and doc["faults"] == [], f"nothing missing, no faults: {doc['missing']} {doc['faults']}")

# --output (and --html) under a non-ASCII name: opened through the UTF-8 seam, not the ANSI code page (issue 45)
NA_DIR = os.path.join(WORK, "报告 Über")
os.makedirs(NA_DIR)
NA_REPORT, NA_HTML = os.path.join(NA_DIR, "trace 跟踪.json"), os.path.join(NA_DIR, "trace 跟踪.html")
rc, out, err = wine(EXE, "trace", "--json", "--output", win(NA_REPORT), "--html", win(NA_HTML), "--", PROBE, "0", "load:cudnn64_9.dll")
try:
    with open(NA_REPORT, encoding="utf-8") as f:
        na_doc = json.load(f)
except (OSError, json.JSONDecodeError) as e:
    na_doc = {}
    print(err[-2000:], os.listdir(NA_DIR))
check(rc == 0 and na_doc.get("schema") == "cudnnctl.trace/1", f"trace --output {win(NA_REPORT)} writes the report there (rc {rc})")
check(os.path.isfile(NA_HTML) and "<html" in open(NA_HTML, encoding="utf-8").read().lower(), f"trace --html {win(NA_HTML)} writes the page there")

rc, out, err = wine(EXE, "trace", "--", PROBE, "0", "load:cudnn64_9.dll")
print(err)
check(rc == 0 and "cudnn64_9.dll version 90100" in out, "the text report: the command's output on stdout")
check("found via PATH" in err and "cudnn 9.1.0.70 (read from the version resource)" in err, "the text report on stderr")

rc, out, err = wine(EXE, "trace", "--", win(os.path.join(WORK, "no-such-program.exe")))
check(rc == 127 and "cannot run" in err, f"a program that is not there: exit 127 ({rc})")

finish(ENV, WORK, " in trace_scenario")

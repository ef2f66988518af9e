#!/usr/bin/env python3
"""`doctor` offline on NVIDIA's real Windows cuDNN 9.1.0.70 DLLs (from the nvidia-cudnn-cu12 win_amd64
wheel, fetched by fetch_windows_wheel.sh into a cache), laid out as a mounted Windows disk: healthy
first, then one thing broken per case. Through the CLI and its JSON. CTest label: windows_dlls.

    real_windows_dlls.py CUDNNCTL [CACHE]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

CUDNNCTL = sys.argv[1]
CACHE = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cudnnctl", "wheels")
WHEEL = os.path.join(CACHE, "nvidia-cudnn-cu12-9.1.0.70")
if not os.path.isfile(os.path.join(WHEEL, ".complete")):
    if os.environ.get("CUDNNCTL_REQUIRE_WINDOWS_DLLS") == "1":
        print(f"FAIL: CUDNNCTL_REQUIRE_WINDOWS_DLLS=1 but {WHEEL} is not there: run tests/doctor/fetch_windows_wheel.sh")
        sys.exit(1)
    print(f"SKIP: NVIDIA's Windows DLLs are not cached in {WHEEL} (tests/doctor/fetch_windows_wheel.sh fetches them)")
    sys.exit(0)

failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def doctor(*args):
    p = subprocess.run([CUDNNCTL, "doctor", "--json", *args], capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout)


def by_id(report, cid):
    return [c for c in report["checks"] if c["id"] == cid]


tmp = tempfile.mkdtemp(prefix="cudnnctl-real-dlls-")
try:
    c = os.path.join(tmp, "c")
    tk = os.path.join(c, "Program Files", "NVIDIA GPU Computing Toolkit", "CUDA", "v12.4")
    bin_dir = os.path.join(tk, "bin")
    os.makedirs(bin_dir)
    os.makedirs(os.path.join(tk, "lib", "x64"))
    shutil.copytree(os.path.join(WHEEL, "include"), os.path.join(tk, "include"))
    with open(os.path.join(tk, "include", "cuda.h"), "w") as f:
        f.write("#define CUDA_VERSION 12040\n")
    with open(os.path.join(tk, "version.json"), "w") as f:
        f.write('{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}\n')
    dlls = sorted(n for n in os.listdir(os.path.join(WHEEL, "bin")) if n.endswith(".dll"))
    for n in dlls:  # links, not copies: 1 GB of DLLs
        os.symlink(os.path.join(WHEEL, "bin", n), os.path.join(bin_dir, n))
    for n in ("cublasLt64_12.dll", "nvrtc64_120_0.dll", "cudart64_12.dll"):
        with open(os.path.join(bin_dir, n), "w") as f:
            f.write("toolkit DLL stand-in\n")
    sys32 = os.path.join(c, "Windows", "System32")
    os.makedirs(sys32)
    shutil.copy(os.path.join(WHEEL, "bin", "cudnn64_9.dll"), os.path.join(sys32, "kernel32.dll"))
    path_value = r"C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v12.4\bin;%SystemRoot%\system32"

    # healthy
    html = os.path.join(tmp, "report.html")
    code, r = doctor("--cuda-path", tk, "--path-value", path_value, "--html", html)
    print(json.dumps([[x["id"], x["status"], x["finding"]] for x in r["checks"]], indent=1))
    check(code == 11, f"healthy offline: exit 11 (got {code})")
    check(all(x["status"] != "fail" for x in r["checks"]), "healthy offline: no check fails")
    v = by_id(r, "files.versions")[0]
    check(v["status"] == "pass" and "9.1.0.70" in v["finding"], "version resources: the DLLs report 9.1.0.70")
    check("cudnn_graph64_9.dll" in v["finding"] and "cudnn_heuristic64_9.dll" in v["finding"],
          "NVIDIA's graph and heuristic DLLs carry no version resource, and that is said")
    check(by_id(r, "files.dlls")[0]["status"] == "pass", "all 8 DLLs are x64 PE files with their cuDNN imports present")
    needed = by_id(r, "loader.needed")[0]
    check(needed["status"] == "pass" and "System32" in needed["finding"], "every import resolves (KERNEL32.dll in System32, case-insensitively)")
    check(by_id(r, "files.search_path")[0]["status"] == "pass", "the toolkit's copy is the one PATH gives")
    check(by_id(r, "loader.load")[0]["status"] == "skip", "nothing is loaded offline")
    check(os.path.getsize(html) > 2000 and "search-order" in open(html).read(), "the HTML report is written")

    # a sub-DLL missing: the DLLs that import it are named
    os.rename(os.path.join(bin_dir, "cudnn_graph64_9.dll"), os.path.join(tmp, "graph.dll"))
    code, r = doctor("--cuda-path", tk, "--path-value", path_value)
    f = " ".join(x["finding"] for x in by_id(r, "loader.needed") + by_id(r, "files.dlls"))
    check(code == 10 and "cudnn_ops64_9.dll" in f and "cudnn_graph64_9.dll" in f, "missing cudnn_graph64_9.dll: its importers are named (exit 10)")
    os.rename(os.path.join(tmp, "graph.dll"), os.path.join(bin_dir, "cudnn_graph64_9.dll"))

    # emptied by antivirus
    os.remove(os.path.join(bin_dir, "cudnn_cnn64_9.dll"))
    open(os.path.join(bin_dir, "cudnn_cnn64_9.dll"), "w").close()
    code, r = doctor("--cuda-path", tk, "--path-value", path_value)
    check(code == 10 and "cudnn_cnn64_9.dll is not a readable DLL" in by_id(r, "files.dlls")[0]["finding"], "an emptied DLL is named")
    os.remove(os.path.join(bin_dir, "cudnn_cnn64_9.dll"))
    os.symlink(os.path.join(WHEEL, "bin", "cudnn_cnn64_9.dll"), os.path.join(bin_dir, "cudnn_cnn64_9.dll"))

    # a cuDNN 8 leftover beside cuDNN 9
    os.symlink(os.path.join(WHEEL, "bin", "cudnn_ops64_9.dll"), os.path.join(bin_dir, "cudnn_ops_infer64_8.dll"))
    code, r = doctor("--cuda-path", tk, "--path-value", path_value)
    stale = by_id(r, "files.stale")
    check(bool(stale) and stale[0]["status"] == "warn" and "cudnn_ops_infer64_8.dll" in stale[0]["finding"], "a cuDNN 8 DLL left behind is named")
    os.remove(os.path.join(bin_dir, "cudnn_ops_infer64_8.dll"))

    # another copy first on PATH shadows the toolkit's
    other = os.path.join(c, "Users", "me", "cudnn", "bin")
    os.makedirs(other)
    os.symlink(os.path.join(WHEEL, "bin", "cudnn64_9.dll"), os.path.join(other, "cudnn64_9.dll"))
    code, r = doctor("--cuda-path", tk, "--path-value", r"C:\Users\me\cudnn\bin;" + path_value)
    sp = by_id(r, "files.search_path")[0]
    check(code == 10 and sp["status"] == "fail" and r"C:\Users\me\cudnn\bin" in sp["finding"] and "9.1.0.70" in sp["finding"],
          "a copy earlier on PATH is named as the one programs load")

    # no System32 given or mapped: the system imports are said to be unchecked
    code, r = doctor("--cuda-path", tk, "--drive", "Z:=/nonexistent")
    check("not checked without --system32" in by_id(r, "loader.needed")[0]["finding"], "without System32 the system imports are not claimed")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"real Windows DLLs: {len(failures)} failed")
sys.exit(1 if failures else 0)

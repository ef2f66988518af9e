#!/usr/bin/env python3
"""cudnnctl.exe (scripts/build-windows.sh) under wine64, on NVIDIA's real Windows DLLs: the article's
scenario end to end. CTest label: windows_exe.

A zip laid out exactly like NVIDIA's cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip (top folder, bin\\,
include\\, lib\\x64\\, LICENSE) is made from the nvidia-cudnn-cu12 9.1.0.70 win_amd64 wheel's DLLs and headers
(the wheel has no import libraries: lib\\x64\\*.lib are empty ar archives). It is not NVIDIA's archive, so its
SHA-256 differs from the catalog's and every install passes --sha256 of the zip we made. A CUDA 12.4 toolkit
is laid out in the wine prefix with the real cublasLt64_12.dll and nvrtc64_120_0.dll (from the
nvidia-cublas-cu12 / nvidia-cuda-nvrtc-cu12 12.4 wheels) in its bin. Then: install, path --apply --scope user
(a new wine process sees the new PATH; before it, doctor --fix --yes does the same through the loader-path fix), doctor (layer 3 loads the DLLs: 90100 and cudart 12040; layer 4: no
nvcuda.dll, no driver), doctor --html, a second install (changed=false), uninstall (the toolkit as before);
all of it once more under non-ASCII paths (C:\\Users\\张三\\cuda\\v12.4, C:\\我的 cuDNN\\), with verify,
extract and path too.

    scenario.py CUDNNCTL_EXE WORKDIR [WHEEL_CACHE] [--no-doctor | --only-doctor]
Skips (prints SKIP:) when the exe, wine64 or the cached wheels are absent, unless
CUDNNCTL_REQUIRE_WINDOWS_EXE=1 (CI), which makes that a failure. Wheels: tests/windows_exe/fetch_wheels.sh.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wine_harness import drive_c_path, finish, make_cuda_toolkit, WINE, WINESERVER, check, failures, make_prefix, run_wine, run_wine_json, skip_or_fail, wine_env  # noqa: E402

FLAGS = [a for a in sys.argv[1:] if a.startswith("--")]
ARGS = [a for a in sys.argv[1:] if not a.startswith("--")]
DOCTOR = "--no-doctor" not in FLAGS       # the doctor's checks (layers 3-4 on the installed DLLs)
OTHERS = "--only-doctor" not in FLAGS     # everything else
EXE, WORK = os.path.abspath(ARGS[0]), os.path.abspath(ARGS[1])
CACHE = ARGS[2] if len(ARGS) > 2 else os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cudnnctl", "wheels")
CUDNN = os.path.join(CACHE, "nvidia-cudnn-cu12-9.1.0.70")
CUBLAS = os.path.join(CACHE, "nvidia-cublas-cu12-12.4.5.8")
NVRTC = os.path.join(CACHE, "nvidia-cuda-nvrtc-cu12-12.4.127")
ARCHIVE = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive"


if not os.path.isfile(EXE) and os.environ.get("CUDNNCTL_WINDOWS_EXE_ARCHIVE_ONLY") != "1":
    skip_or_fail(f"{EXE} is not built (scripts/build-windows.sh builds it)")
if not WINE:
    skip_or_fail("wine64 is not installed")
ARCHIVE_ONLY = os.environ.get("CUDNNCTL_WINDOWS_EXE_ARCHIVE_ONLY") == "1"  # only make the zip (CI, ahead of the tests)
for d in (CUDNN,) if ARCHIVE_ONLY else (CUDNN, CUBLAS, NVRTC):
    if not os.path.isfile(os.path.join(d, ".complete")):
        skip_or_fail(f"NVIDIA's Windows DLLs are not cached in {d} (tests/windows_exe/fetch_wheels.sh fetches them)")

PREFIX = os.path.join(WORK, "wineprefix")
DRIVE_C = os.path.join(PREFIX, "drive_c")
ENV = wine_env(PREFIX)


def unix(win_path):
    """C:\\x\\y -> the file in the wine prefix."""
    return drive_c_path(PREFIX, win_path)


def wine(*args, timeout=600):
    return run_wine(ENV, *args, timeout=timeout)


def cudnnctl(*args, **kw):
    return wine(EXE, *args, **kw)


def cudnnctl_json(*args):
    return run_wine_json(ENV, EXE, *args, "--json", timeout=600)


def by_id(report, cid):
    return next((c for c in report["checks"] if c["id"] == cid), {"status": "absent", "finding": ""})


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def make_archive():
    """The zip, cached beside the wheels (1 GB of DLLs: about a minute to deflate)."""
    out = os.path.join(CACHE, "windows-exe", ARCHIVE + ".zip")
    if os.path.isfile(out + ".sha256"):
        return out, open(out + ".sha256").read().split()[0]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    stage = os.path.join(WORK, "stage", ARCHIVE)
    shutil.rmtree(os.path.dirname(stage), ignore_errors=True)
    os.makedirs(os.path.join(stage, "lib", "x64"))
    shutil.copytree(os.path.join(CUDNN, "bin"), os.path.join(stage, "bin"), copy_function=os.link)
    shutil.copytree(os.path.join(CUDNN, "include"), os.path.join(stage, "include"), copy_function=os.link)
    for dll in os.listdir(os.path.join(stage, "bin")):
        stem = dll[:-len("64_9.dll")]
        for lib in (stem + ".lib", stem + "64_9.lib"):
            with open(os.path.join(stage, "lib", "x64", lib), "wb") as f:
                f.write(b"!<arch>\n")
    with open(os.path.join(stage, "LICENSE"), "w") as f:
        f.write("Stand-in for NVIDIA's cuDNN license: this zip was laid out from the nvidia-cudnn-cu12 9.1.0.70 wheel.\n")
    if os.path.exists(out + ".tmp"):
        os.remove(out + ".tmp")
    t = time.time()
    subprocess.run(["zip", "-1", "-q", "-r", "-X", out + ".tmp", ARCHIVE], cwd=os.path.dirname(stage), check=True)
    os.replace(out + ".tmp", out)
    digest = sha256(out)
    with open(out + ".sha256", "w") as f:
        f.write(f"{digest}  {ARCHIVE}.zip\n")
    print(f"made {out} in {time.time() - t:.0f} s: {os.path.getsize(out)} bytes, SHA-256 {digest}")
    return out, digest


def make_toolkit(win_root):
    return make_cuda_toolkit(unix(win_root), (CUBLAS, NVRTC))


def tree(root):
    """Every file below root with its size (and link target): the toolkit's state."""
    out = {}
    for d, _, files in os.walk(root):
        for n in files:
            p = os.path.join(d, n)
            out[os.path.relpath(p, root)] = os.readlink(p) if os.path.islink(p) else os.path.getsize(p)
    return out


def user_path():
    rc, out, _ = wine("reg", "query", "HKCU\\Environment", "/v", "PATH")
    return out if rc == 0 else ""


def search_path_status(report):
    return [c["status"] for c in (report or {}).get("checks", []) if c["id"] == "files.search_path"]


def doctor_fix_path(label, toolkit_win, bin_win):
    """doctor --fix on Windows (issue 55 item 4): the toolkit's bin not on PATH is put first in HKCU\\Environment's
    PATH, as path --apply --scope user does; the check runs again with the PATH a new program gets and passes."""
    rc, j, err = cudnnctl_json("doctor", "--cuda-path", toolkit_win, "--check", "files.search_path")
    check(search_path_status(j) in (["fail"], ["warn"]), f"{label}: before the fix files.search_path fails or warns: {search_path_status(j)} {err[-300:]}")
    path_before = user_path()
    rc, j, err = cudnnctl_json("doctor", "--cuda-path", toolkit_win, "--fix", "files.search_path", "--dry-run")
    steps = (j or {}).get("plan", {}).get("steps", [])
    check(rc == 10 and [s["check"] for s in steps] == ["files.search_path"], f"{label}: doctor --fix --dry-run plans the PATH fix (rc {rc}): {steps} {err[-300:]}")
    if steps:
        check(steps[0]["command"].endswith("--apply --scope user") and "HKCU\\Environment" in steps[0]["changes"][0],
              f"{label}: the step is path --apply --scope user on HKCU\\Environment: {steps[0]}")
    check(user_path() == path_before, f"{label}: --dry-run leaves the registry PATH as it was")
    rc, j, err = cudnnctl_json("doctor", "--cuda-path", toolkit_win, "--fix", "--yes")
    results = (j or {}).get("results", [])
    fixed = {c["id"]: c for c in (j or {}).get("checks", [])}
    check(rc == 0 and [r["check"] for r in results] == ["files.search_path"] and all(r["applied"] for r in results),
          f"{label}: doctor --fix --yes applies the PATH fix and exits 0 (rc {rc}): {results} {err[-400:]}")
    after = [x["status"] for x in fixed.get("files.search_path", {}).get("after", [])]
    check(after == ["pass"], f"{label}: files.search_path passes afterwards, with the PATH a new program gets: {fixed}")
    if bin_win.isascii():  # reg.exe prints in the console code page, not UTF-8
        check(user_path().lower().count(bin_win.lower()) == 1, f"{label}: HKCU\\Environment PATH holds {bin_win} once: {user_path()}")
    rc, j, err = cudnnctl_json("doctor", "--cuda-path", toolkit_win, "--check", "files.search_path")
    check(search_path_status(j) == ["pass"], f"{label}: a new doctor process passes files.search_path: {search_path_status(j)}")
    rc, j, err = cudnnctl_json("doctor", "--cuda-path", toolkit_win, "--fix", "--yes")
    check(rc == 0 and not (j or {}).get("plan", {}).get("steps"), f"{label}: a second doctor --fix plans nothing (rc {rc})")


def scenario(label, toolkit_win, zip_win, zip_sha, extra=()):
    print(f"--- {label}: toolkit {toolkit_win}, archive {zip_win}")
    root = make_toolkit(toolkit_win)
    before = tree(root)
    bin_win = toolkit_win + "\\bin"
    wine("reg", "delete", "HKCU\\Environment", "/v", "PATH", "/f")

    rc, j, err = cudnnctl_json("install", zip_win, "--cuda-path", toolkit_win, "--sha256", zip_sha)
    check(rc == 0 and j and j.get("changed") is True, f"{label}: install rc 0, changed=true (rc {rc}) {err[-300:]}")
    for dll in os.listdir(os.path.join(CUDNN, "bin")):
        got = os.path.join(root, "bin", dll)
        check(os.path.isfile(got) and os.path.getsize(got) == os.path.getsize(os.path.join(CUDNN, "bin", dll)),
              f"{label}: {dll} installed in bin at its size")
    check(sha256(os.path.join(root, "bin", "cudnn64_9.dll")) == sha256(os.path.join(CUDNN, "bin", "cudnn64_9.dll")),
          f"{label}: installed cudnn64_9.dll is byte for byte NVIDIA's")
    check(os.path.isfile(os.path.join(root, ".cudnnctl", "receipt.json")), f"{label}: receipt written")
    check((j or {}).get("receipt_path") == toolkit_win + "\\.cudnnctl\\receipt.json",
          f"{label}: the receipt's path is printed with backslashes: {(j or {}).get('receipt_path')}")

    if OTHERS:
        doctor_fix_path(label, toolkit_win, bin_win)
        rc, out, err = cudnnctl("path", "--cuda-path", toolkit_win, "--apply", "--scope", "user")
        check(rc == 0, f"{label}: path --apply --scope user rc 0 {err[-300:]}")
        if bin_win.isascii():  # reg.exe and cmd print in the console code page, not UTF-8
            check(bin_win.lower() in user_path().lower(), f"{label}: HKCU\\Environment PATH holds {bin_win}")
            rc, out, _ = wine("cmd", "/c", "echo %PATH%")
            check(bin_win.lower() in out.lower(), f"{label}: a new wine process sees {bin_win} on PATH")
        rc, j, _ = cudnnctl_json("path", "--cuda-path", toolkit_win)
        order = (j or {}).get("shadow_scan", {}).get("order", []) if j else []
        check(any(o.get("via") == "PATH" and o.get("dir", "").lower() == bin_win.lower() for o in order),
              f"{label}: a new cudnnctl process has {bin_win} on its PATH (from HKCU\\Environment)")
        copies = (j or {}).get("shadow_scan", {}).get("copies", []) if j else []
        check(any(c.get("dir", "").lower() == bin_win.lower() and c.get("version", "").startswith("9.1.0") for c in copies),
              f"{label}: path (new process) finds cuDNN 9.1.0 in {bin_win} on the search order: {copies}")

    if DOCTOR:
        rc, j, err = cudnnctl_json("doctor", "--cuda-path", toolkit_win)
        check(j is not None, f"{label}: doctor --json parses {err[-300:]}")
        if j:
            for c in j["checks"]:
                print(f"    {c['status']:5} {c['id']:24} {c['finding'][:150]}")
            load = by_id(j, "loader.load")
            check(load["status"] == "pass" and "90100" in load["finding"] and "12040" in load["finding"],
                  f"{label}: doctor layer 3 loads NVIDIA's DLLs: 90100, cudart 12040: {load['finding']}")
            check(by_id(j, "loader.needed")["status"] == "pass", f"{label}: loader.needed passes (PE imports, DLL search order)")
            rt = by_id(j, "loader.runtime_deps")
            check(rt["status"] == "pass" and "cublasLt64_12.dll" in rt["finding"] and "nvrtc64_120_0.dll" in rt["finding"],
                  f"{label}: loader.runtime_deps finds cublasLt64_12.dll and nvrtc64_120_0.dll: {rt['finding']}")
            drv = by_id(j, "driver.library")
            check(drv["status"] == "skip" and "nvcuda.dll" in drv["finding"], f"{label}: layer 4: no nvcuda.dll, no driver: {drv['finding']}")
            check(not [c for c in j["checks"] if c["status"] == "fail"], f"{label}: doctor has no failed check")
        check(rc == 11, f"{label}: doctor exits 11 (healthy up to the GPU layers, skipped): rc {rc}")
        # the non-ASCII run writes its report under a non-ASCII name too (issue 45: opened through the UTF-8 seam)
        html_win = ("C:\\out\\" if label.isascii() and toolkit_win.isascii() else "C:\\我的 cuDNN\\报告 ") + label + "-doctor.html"
        os.makedirs(os.path.dirname(unix(html_win)), exist_ok=True)
        rc, out, err = cudnnctl("doctor", "--cuda-path", toolkit_win, "--html", html_win)
        html = open(unix(html_win), encoding="utf-8").read() if os.path.isfile(unix(html_win)) else ""
        check(rc == 11 and "90100" in html and "<html" in html.lower(), f"{label}: doctor --html writes the report to {html_win} (rc {rc})")

    for step in (extra if OTHERS else ()):
        step()

    rc, j, err = cudnnctl_json("install", zip_win, "--cuda-path", toolkit_win, "--sha256", zip_sha)
    check(rc == 0 and j and j.get("changed") is False, f"{label}: second install rc 0, changed=false {err[-300:]}")
    rc, out, err = cudnnctl("uninstall", "--cuda-path", toolkit_win)
    check(rc == 0, f"{label}: uninstall rc 0 {err[-300:]}")
    check(tree(root) == before, f"{label}: after uninstall the toolkit is as before: {sorted(set(tree(root)) ^ set(before))}")
    wine("reg", "delete", "HKCU\\Environment", "/v", "PATH", "/f")


os.makedirs(WORK, exist_ok=True)
zip_path, zip_sha = make_archive()
if ARCHIVE_ONLY:
    sys.exit(0)
make_prefix(ENV)
check(os.path.isdir(DRIVE_C), "wine prefix exists")

rc, out, _ = cudnnctl("--version")
check(rc == 0 and "windows-x86_64" in out, f"cudnnctl.exe --version: {out.strip()}")
rc, out, err = cudnnctl("verify", "/no/such/cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz")
check("archive is required" not in err and "does not exist" in (out + err), f"/x is a path, not a Windows-style option: {err.strip()[:200]}")

for d in ("dl", "我的 cuDNN"):
    shutil.rmtree(os.path.join(DRIVE_C, d), ignore_errors=True)
    os.makedirs(os.path.join(DRIVE_C, d))
    os.link(zip_path, os.path.join(DRIVE_C, d, ARCHIVE + ".zip")) if os.stat(zip_path).st_dev == os.stat(DRIVE_C).st_dev else \
        os.symlink(zip_path, os.path.join(DRIVE_C, d, ARCHIVE + ".zip"))

if OTHERS:  # zip only: a Linux .tar.xz is refused with what to use instead (no libarchive in the Windows build)
    import io, tarfile
    TAR = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive.tar.xz"
    os.makedirs(unix("C:\\out"), exist_ok=True)
    with tarfile.open(os.path.join(DRIVE_C, "dl", TAR), "w:xz") as t:
        data = b"#define CUDNN_MAJOR 9\n"
        info = tarfile.TarInfo("cudnn-linux-x86_64-9.1.0.70_cuda12-archive/include/cudnn_version.h")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    rc, out, err = cudnnctl("extract", "C:\\dl\\" + TAR, "--to", "C:\\out\\tar", "--sha256", sha256(os.path.join(DRIVE_C, "dl", TAR)))
    check(rc == 7 and "zip archives only" in err and "WSL" in err, f"a .tar.xz is refused by the zip-only exe (exit 7): rc {rc} {err.strip()[:300]}")

scenario("ascii", "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4", "C:\\dl\\" + ARCHIVE + ".zip", zip_sha)

if os.environ.get("CUDNNCTL_WINDOWS_EXE_ASCII_ONLY") != "1":
    NA_ZIP = "C:\\我的 cuDNN\\" + ARCHIVE + ".zip"

    def verify_extract():
        rc, out, err = cudnnctl("verify", NA_ZIP, "--sha256", zip_sha)
        check(rc == 0, f"non-ascii: verify {NA_ZIP} rc 0 {err[-300:]}")
        out_win = "C:\\我的 cuDNN\\解压"
        rc, out, err = cudnnctl("extract", NA_ZIP, "--to", out_win, "--sha256", zip_sha)
        got = os.path.join(unix(out_win), ARCHIVE, "bin", "cudnn64_9.dll")
        check(rc == 0 and os.path.isfile(got), f"non-ascii: extract --to {out_win} rc {rc} {err[-300:]}")

    scenario("non-ascii", "C:\\Users\\张三\\cuda\\v12.4", NA_ZIP, zip_sha, extra=(verify_extract,))

finish(ENV, WORK, "")

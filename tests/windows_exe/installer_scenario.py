#!/usr/bin/env python3
"""cudnnctl.exe doctor under wine64 on cuDNN laid out as NVIDIA's Windows cuDNN installer lays it out (issue 51):
NVIDIA's real 9.1.0.70 DLLs (the nvidia-cudnn-cu12 win_amd64 wheel's) in
C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin\\12.4\\, headers in include\\12.4\\, a CUDA 12.4 toolkit without cuDNN
(CUDA_PATH, the real cublasLt64_12.dll and nvrtc64_120_0.dll in its bin). CTest label: windows_exe.

1. The user's PATH holds only the installer's own entry ...\\v9.1\\bin (a folder without DLLs): files.windows_installer
   FAILs naming the folder, its owner (windows-installer) and the fix; files.cudnn names the copy.
2. The user's PATH holds ...\\v9.1\\bin\\12.4: files.windows_installer passes.
3. bundles.found searches no Linux prefix (/usr/local/lib/python3*, /usr/lib/python3) on Windows.
4. With the installer's entry in Windows' Apps list (Uninstall key), the owner is named as Apps names it.
5. `path --apply --scope user` (the toolkit holds no cuDNN): the installer's folder that fits the toolkit goes first in
   HKCU\\Environment's PATH, and files.windows_installer passes in a new process; `doctor --fix --yes` does the same
   from the installer's own entry alone, and a second run plans nothing.

    installer_scenario.py CUDNNCTL_EXE WORKDIR [WHEEL_CACHE]
Skips (prints SKIP:) when the exe, wine64 or the cached wheels are absent, unless CUDNNCTL_REQUIRE_WINDOWS_EXE=1
(CI), which makes that a failure. Wheels: tests/windows_exe/fetch_wheels.sh.
"""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wine_harness import drive_c_path, finish, make_cuda_toolkit, WINE, check, failures, make_prefix, registry_user_path, run_wine, run_wine_json, skip_or_fail, wine_env  # noqa: E402

EXE, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CACHE = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cudnnctl", "wheels")
CUDNN = os.path.join(CACHE, "nvidia-cudnn-cu12-9.1.0.70")
CUBLAS = os.path.join(CACHE, "nvidia-cublas-cu12-12.4.5.8")
NVRTC = os.path.join(CACHE, "nvidia-cuda-nvrtc-cu12-12.4.127")

if not os.path.isfile(EXE):
    skip_or_fail(f"{EXE} is not built (scripts/build-windows.sh builds it)")
if not WINE:
    skip_or_fail("wine64 is not installed")
for d in (CUDNN, CUBLAS, NVRTC):
    if not os.path.isfile(os.path.join(d, ".complete")):
        skip_or_fail(f"NVIDIA's Windows DLLs are not cached in {d} (tests/windows_exe/fetch_wheels.sh fetches them)")

PREFIX = os.path.join(WORK, "wineprefix")
TOOLKIT = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v12.4"
INSTALLER_BIN = "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\bin"
COPY = INSTALLER_BIN + "\\12.4"
ENV = dict(wine_env(PREFIX), CUDA_PATH=TOOLKIT)


def unix(win_path):
    return drive_c_path(PREFIX, win_path)


def link_all(src, dst):
    os.makedirs(dst, exist_ok=True)
    for n in os.listdir(src):
        os.symlink(os.path.join(src, n), os.path.join(dst, n))


def lay_out():
    for top in ("C:\\Program Files\\NVIDIA GPU Computing Toolkit", "C:\\Program Files\\NVIDIA"):
        shutil.rmtree(unix(top), ignore_errors=True)
    make_cuda_toolkit(unix(TOOLKIT), (CUBLAS, NVRTC))
    # as NVIDIA's installer lays out 9.1: bin\12.4, include\12.4 (lib\12.4\x64 holds import libraries, not needed here)
    link_all(os.path.join(CUDNN, "bin"), unix(COPY))
    link_all(os.path.join(CUDNN, "include"), unix("C:\\Program Files\\NVIDIA\\CUDNN\\v9.1\\include\\12.4"))


def by_id(report, cid):
    return next((c for c in report["checks"] if c["id"] == cid), {"status": "absent", "finding": "", "fix": ""})


def doctor_with_user_path(user_path, *extra):
    rc, _, err = run_wine(ENV, "reg", "add", "HKCU\\Environment", "/v", "PATH", "/t", "REG_EXPAND_SZ", "/d", user_path, "/f")
    check(rc == 0, f"the user's PATH set to {user_path} {err[-300:]}")
    rc, j, err = run_wine_json(ENV, EXE, "doctor", "--no-gpu", "--json", *extra)
    check(j is not None, f"doctor --json parses (rc {rc})")
    if j:
        for c in j["checks"]:
            print(f"    {c['status']:5} {c['id']:24} {c['finding'][:160]}")
    return rc, j


make_prefix(ENV)
lay_out()
# a per-user python.org install where Windows keeps it, not on PATH: the bundle search must look there
rc, out, _ = run_wine(ENV, "cmd", "/c", "echo %LOCALAPPDATA%")
LOCALAPPDATA = out.strip()
check(LOCALAPPDATA[:3].upper() == "C:\\", f"%LOCALAPPDATA% is {LOCALAPPDATA}")
PY_SITE = LOCALAPPDATA + "\\Programs\\Python\\Python311\\Lib\\site-packages"
os.makedirs(unix(PY_SITE), exist_ok=True)
# and one that only PEP 514's registry entry names (platform/win/python_registry.cpp)
REG_PY = "C:\\Py311Reg"
os.makedirs(unix(REG_PY + "\\Lib\\site-packages"), exist_ok=True)
rc, _, err = run_wine(ENV, "reg", "add", "HKCU\\Software\\Python\\PythonCore\\3.11\\InstallPath", "/ve", "/d", REG_PY, "/f")
check(rc == 0, f"PEP 514 entry HKCU\\Software\\Python\\PythonCore\\3.11\\InstallPath = {REG_PY} {err[-300:]}")

# 1. what the installer leaves: PATH holds ...\v9.1\bin, a folder without DLLs
rc, j = doctor_with_user_path(INSTALLER_BIN)
if j:
    c = by_id(j, "files.windows_installer")
    print(f"    finding: {c['finding']}\n    fix: {c.get('fix')}")
    check(c["status"] == "fail", f"files.windows_installer fails with only the installer's own entry on PATH: {c['status']}")
    check(COPY in c["finding"], f"it names the folder {COPY}")
    check("windows-installer: NVIDIA cuDNN 9.1" in c["finding"], "it names the owner (windows-installer: NVIDIA cuDNN 9.1)")
    check("cuDNN 9.1.0.70 for CUDA 12.4" in c["finding"], "it names the release from the DLL's version resource and the CUDA folder")
    check(f"PATH holds the installer's own entry {INSTALLER_BIN}" in c["finding"], "it says the installer's PATH entry holds no DLLs")
    check(f"add {COPY} to the user's PATH" in c.get("fix", ""), "the fix: that folder on PATH")
    check("cudnnctl install cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip --cuda-path" in c.get("fix", ""),
          "the fix: or the same release's archive installed into the toolkit")
    wi = j.get("windows_installer") or {}
    copies = wi.get("copies", [])
    check(len(copies) == 1 and copies[0]["dir"] == COPY and copies[0]["fits_toolkit"] and not copies[0]["on_path"]
          and copies[0]["owner"]["kind"] == "windows-installer" and copies[0]["version"] == "9.1.0.70",
          f"--json windows_installer: the copy, its owner object, fits_toolkit, not on PATH: {wi}")
    f = by_id(j, "files.cudnn")
    check(f["status"] == "fail" and COPY in f["finding"], f"files.cudnn names the installer's copy: {f['finding']}")
    check(rc == 10, f"doctor exits 10 (problems found): {rc}")
    # 3. no Linux prefix in the bundle search on Windows
    b = by_id(j, "bundles.found")
    print(f"    bundles.found: {b['finding']}")
    check("/usr/local/lib" not in b["finding"] and "/usr/lib/python3" not in b["finding"],
          f"bundles.found searched no Linux prefix: {b['finding'][:300]}")
    check(PY_SITE.lower() in b["finding"].lower(), f"bundles.found searched {PY_SITE}")
    check((REG_PY + "\\Lib\\site-packages").lower() in b["finding"].lower(), f"bundles.found searched {REG_PY}\\Lib\\site-packages (the registry's)")
rc, out, err = run_wine(ENV, EXE, "doctor", "--no-gpu")
check("files.windows_installer" in out and COPY in out, "the text report names the check and the folder")

# 2. the installer's folder for CUDA 12 on PATH: the check passes
rc, j = doctor_with_user_path(COPY)
if j:
    c = by_id(j, "files.windows_installer")
    check(c["status"] == "pass" and COPY in c["finding"], f"with {COPY} on PATH files.windows_installer passes: {c['finding']}")
    check(by_id(j, "files.cudnn")["status"] == "warn", "files.cudnn warns (programs load the installer's copy, build tools do not see it)")

# 4. the installer's entry in Windows' Apps list (HKLM ...\Uninstall, the key named as NVIDIA's installers name theirs):
# the owner is named as Apps shows it, with the entry's version (platform/win/uninstall_entries.cpp)
APPS_KEY = "HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\{B2FE1952-0186-46C3-BAEC-A80AA35AC5B8}_cuDNN_9.1"
for name, value in (("DisplayName", "NVIDIA cuDNN 9.1"), ("DisplayVersion", "9.1.0.70"), ("Publisher", "NVIDIA Corporation"),
                    ("InstallLocation", "C:\\Program Files\\NVIDIA\\CUDNN\\v9.1"),
                    ("UninstallString", "\"C:\\Program Files\\NVIDIA Corporation\\Installer2\\setup.exe\" -uninstall cuDNN_9.1")):
    rc, _, err = run_wine(ENV, "reg", "add", APPS_KEY, "/v", name, "/d", value, "/f")
    check(rc == 0, f"Apps entry {name} = {value} {err[-300:]}")
rc, j = doctor_with_user_path(INSTALLER_BIN)
if j:
    c = by_id(j, "files.windows_installer")
    check("windows-installer: NVIDIA cuDNN 9.1 9.1.0.70" in c["finding"], f"with its Apps entry the owner is named with the entry's version: {c['finding'][:300]}")
    copies = (j.get("windows_installer") or {}).get("copies", [])
    check(len(copies) == 1 and copies[0]["owner"]["package"] == "NVIDIA cuDNN 9.1" and copies[0]["owner"]["version"] == "9.1.0.70",
          f"--json: the owner object is the Apps entry's: {copies[0]['owner'] if copies else None}")
run_wine(ENV, "reg", "delete", APPS_KEY, "/f")


def user_path():
    return registry_user_path(ENV)


# 5. path --apply puts the installer's fitting folder on PATH when the toolkit holds none
run_wine(ENV, "reg", "add", "HKCU\\Environment", "/v", "PATH", "/t", "REG_EXPAND_SZ", "/d", INSTALLER_BIN, "/f")
rc, j, err = run_wine_json(ENV, EXE, "path", "--json")
check(rc == 0 and j and j.get("folder") == COPY and (j.get("installer_copy") or {}).get("dir") == COPY,
      f"path: the folder to put first is the installer's {COPY} (rc {rc}): {(j or {}).get('folder')} {(j or {}).get('installer_copy')}")
check(j and any("NVIDIA's cuDNN installer put cuDNN 9.1.0.70 for CUDA 12.4" in n for n in j.get("notes", [])),
      f"path: a note says the toolkit holds none and names the installer's copy: {(j or {}).get('notes')}")
rc, out, err = run_wine(ENV, EXE, "path", "--apply", "--scope", "user")
check(rc == 0, f"path --apply --scope user rc 0: {out[-600:]} {err[-300:]}")
check(user_path().lower().startswith(COPY.lower() + ";"), f"HKCU\\Environment PATH starts with {COPY}: {user_path()}")
rc, j = doctor_with_user_path(user_path())
if j:
    check(by_id(j, "files.windows_installer")["status"] == "pass", "after path --apply files.windows_installer passes in a new process")

rc, _, _ = run_wine(ENV, "reg", "add", "HKCU\\Environment", "/v", "PATH", "/t", "REG_EXPAND_SZ", "/d", INSTALLER_BIN, "/f")
rc, j, err = run_wine_json(ENV, EXE, "doctor", "--no-gpu", "--fix", "files.windows_installer", "--dry-run", "--json")
steps = (j or {}).get("plan", {}).get("steps", [])
check([s["check"] for s in steps] == ["files.windows_installer"] and steps[0]["target"] == COPY and steps[0]["command"].endswith("--apply --scope user"),
      f"doctor --fix --dry-run plans the installer's folder on PATH (rc {rc}): {steps}")
check(user_path() == INSTALLER_BIN, f"--dry-run leaves the registry PATH as it was: {user_path()}")
rc, j, err = run_wine_json(ENV, EXE, "doctor", "--no-gpu", "--fix", "--yes", "--json")
results = (j or {}).get("results", [])
check("files.windows_installer" in [r["check"] for r in results] and all(r["applied"] for r in results),
      f"doctor --fix --yes applies it (rc {rc}): {results} {err[-400:]}")
fixed = {c["id"]: c for c in (j or {}).get("checks", [])}
after = [x["status"] for x in fixed.get("files.windows_installer", {}).get("after", [])]
check(after == ["pass"], f"files.windows_installer passes afterwards, with the PATH a new program gets: {fixed.get('files.windows_installer')}")
check(user_path().lower().startswith(COPY.lower() + ";"), f"HKCU\\Environment PATH starts with {COPY}: {user_path()}")
rc, j, err = run_wine_json(ENV, EXE, "doctor", "--no-gpu", "--fix", "--yes", "--json")
check(j is not None and "files.windows_installer" not in [s["check"] for s in (j or {}).get("plan", {}).get("steps", [])],
      f"a second doctor --fix plans nothing for it (rc {rc})")
run_wine(ENV, "reg", "delete", "HKCU\\Environment", "/v", "PATH", "/f")

finish(ENV, WORK, " in installer_scenario")

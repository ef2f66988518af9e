#!/usr/bin/env python3
"""cudnnctl.exe bundle list/swap/restore under wine64, on NVIDIA's real Windows DLLs (docs/bundles.md).
CTest: windows_exe.bundle, label windows_exe.

A PyTorch-on-Windows site-packages is laid out in the wine prefix:
C:\\Python311\\Lib\\site-packages\\torch\\lib holds the nvidia-cudnn-cu12 9.1.0.70 win_amd64 wheel's eight
DLLs and the nvidia-cuda-runtime-cu12 12.4.127 wheel's cudart64_12.dll (as torch 2.5.1+cu121 ships them),
and torch-2.5.1+cu121.dist-info\\RECORD lists them with the hashes and sizes the two wheels' own RECORDs
give (not hashes of the copies: a copy that differs from NVIDIA's makes `bundle list` say "modified").
A zip laid out like NVIDIA's cudnn-windows-x86_64-9.10.2.21_cuda12-archive.zip (bin\\, include\\,
lib\\x64\\, LICENSE) is made from the nvidia-cudnn-cu12 9.10.2.21 wheel's DLLs and headers (that wheel has no
import libraries: lib\\x64\\*.lib are empty ar archives); not NVIDIA's zip, so --sha256 names ours.

A consumer (bundle_consumer.c, built here with x86_64-w64-mingw32-gcc) loads torch\\lib the way
torch/__init__.py does (AddDllDirectory, LoadLibraryExW of every DLL with
LOAD_LIBRARY_SEARCH_DEFAULT_DIRS | LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR) and prints cudnnGetVersion():
90100, then 91002 after `bundle swap`, then 90100 after `bundle restore`, with every file byte for byte
what the 9.1.0.70 wheel's RECORD says (and 9.10.2.21's RECORD while swapped).

    bundle_scenario.py CUDNNCTL_EXE WORKDIR [WHEEL_CACHE]
Skips (prints SKIP:) when the exe, wine64, mingw-w64's gcc or the cached wheels are absent, unless
CUDNNCTL_REQUIRE_WINDOWS_EXE=1 (CI), which makes that a failure. Wheels: tests/windows_exe/fetch_wheels.sh.
"""
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wine_harness import finish, WINE, WINESERVER, check, failures, make_prefix, run_wine, run_wine_json, skip_or_fail, wine_env  # noqa: E402

EXE, WORK = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
CACHE = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
    os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "cudnnctl", "wheels")
OLD = os.path.join(CACHE, "nvidia-cudnn-cu12-9.1.0.70")
NEW = os.path.join(CACHE, "nvidia-cudnn-cu12-9.10.2.21")
CUDART = os.path.join(CACHE, "nvidia-cuda-runtime-cu12-12.4.127")
OLD_RECORD = os.path.join(CACHE, "dist-info", "nvidia_cudnn_cu12-9.1.0.70.dist-info", "RECORD")
NEW_RECORD = os.path.join(CACHE, "dist-info", "nvidia_cudnn_cu12-9.10.2.21.dist-info", "RECORD")
CUDART_RECORD = os.path.join(CACHE, "dist-info", "nvidia_cuda_runtime_cu12-12.4.127.dist-info", "RECORD")
ARCHIVE = "cudnn-windows-x86_64-9.10.2.21_cuda12-archive"
GCC = shutil.which("x86_64-w64-mingw32-gcc")
TORCH = "torch-2.5.1+cu121"  # the torch release whose Windows wheel bundles cuDNN 9.1.0.70 beside cudart 12

if not os.path.isfile(EXE):
    skip_or_fail(f"{EXE} is not built (scripts/build-windows.sh builds it)")
if not WINE:
    skip_or_fail("wine64 is not installed")
if not GCC:
    skip_or_fail("x86_64-w64-mingw32-gcc (mingw-w64) is not installed: the consumer cannot be built")
for d in (OLD, NEW, CUDART):
    if not os.path.isfile(os.path.join(d, ".complete")):
        skip_or_fail(f"NVIDIA's Windows DLLs are not cached in {d} (tests/windows_exe/fetch_wheels.sh fetches them)")
for r in (OLD_RECORD, NEW_RECORD, CUDART_RECORD):
    if not os.path.isfile(r):
        skip_or_fail(f"the wheel's RECORD is not cached: {r} (tests/windows_exe/fetch_wheels.sh keeps it)")

PREFIX = os.path.join(WORK, "wineprefix")
DRIVE_C = os.path.join(PREFIX, "drive_c")
ENV = wine_env(PREFIX)
ENV.pop("CUDNNCTL_BUNDLE_STATE", None)  # the state must go where a Windows user's goes: %LOCALAPPDATA%
SITE_WIN = "C:\\Python311\\Lib\\site-packages"
LIB_WIN = SITE_WIN + "\\torch\\lib"


def unix(win_path):
    assert win_path[:3].upper() == "C:\\", win_path
    return os.path.join(DRIVE_C, *[p for p in win_path[3:].split("\\") if p])


SITE, LIB = unix(SITE_WIN), unix(LIB_WIN)


def wine(*args, timeout=900):
    return run_wine(ENV, *args, timeout=timeout)


def cudnnctl_json(*args):
    return run_wine_json(ENV, EXE, *args, "--json", timeout=900)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for b in iter(lambda: f.read(1 << 20), b""):
            h.update(b)
    return h.hexdigest()


def record_hash(hexdigest):
    """pip's RECORD form: sha256=<urlsafe base64, no padding>."""
    return "sha256=" + base64.urlsafe_b64encode(bytes.fromhex(hexdigest)).rstrip(b"=").decode()


def read_record(path, inner):
    """{file name: (hash, size)} of the RECORD rows below `inner` (nvidia/cudnn/bin/)."""
    out = {}
    for line in open(path, encoding="utf-8").read().splitlines():
        name, digest, size = line.rsplit(",", 2)
        if name.startswith(inner) and name.lower().endswith(".dll"):
            out[name[len(inner):]] = (digest, int(size))
    return out


OLD_ROWS = read_record(OLD_RECORD, "nvidia/cudnn/bin/")
NEW_ROWS = read_record(NEW_RECORD, "nvidia/cudnn/bin/")
CUDART_ROWS = read_record(CUDART_RECORD, "nvidia/cuda_runtime/bin/")


def same_dir(a, b):
    return a.replace("/", "\\").rstrip("\\").lower() == b.replace("/", "\\").rstrip("\\").lower()


def make_site():
    shutil.rmtree(os.path.join(DRIVE_C, "Python311"), ignore_errors=True)
    os.makedirs(LIB)
    rows = []
    for src, names in ((os.path.join(OLD, "bin"), OLD_ROWS), (os.path.join(CUDART, "bin"), CUDART_ROWS)):
        for name, (digest, size) in sorted(names.items()):
            shutil.copyfile(os.path.join(src, name), os.path.join(LIB, name))  # a copy: swap and restore move it
            rows.append(f"torch/lib/{name},{digest},{size}")
    meta = os.path.join(SITE, TORCH + ".dist-info")
    os.makedirs(meta)
    with open(os.path.join(meta, "METADATA"), "w", newline="\n") as f:
        f.write("Metadata-Version: 2.1\nName: torch\nVersion: 2.5.1+cu121\n\n")
    with open(os.path.join(meta, "INSTALLER"), "w", newline="\n") as f:
        f.write("pip\n")
    rows += [f"{TORCH}.dist-info/METADATA,,", f"{TORCH}.dist-info/INSTALLER,,", f"{TORCH}.dist-info/RECORD,,"]
    with open(os.path.join(meta, "RECORD"), "w", newline="\n") as f:
        f.write("\n".join(rows) + "\n")


def make_archive():
    """The 9.10.2.21 zip, cached beside the wheels (about 1 GB of DLLs)."""
    out = os.path.join(CACHE, "windows-exe", ARCHIVE + ".zip")
    if os.path.isfile(out + ".sha256"):
        return out, open(out + ".sha256").read().split()[0]
    os.makedirs(os.path.dirname(out), exist_ok=True)
    stage = os.path.join(WORK, "stage", ARCHIVE)
    shutil.rmtree(os.path.dirname(stage), ignore_errors=True)
    os.makedirs(os.path.join(stage, "lib", "x64"))
    shutil.copytree(os.path.join(NEW, "bin"), os.path.join(stage, "bin"), copy_function=os.link)
    shutil.copytree(os.path.join(NEW, "include"), os.path.join(stage, "include"), copy_function=os.link)
    for dll in os.listdir(os.path.join(stage, "bin")):
        stem = dll[:-len("64_9.dll")]
        for lib in (stem + ".lib", stem + "64_9.lib"):
            with open(os.path.join(stage, "lib", "x64", lib), "wb") as f:
                f.write(b"!<arch>\n")
    with open(os.path.join(stage, "LICENSE"), "w") as f:
        f.write("Stand-in for NVIDIA's cuDNN license: this zip was laid out from the nvidia-cudnn-cu12 9.10.2.21 wheel.\n")
    if os.path.exists(out + ".tmp"):
        os.remove(out + ".tmp")
    t = time.time()
    subprocess.run(["zip", "-1", "-q", "-r", "-X", out + ".tmp", ARCHIVE], cwd=os.path.dirname(stage), check=True)
    shutil.rmtree(os.path.dirname(stage), ignore_errors=True)
    os.replace(out + ".tmp", out)
    digest = sha256(out)
    with open(out + ".sha256", "w") as f:
        f.write(f"{digest}  {ARCHIVE}.zip\n")
    print(f"made {out} in {time.time() - t:.0f} s: {os.path.getsize(out)} bytes, SHA-256 {digest}")
    return out, digest


def consumer(expect, label):
    """Runs the consumer on torch\\lib; checks it printed `expect` from torch\\lib\\cudnn64_9.dll."""
    rc, out, err = wine(CONSUMER, LIB_WIN)
    lines = out.split()
    got = lines[0] if lines else ""
    loaded = out.splitlines()[1].strip() if len(out.splitlines()) > 1 else ""
    check(rc == 0 and got == str(expect), f"{label}: the consumer's cudnnGetVersion() is {expect}: got {got!r} (rc {rc}) {err.strip()[-300:]}")
    check(same_dir(loaded, LIB_WIN + "\\cudnn64_9.dll"), f"{label}: it loaded {LIB_WIN}\\cudnn64_9.dll: {loaded}")


def lib_state():
    """{name: sha256 in RECORD form} of every file in torch\\lib."""
    return {n: record_hash(sha256(os.path.join(LIB, n))) for n in sorted(os.listdir(LIB))}


def expect_files(want_cudnn, label):
    """torch\\lib holds exactly the given cuDNN rows and the cudart row, byte for byte (RECORD hashes, sizes)."""
    want = dict(want_cudnn)
    want.update(CUDART_ROWS)
    state = lib_state()
    check(sorted(state) == sorted(want), f"{label}: torch\\lib holds {sorted(want)}: {sorted(state)}")
    bad = [n for n, (digest, size) in want.items()
           if state.get(n) != digest or os.path.getsize(os.path.join(LIB, n)) != size]
    check(not bad, f"{label}: every file's SHA-256 and size equal the wheel's RECORD row: differ {bad}")


def listed(j):
    return next((b for b in (j or {}).get("bundles", []) if same_dir(b.get("dir", ""), LIB_WIN)), None)


def expect_list(state, version, label):
    rc, j, err = cudnnctl_json("bundle", "list", "--site", SITE_WIN)
    b = listed(j)
    check(rc == 0 and b is not None, f"{label}: bundle list --site finds {LIB_WIN} (rc {rc}) {err.strip()[-300:]} {j}")
    b = b or {}
    print(f"    {json.dumps(b)[:600]}")
    check(b.get("state") == state, f"{label}: state {state}: {b.get('state')} {b.get('state_note')}")
    check(b.get("version") == version, f"{label}: version {version}: {b.get('version')}")
    check(b.get("owner") == "torch", f"{label}: owner torch (its RECORD lists the files): {b.get('owner')}")
    check(b.get("cuda_major") == 12, f"{label}: cuda_major 12 (cudart64_12.dll beside): {b.get('cuda_major')}")
    check(b.get("arch") == "x64", f"{label}: arch x64 (the DLL's PE machine, AMD64): {b.get('arch')}")
    check(sorted(b.get("files", [])) == sorted(OLD_ROWS), f"{label}: the eight cuDNN DLLs are its files: {b.get('files')}")


os.makedirs(WORK, exist_ok=True)
t0 = time.time()
zip_path, zip_sha = make_archive()
make_prefix(ENV)
check(os.path.isdir(DRIVE_C), "wine prefix exists")
wine("reg", "delete", "HKCU\\Environment", "/v", "PATH", "/f")

CONSUMER = os.path.join(WORK, "bundle_consumer.exe")
cc = subprocess.run([GCC, "-municode", "-O2", "-Wall", "-Wextra", "-Werror", "-o", CONSUMER,
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "bundle_consumer.c")],
                    capture_output=True, text=True)
check(cc.returncode == 0, f"the consumer builds with {GCC} {cc.stderr[-500:]}")
if cc.returncode != 0:
    sys.exit(1)

os.makedirs(os.path.join(DRIVE_C, "dl"), exist_ok=True)
ZIP_WIN = "C:\\dl\\" + ARCHIVE + ".zip"
if os.path.lexists(unix(ZIP_WIN)):
    os.remove(unix(ZIP_WIN))
os.symlink(zip_path, unix(ZIP_WIN))

# where Windows keeps cudnnctl's state: %LOCALAPPDATA%\cudnnctl\bundles (wine sets it, as Windows does)
rc, out, _ = wine("cmd", "/c", "echo %LOCALAPPDATA%")
local_app_data = out.strip()
check(local_app_data.upper().startswith("C:\\"), f"%LOCALAPPDATA% is set in the prefix: {local_app_data!r}")
STATE = os.path.join(unix(local_app_data), "cudnnctl", "bundles") if local_app_data.upper().startswith("C:\\") else None
if STATE:
    shutil.rmtree(STATE, ignore_errors=True)

make_site()
before_names = sorted(os.listdir(SITE))

print("--- before: torch\\lib as the wheels installed it")
expect_files(OLD_ROWS, "before")
consumer(90100, "before")
expect_list("original", "9.1.0.70", "before")

print("--- a wrong --sha256 is refused and changes nothing")
rc, j, err = cudnnctl_json("bundle", "swap", LIB_WIN, ZIP_WIN, "--sha256", "0" * 64)
check(rc != 0 and not (j or {}).get("ok"), f"swap with a wrong --sha256 fails (rc {rc}) {err.strip()[-200:]}")
expect_files(OLD_ROWS, "after the refused swap")

print("--- bundle swap to 9.10.2.21")
rc, j, err = cudnnctl_json("bundle", "swap", LIB_WIN, ZIP_WIN, "--sha256", zip_sha)
check(rc == 0 and (j or {}).get("ok") is True, f"bundle swap rc 0, ok (rc {rc}) {err.strip()[-600:]}")
check((j or {}).get("loaded_version") == 91002, f"swap's child load probe read 91002: {(j or {}).get('loaded_version')}")
check(((j or {}).get("bundle") or {}).get("version") == "9.10.2.21", f"swap reports version 9.10.2.21: {((j or {}).get('bundle') or {}).get('version')}")
expect_files(NEW_ROWS, "swapped")
consumer(91002, "swapped")
expect_list("swapped", "9.10.2.21", "swapped")
check(sorted(os.listdir(SITE)) == before_names and sorted(os.listdir(LIB)) == sorted(list(OLD_ROWS) + list(CUDART_ROWS)),
      f"swapped: nothing set aside inside site-packages: {sorted(os.listdir(SITE))}")
if STATE:
    kept = [os.path.join(d, n) for d, _, files in os.walk(STATE) for n in files]
    check(any(os.path.basename(p) == "receipt.json" for p in kept) and
          any(os.path.basename(p) == "cudnn64_9.dll" for p in kept),
          f"swapped: the receipt and the originals are in %LOCALAPPDATA%\\cudnnctl\\bundles: {[os.path.relpath(p, STATE) for p in kept][:12]}")

print("--- bundle restore")
rc, j, err = cudnnctl_json("bundle", "restore", LIB_WIN)
check(rc == 0 and (j or {}).get("ok") is True, f"bundle restore rc 0, ok (rc {rc}) {err.strip()[-600:]}")
expect_files(OLD_ROWS, "restored")
consumer(90100, "restored")
expect_list("original", "9.1.0.70", "restored")
check(sorted(os.listdir(SITE)) == before_names, f"restored: site-packages as before: {sorted(os.listdir(SITE))}")

finish(ENV, WORK, f" in {time.time() - t0:.0f} s")

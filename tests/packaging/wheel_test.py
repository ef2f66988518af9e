#!/usr/bin/env python3
"""CTest packaging.wheel_*: the wheels scripts/make-wheel.py makes, built from this build's cudnnctl (or the
portable binary, dist/linux-<arch>/cudnnctl or $CUDNNCTL_PORTABLE_BINARY, when there is one).

    wheel_test.py MODE CUDNNCTL [CUDNNCTL_EXE]

MODE:
  contents    the wheel's name and tags, WHEEL, METADATA, RECORD (every sha256 and size right), the binary
              as the distribution's script with its exec bits, the cudnnctl package; a binary for another
              machine is refused
  pip         installed into a fresh venv by pip from a local folder (--no-index --find-links): cudnnctl
              --version, doctor --no-gpu, python -m cudnnctl --version, and bundle list / doctor naming the
              venv's own cuDNN (a stand-in nvidia-cudnn-cu13 placed in the venv's site-packages)
  uv          the same with `uv pip install` and `uv tool install` ($CUDNNCTL_UV, else uv on PATH)
  auditwheel  `auditwheel show` ($CUDNNCTL_AUDITWHEEL, else on PATH) on the wheel of the portable binary:
              manylinux_2_17 and no external libraries
  wine        the win_amd64 wheel of CUDNNCTL_EXE (build-windows/cudnnctl.exe): its exe, unpacked, runs
              --version and doctor --no-gpu under wine
Nothing is downloaded. A mode that cannot run here prints SKIP: and why.
"""
import base64
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAKE_WHEEL = os.path.join(ROOT, "scripts", "make-wheel.py")
MODE, CUDNNCTL = sys.argv[1], sys.argv[2]
EXE = sys.argv[3] if len(sys.argv) > 3 else ""
MACHINE = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}.get(platform.machine().lower(), "")
TAG = f"manylinux_2_17_{MACHINE}"
TMP = tempfile.mkdtemp(prefix="cudnnctl-wheel-")
failures = []


def skip(why):
    shutil.rmtree(TMP, ignore_errors=True)
    print(f"SKIP: {why}")
    sys.exit(0)


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def run(args, env=None, timeout=300):
    r = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stdout + r.stderr


def portable_binary():
    given = os.environ.get("CUDNNCTL_PORTABLE_BINARY", "")
    candidate = given or os.path.join(ROOT, "dist", f"linux-{MACHINE}", "cudnnctl")
    return candidate if os.path.isfile(candidate) else ""


def make_wheel(binary, tag, out):
    r = subprocess.run([sys.executable, MAKE_WHEEL, binary, tag, out], capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.strip():
        print(r.stdout + r.stderr)
        raise SystemExit(f"FAIL: make-wheel.py {binary} {tag} failed")
    return r.stdout.strip().splitlines()[-1]


def linux_wheel():
    if not MACHINE:
        skip(f"no manylinux tag for this machine ({platform.machine()})")
    return make_wheel(portable_binary() or CUDNNCTL, TAG, os.path.join(TMP, "wheels"))


def check_contents():
    whl = linux_wheel()
    name = os.path.basename(whl)
    check(name.startswith("cudnnctl-") and name.endswith(f"-py3-none-{TAG}.manylinux2014_{MACHINE}.whl"), f"file name {name}")
    version = name.split("-")[1]
    with zipfile.ZipFile(whl) as z:
        names = set(z.namelist())
        info, data_dir = f"cudnnctl-{version}.dist-info", f"cudnnctl-{version}.data"
        script = f"{data_dir}/scripts/cudnnctl"
        for want in (script, "cudnnctl/__init__.py", "cudnnctl/__main__.py", f"{info}/METADATA", f"{info}/WHEEL", f"{info}/RECORD"):
            check(want in names, f"the wheel holds {want}")
        check((z.getinfo(script).external_attr >> 16) & 0o111 == 0o111, "the binary is executable in the zip")
        with open(portable_binary() or CUDNNCTL, "rb") as f:
            check(z.read(script) == f.read(), "the script is the binary, byte for byte")
        wheel = z.read(f"{info}/WHEEL").decode()
        check("Root-Is-Purelib: false" in wheel and f"Tag: py3-none-{TAG}" in wheel and f"Tag: py3-none-manylinux2014_{MACHINE}" in wheel,
              f"WHEEL: {wheel!r}")
        meta = z.read(f"{info}/METADATA").decode()
        check(f"Name: cudnnctl\nVersion: {version}\n" in meta, "METADATA names cudnnctl and the version")
        rows = [r.rsplit(",", 2) for r in z.read(f"{info}/RECORD").decode().splitlines()]
        listed = {r[0] for r in rows}
        check(listed == names, f"RECORD lists every file: {sorted(listed ^ names)}")
        for path, digest, size in rows:
            if path.endswith("RECORD"):
                continue
            body = z.read(path)
            want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
            check(digest == want and size == str(len(body)), f"RECORD hash and size of {path}")
    # win_amd64: the script is cudnnctl.exe (a stand-in with an AMD64 PE header: the exe is build-windows.sh's)
    pe = bytearray(b"MZ" + bytes(62))
    pe[60:64] = (64).to_bytes(4, "little")
    stand_in = os.path.join(TMP, "cudnnctl.exe")
    with open(stand_in, "wb") as f:
        f.write(bytes(pe) + b"PE\0\0" + (0x8664).to_bytes(2, "little") + bytes(20))
    win = make_wheel(stand_in, "win_amd64", os.path.join(TMP, "win"))
    check(os.path.basename(win) == f"cudnnctl-{version}-py3-none-win_amd64.whl", f"win_amd64 wheel name {os.path.basename(win)}")
    with zipfile.ZipFile(win) as z:
        check(f"cudnnctl-{version}.data/scripts/cudnnctl.exe" in z.namelist() and "Tag: py3-none-win_amd64\n" in
              z.read(f"cudnnctl-{version}.dist-info/WHEEL").decode(), f"win_amd64 wheel holds cudnnctl.exe, one tag: {z.namelist()}")
    # the binary's machine is checked: an ELF is not a win_amd64 script
    rc, text = run([sys.executable, MAKE_WHEEL, CUDNNCTL, "win_amd64", os.path.join(TMP, "wrong")])
    check(rc != 0 and "not a PE binary" in text and not os.path.exists(os.path.join(TMP, "wrong")),
          f"an ELF refused as win_amd64, nothing written: {text.strip()}")


def fresh_venv(path):
    rc, text = run([sys.executable, "-m", "venv", path])
    if rc != 0 or not os.path.isfile(os.path.join(path, "bin", "python")):
        skip(f"python -m venv does not work here (Debian: python3-venv): {text.strip()[-300:]}")
    return os.path.join(path, "bin", "python")


def site_packages(python):
    return subprocess.check_output([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], text=True).strip()


def place_fake_cudnn(site):
    """nvidia-cudnn-cu13's layout: nvidia/cudnn/lib/libcudnn.so.9 (a stand-in built here) and its dist-info."""
    if not shutil.which("gcc"):
        skip("no gcc to build the stand-in libcudnn.so.9")
    lib = os.path.join(site, "nvidia", "cudnn", "lib")
    os.makedirs(lib)
    subprocess.check_call(["gcc", "-shared", "-fPIC", "-DFAKE_VERSION=91900", "-Wl,-soname,libcudnn.so.9", "-o",
                           os.path.join(lib, "libcudnn.so.9"), os.path.join(ROOT, "tests", "bundle", "fake_cudnn.c")])
    di = os.path.join(site, "nvidia_cudnn_cu13-9.19.0.56.dist-info")
    os.makedirs(di)
    with open(os.path.join(di, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: nvidia-cudnn-cu13\nVersion: 9.19.0.56\n\n")
    body = open(os.path.join(lib, "libcudnn.so.9"), "rb").read()
    digest = base64.urlsafe_b64encode(hashlib.sha256(body).digest()).rstrip(b"=").decode()
    with open(os.path.join(di, "RECORD"), "w") as f:
        f.write(f"nvidia/cudnn/lib/libcudnn.so.9,sha256={digest},{len(body)}\n"
                "nvidia_cudnn_cu13-9.19.0.56.dist-info/METADATA,,\nnvidia_cudnn_cu13-9.19.0.56.dist-info/RECORD,,\n")
    return lib


def check_installed(how, bindir, python, venv):
    """The installed program runs, and from the activated venv names the venv's own cuDNN."""
    ctl = os.path.join(bindir, "cudnnctl")
    check(os.path.isfile(ctl) and os.access(ctl, os.X_OK), f"{how}: {ctl} is installed and executable")
    if not os.path.isfile(ctl):
        return
    rc, text = run([ctl, "--version"])
    check(rc == 0 and text.startswith("cudnnctl "), f"{how}: cudnnctl --version: {text.strip()}")
    rc, text = run([python, "-m", "cudnnctl", "--version"])
    check(rc == 0 and text.startswith("cudnnctl "), f"{how}: python -m cudnnctl --version: {text.strip()}")
    lib = place_fake_cudnn(site_packages(python))
    env = dict(os.environ, VIRTUAL_ENV=venv, PATH=bindir + os.pathsep + os.environ.get("PATH", ""))
    env.pop("CONDA_PREFIX", None)
    rc, text = run([ctl, "bundle", "list", "--json"], env=env)
    dirs = [b.get("dir") for b in json.loads(text).get("bundles", [])] if rc == 0 else []
    found = [b for b in json.loads(text)["bundles"] if os.path.realpath(b["dir"]) == os.path.realpath(lib)] if rc == 0 else []
    check(len(found) == 1 and found[0].get("owner") == "nvidia-cudnn-cu13",
          f"{how}: bundle list names the venv's nvidia-cudnn-cu13 cuDNN {lib}: {dirs or text[-400:]}")
    rc, text = run([ctl, "doctor", "--no-gpu"], env=env)
    check(rc in (0, 1, 11) and "bundles.found" in text and lib in text, f"{how}: doctor --no-gpu (rc {rc}) names {lib}")


def check_pip():
    whl = linux_wheel()
    venv = os.path.join(TMP, "venv-pip")
    python = fresh_venv(venv)
    quiet_pip = dict(os.environ, PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1")  # no site pip.conf
    rc, text = run([python, "-m", "pip", "install", "--no-index", "--find-links", os.path.dirname(whl), "cudnnctl"], env=quiet_pip)
    check(rc == 0, f"pip install --no-index --find-links: {text.strip()[-400:]}")
    check_installed("pip", os.path.join(venv, "bin"), python, venv)


def find_tool(var, name):
    given = os.environ.get(var, "")
    return given if given and os.access(given, os.X_OK) else shutil.which(name)


def check_uv():
    uv = find_tool("CUDNNCTL_UV", "uv")
    if not uv:
        skip("no uv (set CUDNNCTL_UV or put uv on PATH: scripts/test.sh installs it from PyPI into a private venv)")
    whl = linux_wheel()
    env = dict(os.environ, UV_OFFLINE="1", UV_CACHE_DIR=os.path.join(TMP, "uv-cache"), UV_NO_CONFIG="1",
               UV_TOOL_DIR=os.path.join(TMP, "uv-tools"), UV_TOOL_BIN_DIR=os.path.join(TMP, "uv-bin"),
               UV_PYTHON_DOWNLOADS="never")
    venv = os.path.join(TMP, "venv-uv")
    rc, text = run([uv, "venv", "--python", sys.executable, venv], env=env)
    check(rc == 0, f"uv venv: {text.strip()[-300:]}")
    rc, text = run([uv, "pip", "install", "--python", os.path.join(venv, "bin", "python"), "--no-index", "--find-links",
                    os.path.dirname(whl), "cudnnctl"], env=env)
    check(rc == 0, f"uv pip install --no-index --find-links: {text.strip()[-400:]}")
    if rc == 0:
        check_installed("uv pip", os.path.join(venv, "bin"), os.path.join(venv, "bin", "python"), venv)
    rc, text = run([uv, "tool", "install", "--python", sys.executable, "--no-index", "--find-links", os.path.dirname(whl), "cudnnctl"], env=env)
    tool_ctl = os.path.join(TMP, "uv-bin", "cudnnctl")
    check(rc == 0 and os.path.isfile(tool_ctl), f"uv tool install puts cudnnctl into the tool bin folder: {text.strip()[-300:]}")
    if os.path.isfile(tool_ctl):
        rc, text = run([tool_ctl, "doctor", "--no-gpu"])
        check(rc in (0, 10, 11) and "layer 1" in text, f"uv tool's cudnnctl doctor --no-gpu (rc {rc})")


def check_auditwheel():
    tool = find_tool("CUDNNCTL_AUDITWHEEL", "auditwheel")
    if not tool:
        skip("no auditwheel (set CUDNNCTL_AUDITWHEEL or put auditwheel on PATH: PyPI's auditwheel)")
    if not portable_binary():
        skip(f"no portable binary (dist/linux-{MACHINE}/cudnnctl from scripts/build-portable.sh, or $CUDNNCTL_PORTABLE_BINARY): "
             "this build's binary links the host's shared libraries and is not manylinux")
    wheels = {MACHINE: linux_wheel()}
    # the other machine's portable binary, where it is built (auditwheel reads any ELF machine)
    for arch in ("x86_64", "aarch64"):
        other = os.path.join(ROOT, "dist", f"linux-{arch}", "cudnnctl")
        if arch != MACHINE and os.path.isfile(other):
            wheels[arch] = make_wheel(other, f"manylinux_2_17_{arch}", os.path.join(TMP, "wheels-" + arch))
    for arch, whl in wheels.items():
        rc, text = run([tool, "-v", "show", whl])  # -v: past the tag line, also the list of external libraries
        flat = " ".join(text.split())
        m = re.search(r'consistent with the following platform tag: "manylinux_2_([0-9]+)_' + arch + '"', flat)
        check(rc == 0 and m is not None and int(m.group(1)) <= 17,
              f"auditwheel show ({arch}): manylinux_2_17_{arch} or older: {flat[:400]}")
        check("requires no external shared libraries" in flat, f"auditwheel show ({arch}): no external shared libraries: {flat[-600:]}")


def check_wine():
    exe = EXE if EXE and os.path.isfile(EXE) else os.path.join(ROOT, "build-windows", "cudnnctl.exe")
    if not os.path.isfile(exe):
        skip(f"no cudnnctl.exe ({exe}; scripts/build-windows.sh makes it)")
    # found as the windows_exe tests find it: Debian's wine64 package puts it in /usr/lib/wine, not on PATH
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "windows_exe"))
    from wine_harness import WINE as wine  # noqa: E402
    if not wine:
        skip("no wine (Debian: wine64)")
    whl = make_wheel(exe, "win_amd64", os.path.join(TMP, "wheels"))
    check(whl.endswith("-py3-none-win_amd64.whl"), f"win_amd64 wheel name {os.path.basename(whl)}")
    out = os.path.join(TMP, "unpacked")
    with zipfile.ZipFile(whl) as z:
        script = [n for n in z.namelist() if n.endswith(".data/scripts/cudnnctl.exe")]
        check(len(script) == 1, f"the wheel holds cudnnctl.exe as its script: {z.namelist()}")
        z.extractall(out)
    prog = os.path.join(out, script[0])
    env = dict(os.environ, WINEDEBUG="-all", WINEPREFIX=os.environ.get("WINEPREFIX", os.path.join(TMP, "wineprefix")))
    rc, text = run([wine, prog, "--version"], env=env, timeout=600)
    check(rc == 0 and "cudnnctl " in text and "windows-x86_64" in text, f"wine cudnnctl.exe --version: {text.strip()[-300:]}")
    rc, text = run([wine, prog, "doctor", "--no-gpu"], env=env, timeout=600)
    check(rc in (0, 10, 11) and "layer 1" in text, f"wine cudnnctl.exe doctor --no-gpu (rc {rc})")


MODES = {"contents": check_contents, "pip": check_pip, "uv": check_uv, "auditwheel": check_auditwheel, "wine": check_wine}
MODES[MODE]()
shutil.rmtree(TMP, ignore_errors=True)
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print(f"wheel {MODE}: all checks passed")

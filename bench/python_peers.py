"""The Python world's installers as peers of `cudnnctl install` (used by install_bench.py): the same files as
the cuDNN zip, packed by the bench into a wheel with a RECORD of SHA-256 hashes, installed by `uv pip install`
and `pip install` with hash checking required (a requirements file holding the wheel's sha256), and, where
`cudnnctl bundle` exists, `cudnnctl bundle swap` of the same archive into a site-packages-like folder.

uv comes from PyPI into a virtual environment under the cache folder (`pip install uv`), once; without the
network or pip it is missing and its rows are skipped with a message, as pip's are without pip.
"""
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import zipfile

DIST = "nvidia_cudnn_bench"
# where the zip's folders go inside the wheel: the layout of NVIDIA's nvidia-cudnn-cu13 wheel
WHEEL_DIRS = {"bin/x64/": "nvidia/cudnn/bin/", "include/": "nvidia/cudnn/include/", "lib/x64/": "nvidia/cudnn/lib/"}


def _record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(archive, top, version, out_dir):
    """A wheel with the archive's files (read from the same archive), RECORD with hashes; returns its path."""
    name = f"{DIST}-{version}-py3-none-any.whl"
    path = os.path.join(out_dir, name)
    stamp = f"{os.path.getsize(archive)}:{os.stat(archive).st_mtime_ns}"
    if os.path.exists(path) and os.path.exists(path + ".from") and open(path + ".from").read() == stamp:
        return path
    info = f"{DIST}-{version}.dist-info/"
    record = []
    tmp = path + ".part"
    with zipfile.ZipFile(archive) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as whl:
        for m in src.infolist():
            if m.is_dir() or not m.filename.startswith(top + "/"):
                continue
            rel = m.filename[len(top) + 1:]
            dest = next((w + rel[len(z):] for z, w in WHEEL_DIRS.items() if rel.startswith(z)), None)
            if dest is None:
                continue
            data = src.read(m)
            whl.writestr(dest, data)
            record.append(f"{dest},{_record_hash(data)},{len(data)}")
        meta = {info + "METADATA": f"Metadata-Version: 2.1\nName: {DIST}\nVersion: {version}\n",
                info + "WHEEL": "Wheel-Version: 1.0\nGenerator: cudnnctl-bench\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
        for dest, text in meta.items():
            data = text.encode()
            whl.writestr(dest, data)
            record.append(f"{dest},{_record_hash(data)},{len(data)}")
        whl.writestr(info + "RECORD", "\n".join(record + [f"{info}RECORD,,"]) + "\n")
    os.replace(tmp, path)
    with open(path + ".from", "w") as f:
        f.write(stamp)
    return path


def requirements_file(wheel, out_dir):
    digest = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
    path = os.path.join(out_dir, "requirements.txt")
    with open(path, "w") as f:
        f.write(f"{DIST.replace('_', '-')} @ file://{os.path.abspath(wheel)} --hash=sha256:{digest}\n")
    return path


def find_uv(cache):
    """uv from PATH, or from a venv under `cache` (installed from PyPI once). (path, why-missing)."""
    if shutil.which("uv"):
        return shutil.which("uv"), None
    venv = os.path.join(cache, "uv-venv")
    uv = os.path.join(venv, "bin", "uv")
    if not os.path.exists(uv):
        try:
            subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True)
            subprocess.run([os.path.join(venv, "bin", "python"), "-m", "pip", "install", "-q", "uv"], check=True,
                           capture_output=True, timeout=300)
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as e:
            err = getattr(e, "stderr", b"") or b""
            return None, f"`pip install uv` into {venv} failed: {err.decode(errors='replace').strip()[-200:] or e}"
    return (uv, None) if os.path.exists(uv) else (None, f"no uv in {venv}")


def has_bundle(cudnnctl):
    p = subprocess.run([cudnnctl, "bundle"], capture_output=True, text=True)  # `--help` exits 0 for any word
    return "unknown command 'bundle'" not in p.stderr


def peer_commands(cudnnctl, archive, top, cache, tmp):
    """{key: (label, argv, prepare)} for the peers found; prints why a peer is skipped."""
    os.makedirs(cache, exist_ok=True)
    version = top.rsplit("-", 2)[-2].split("_")[0]  # cudnn-windows-x86_64-9.19.0.56_cuda13-archive -> 9.19.0.56
    wheel = build_wheel(archive, top, version, cache)
    req = requirements_file(wheel, cache)
    venv = os.path.join(tmp, "venv")
    out = {}

    def fresh_venv():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
        os.sync()

    uv, why = find_uv(cache)
    if uv:
        out["uv"] = ("uv pip install wheel (--require-hashes, no cache)",
                     [uv, "pip", "install", "--python", os.path.join(venv, "bin", "python"), "--no-cache",
                      "--no-deps", "--no-index", "--require-hashes", "-r", req, "-q"], fresh_venv)
    else:
        print(f"skipped: uv rows ({why})")
    pip_ok = subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode == 0
    if pip_ok:
        out["pip"] = ("pip install wheel (--require-hashes, no cache)",
                      [sys.executable, "-m", "pip", "--python", os.path.join(venv, "bin", "python"), "install",
                       "--no-cache-dir", "--no-deps", "--no-index", "--require-hashes", "-r", req, "-q",
                       "--disable-pip-version-check"], fresh_venv)
    else:
        print(f"skipped: pip rows ({sys.executable} -m pip is not available)")
    if has_bundle(cudnnctl) and os.name != "nt":
        # a swap proves the new copy loads in a child process: Windows DLLs load only on Windows
        print("skipped: bundle swap row (the Windows zip's DLLs can be swapped and load-checked only on Windows)")
    elif has_bundle(cudnnctl):
        site = os.path.join(tmp, "site")
        lib = os.path.join(site, "nvidia", "cudnn", "bin")
        digest = open(archive + ".sha256").read().split()[0] if os.path.exists(archive + ".sha256") else \
            hashlib.sha256(open(archive, "rb").read()).hexdigest()

        def fresh_site():
            shutil.rmtree(site, ignore_errors=True)
            os.makedirs(lib)
            with zipfile.ZipFile(archive) as z:  # the folder a framework ships: the same names, older bytes
                for m in z.infolist():
                    if m.filename.startswith(f"{top}/bin/x64/") and not m.is_dir():
                        with open(os.path.join(lib, os.path.basename(m.filename)), "wb") as f:
                            f.write(b"old")
            os.sync()
        out["bundle"] = ("cudnnctl bundle swap (same files, fsync'd)",
                         [cudnnctl, "bundle", "swap", lib, archive, "--sha256", digest], fresh_site)
    else:
        print(f"skipped: bundle swap row ({cudnnctl} has no `bundle` command on this branch)")
    return out

#!/usr/bin/env python3
"""Packs a cudnnctl binary into a wheel, the way uv and ruff ship theirs: the binary is the distribution's
script (cudnnctl-<ver>.data/scripts/cudnnctl[.exe], which pip and uv put into the environment's bin/ or
Scripts/), plus a tiny `cudnnctl` package whose __main__ runs that binary (`python -m cudnnctl`).
Pure Python (zipfile), nothing to install.

    scripts/make-wheel.py BINARY PLATFORM_TAG OUT_DIR [--version V]

PLATFORM_TAG: manylinux_2_17_x86_64, manylinux_2_17_aarch64 (each also tagged with its manylinux2014 alias)
or win_amd64. The binary must be for that machine (its ELF or PE header is read). V defaults to the
project version in CMakeLists.txt. Prints the wheel's path as the last line of stdout.
Entries are written with a fixed time (SOURCE_DATE_EPOCH when set), so the same input gives the same wheel.
"""
import argparse
import base64
import hashlib
import os
import re
import struct
import sys
import time
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "cudnnctl"
SUMMARY = "Install NVIDIA cuDNN archives and diagnose cuDNN set-ups"

# platform tag -> (extra tags, binary format, machine) ; ELF e_machine 62 = x86-64, 183 = AArch64; PE 0x8664 = AMD64
TAGS = {
    "manylinux_2_17_x86_64": (["manylinux2014_x86_64"], "elf", 62),
    "manylinux_2_17_aarch64": (["manylinux2014_aarch64"], "elf", 183),
    "win_amd64": ([], "pe", 0x8664),
}

INIT_PY = '''"""cudnnctl: install NVIDIA cuDNN archives and diagnose cuDNN set-ups.

The wheel installs the native `cudnnctl` program into the environment's scripts folder; `python -m cudnnctl`
runs it (see __main__.py). There is no Python API.
"""
__version__ = "{version}"
'''

MAIN_PY = '''"""python -m cudnnctl: runs the cudnnctl program this wheel installed into the scripts folder."""
import os
import sys
import sysconfig


def find_cudnnctl():
    exe = "cudnnctl" + (".exe" if os.name == "nt" else "")
    folders = [sysconfig.get_path("scripts")]
    try:  # pip install --user puts scripts into the user scheme's folder
        folders.append(sysconfig.get_path("scripts", sysconfig.get_preferred_scheme("user")))
    except (AttributeError, KeyError):
        pass
    folders.append(os.path.dirname(sys.executable))
    for folder in folders:
        path = os.path.join(folder, exe)
        if folder and os.path.isfile(path):
            return path
    raise SystemExit(f"cudnnctl: the cudnnctl program is not in {', '.join(f for f in folders if f)}: reinstall the wheel")


def main():
    path = find_cudnnctl()
    if os.name == "nt":
        import subprocess
        sys.exit(subprocess.call([path, *sys.argv[1:]]))
    os.execv(path, [path, *sys.argv[1:]])


if __name__ == "__main__":
    main()
'''


def project_version():
    with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
        m = re.search(r"project\(\s*cudnnctl\s+VERSION\s+([0-9][0-9.]*)", f.read())
    if not m:
        raise SystemExit("make-wheel: no project version in CMakeLists.txt; give --version")
    return m.group(1)


def binary_machine(path):
    """('elf', e_machine) or ('pe', Machine) from the file's header; (None, None) for anything else."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if head[:4] == b"\x7fELF" and len(head) >= 20:
        endian = "<" if head[5] == 1 else ">"
        return "elf", struct.unpack(endian + "H", head[18:20])[0]
    if head[:2] == b"MZ" and len(head) >= 64:
        pe = struct.unpack("<I", head[60:64])[0]
        if head[pe:pe + 4] == b"PE\0\0":
            return "pe", struct.unpack("<H", head[pe + 4:pe + 6])[0]
    return None, None


def digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def metadata(version):
    return (f"Metadata-Version: 2.1\nName: {NAME}\nVersion: {version}\nSummary: {SUMMARY}\n"
            "License: MIT\nRequires-Python: >=3.8\nKeywords: cuda,cudnn,nvidia,installer,diagnostics\n"
            "Classifier: License :: OSI Approved :: MIT License\nClassifier: Environment :: Console\n"
            "Classifier: Programming Language :: C++\nDescription-Content-Type: text/markdown\n\n"
            "cudnnctl installs NVIDIA cuDNN archives into CUDA toolkits and diagnoses cuDNN set-ups "
            "(`cudnnctl doctor`, `cudnnctl bundle list`, `cudnnctl explain`). This wheel holds the native "
            "program; `pip install cudnnctl`, `uv tool install cudnnctl` or `pipx install cudnnctl` put it on PATH, "
            "and `python -m cudnnctl` runs it.\n")


def wheel_file(tags):
    lines = ["Wheel-Version: 1.0", "Generator: cudnnctl scripts/make-wheel.py", "Root-Is-Purelib: false"]
    return "\n".join(lines + [f"Tag: py3-none-{t}" for t in tags]) + "\n"


def build(binary, tag, out_dir, version):
    extra, fmt, machine = TAGS[tag]
    got_fmt, got_machine = binary_machine(binary)
    if (got_fmt, got_machine) != (fmt, machine):
        raise SystemExit(f"make-wheel: {binary} is not a {fmt.upper()} binary for {tag} (read: {got_fmt} machine {got_machine})")
    tags = [tag] + extra
    exe = NAME + (".exe" if fmt == "pe" else "")
    data_dir, info_dir = f"{NAME}-{version}.data", f"{NAME}-{version}.dist-info"
    with open(binary, "rb") as f:
        program = f.read()
    license_path = os.path.join(ROOT, "LICENSE")
    entries = [  # (archive name, bytes, executable)
        (f"{NAME}/__init__.py", INIT_PY.format(version=version).encode(), False),
        (f"{NAME}/__main__.py", MAIN_PY.encode(), False),
        (f"{data_dir}/scripts/{exe}", program, True),
        (f"{info_dir}/METADATA", metadata(version).encode(), False),
        (f"{info_dir}/WHEEL", wheel_file(tags).encode(), False),
    ]
    if os.path.isfile(license_path):
        with open(license_path, "rb") as f:
            entries.append((f"{info_dir}/LICENSE", f.read(), False))
    record = "".join(f"{n},{digest(d)},{len(d)}\n" for n, d, _ in entries) + f"{info_dir}/RECORD,,\n"
    entries.append((f"{info_dir}/RECORD", record.encode(), False))

    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{NAME}-{version}-py3-none-{'.'.join(tags)}.whl")
    stamp = time.gmtime(max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800))[:6]
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, executable in entries:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = (0o100755 if executable else 0o100644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, path)
    return path


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("platform_tag", choices=sorted(TAGS))
    ap.add_argument("out_dir")
    ap.add_argument("--version", default=None)
    args = ap.parse_args()
    version = args.version or project_version()
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*([a-z]+[0-9]+)?", version):
        raise SystemExit(f"make-wheel: '{version}' is not a plain release version (e.g. 1.2.3)")
    path = build(args.binary, args.platform_tag, args.out_dir, version)
    print(f"make-wheel: {path} ({os.path.getsize(path)} bytes)", file=sys.stderr)
    print(path)


if __name__ == "__main__":
    sys.exit(main())

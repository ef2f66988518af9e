#!/usr/bin/env python3
"""CTest packaging.release_layout: scripts/release.sh packaging prebuilt binaries (CUDNNCTL_RELEASE_PREBUILT):
this build's cudnnctl as linux-x86_64, stand-ins with an aarch64 ELF header and an AMD64 PE header for the
others (building those is scripts/build-portable.sh's and build-windows.sh's, tested by their own tests).

    release_test.py CUDNNCTL

Checks dist/: exactly the release's files; SHA256SUMS complete and right; the tar.gz and .deb hold the binary;
the three wheels; the Scoop and winget manifests name the GitHub release URL with the zip's SHA-256;
install.sh names the repository; and install.sh run from that dist/, served on 127.0.0.1, installs the
x86_64 binary. Prints SKIP: without dpkg-deb, zip or tar.
"""
import hashlib
import http.server
import json
import os
import platform
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CUDNNCTL = sys.argv[1]
for tool in ("dpkg-deb", "zip", "tar", "sha256sum"):
    if not shutil.which(tool):
        print(f"SKIP: no {tool}")
        sys.exit(0)
VERSION = subprocess.check_output([CUDNNCTL, "--version"], text=True).split()[1]
REPO = "example-org/cudnnctl"
BASE = f"https://github.com/{REPO}/releases/download/v{VERSION}/"
TMP = tempfile.mkdtemp(prefix="cudnnctl-release-")
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def content(path):
    with open(path, "rb") as f:
        return f.read()


def prebuilt():
    pre = os.path.join(TMP, "prebuilt")
    for sub in ("linux-x86_64", "linux-aarch64", "windows-x86_64"):
        os.makedirs(os.path.join(pre, sub))
    shutil.copy(CUDNNCTL, os.path.join(pre, "linux-x86_64", "cudnnctl"))
    elf = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack("<HHI", 2, 183, 1) + bytes(40)  # ET_EXEC, EM_AARCH64
    with open(os.path.join(pre, "linux-aarch64", "cudnnctl"), "wb") as f:
        f.write(elf + b"stand-in aarch64 cudnnctl")
    pe = bytearray(b"MZ" + bytes(62))
    pe[60:64] = struct.pack("<I", 64)
    with open(os.path.join(pre, "windows-x86_64", "cudnnctl.exe"), "wb") as f:
        f.write(bytes(pe) + b"PE\0\0" + struct.pack("<H", 0x8664) + bytes(20) + b"stand-in cudnnctl.exe")
    return pre


PRE = prebuilt()
DIST = os.path.join(TMP, "dist")
env = dict(os.environ, CUDNNCTL_RELEASE_PREBUILT=PRE, CUDNNCTL_RELEASE_WORK=os.path.join(TMP, "work"), GITHUB_REPOSITORY=REPO)
r = subprocess.run(["bash", os.path.join(ROOT, "scripts", "release.sh"), "--out", DIST], env=env, capture_output=True, text=True, timeout=600)
check(r.returncode == 0 and r.stdout.strip().splitlines()[-1:] == [DIST], f"release.sh (rc {r.returncode}): {r.stdout}{r.stderr[-2000:]}")
if r.returncode != 0:
    sys.exit(1)

files = sorted(os.listdir(DIST))
want = sorted([
    "SHA256SUMS", "install.sh", "cudnnctl.json", "Cudnnctl.Cudnnctl.yaml", "Cudnnctl.Cudnnctl.installer.yaml",
    "Cudnnctl.Cudnnctl.locale.en-US.yaml", "cudnnctl-linux-x86_64", "cudnnctl-linux-aarch64", "cudnnctl-windows-x86_64.exe",
    f"cudnnctl-{VERSION}-linux-x86_64.tar.gz", f"cudnnctl-{VERSION}-linux-aarch64.tar.gz", f"cudnnctl-{VERSION}-windows-x86_64.zip",
    f"cudnnctl_{VERSION}_amd64.deb", f"cudnnctl_{VERSION}_arm64.deb",
    f"cudnnctl-{VERSION}-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
    f"cudnnctl-{VERSION}-py3-none-manylinux_2_17_aarch64.manylinux2014_aarch64.whl",
    f"cudnnctl-{VERSION}-py3-none-win_amd64.whl"])
check(files == want, f"dist/ holds exactly the release files: extra {sorted(set(files) - set(want))}, missing {sorted(set(want) - set(files))}")

sums = {}
for line in open(os.path.join(DIST, "SHA256SUMS")):
    digest, name = line.rstrip("\n").split("  ", 1)
    sums[name] = digest
check(sorted(sums) == sorted(f for f in files if f != "SHA256SUMS"), f"SHA256SUMS lists every other file: {sorted(sums)}")
check(all(os.path.isfile(os.path.join(DIST, n)) and sha(os.path.join(DIST, n)) == d for n, d in sums.items()), "every SHA256SUMS hash is right")

check(content(os.path.join(DIST, "cudnnctl-linux-x86_64")) == content(CUDNNCTL), "cudnnctl-linux-x86_64 is the x86_64 binary")
with tarfile.open(os.path.join(DIST, f"cudnnctl-{VERSION}-linux-x86_64.tar.gz")) as t:
    top = f"cudnnctl-{VERSION}-linux-x86_64"
    names = t.getnames()
    check({f"{top}/cudnnctl", f"{top}/LICENSE", f"{top}/README.md", f"{top}/docs/install.md"} <= set(names), f"tar.gz layout: {names[:8]}")
    member = t.getmember(f"{top}/cudnnctl")
    check(member.mode & 0o111 == 0o111 and t.extractfile(member).read() == content(CUDNNCTL), "tar.gz: the executable binary")

for debarch, binary in (("amd64", CUDNNCTL), ("arm64", os.path.join(PRE, "linux-aarch64", "cudnnctl"))):
    deb = os.path.join(DIST, f"cudnnctl_{VERSION}_{debarch}.deb")
    fields = subprocess.run(["dpkg-deb", "-f", deb, "Package", "Version", "Architecture"], capture_output=True, text=True).stdout
    check(fields.split() == ["Package:", "cudnnctl", "Version:", VERSION, "Architecture:", debarch], f"{debarch}.deb control: {fields!r}")
    x = os.path.join(TMP, f"deb-{debarch}")
    subprocess.run(["dpkg-deb", "-x", deb, x], check=True)
    prog = os.path.join(x, "usr", "bin", "cudnnctl")
    check(os.path.isfile(prog) and os.access(prog, os.X_OK) and content(prog) == content(binary), f"{debarch}.deb: /usr/bin/cudnnctl is the binary")

zip_name = f"cudnnctl-{VERSION}-windows-x86_64.zip"
scoop = json.load(open(os.path.join(DIST, "cudnnctl.json")))
arch64 = scoop["architecture"]["64bit"]
check(arch64["url"] == BASE + zip_name and arch64["hash"] == sha(os.path.join(DIST, zip_name)), f"Scoop: the release URL and the zip's SHA-256: {arch64}")
installer = open(os.path.join(DIST, "Cudnnctl.Cudnnctl.installer.yaml")).read()
check(f'InstallerUrl: "{BASE}{zip_name}"' in installer and sha(os.path.join(DIST, zip_name)).upper() in installer, "winget: the release URL and SHA-256")
check("example.invalid" not in json.dumps(scoop) + installer, "no placeholder URL left")

inst = open(os.path.join(DIST, "install.sh")).read()
check(f"https://github.com/{REPO}/releases" in inst and "@GITHUB_REPOSITORY@" not in inst, "install.sh names the repository")

# install.sh from this dist/, served on 127.0.0.1, as a user would run it against a mirror
if platform.machine() in ("x86_64", "AMD64"):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=DIST, **kw)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    into = os.path.join(TMP, "bin")
    ienv = {k: v for k, v in os.environ.items() if not k.startswith("CUDNNCTL_")}
    r = subprocess.run(["sh", os.path.join(DIST, "install.sh"), "--base-url", f"http://127.0.0.1:{server.server_address[1]}", "--dir", into],
                       env=ienv, capture_output=True, text=True, timeout=120)
    check(r.returncode == 0 and content(os.path.join(into, "cudnnctl")) == content(CUDNNCTL), f"install.sh from dist/ installs it: {r.stderr}")
    server.shutdown()

shutil.rmtree(TMP, ignore_errors=True)
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("release.sh: dist/ complete, checksummed, manifests and installer pointing at the release")

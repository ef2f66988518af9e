#!/usr/bin/env python3
"""CTest packaging.install_sh: scripts/install.sh against a local HTTP server on 127.0.0.1 serving a fake
release folder made here: cudnnctl-<ver>-linux-x86_64.tar.gz holding this build's cudnnctl, a
linux-aarch64 one holding a stand-in program (this machine cannot run an aarch64 binary), SHA256SUMS.

    install_sh_test.py CUDNNCTL

- the right file per machine (uname faked through CUDNNCTL_INSTALL_UNAME_S/_M), run by dash as `curl | sh` does;
- a second run of the same version downloads nothing and changes nothing;
- a wrong SHA-256 is refused with nothing installed (and an older install left as it was);
- an unknown machine, a release without this machine's file and Windows shells are clear errors.
Prints SKIP: without sh, curl or wget, tar.
"""
import hashlib
import http.server
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
INSTALL_SH = os.path.join(ROOT, "scripts", "install.sh")
CUDNNCTL = sys.argv[1]
for tool in ("sh", "tar", "gzip"):
    if not shutil.which(tool):
        print(f"SKIP: no {tool}")
        sys.exit(0)
if not (shutil.which("curl") or shutil.which("wget")):
    print("SKIP: neither curl nor wget")
    sys.exit(0)

VERSION = subprocess.check_output([CUDNNCTL, "--version"], text=True).split()[1]
TMP = tempfile.mkdtemp(prefix="cudnnctl-install-sh-")
AARCH64_STUB = f"#!/bin/sh\necho 'cudnnctl {VERSION} (stand-in for the aarch64 build)'\n".encode()
REQUESTS = []
failures = []


def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)


def tarball(folder, arch, program):
    top = f"cudnnctl-{VERSION}-linux-{arch}"
    name = f"{top}.tar.gz"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for member, data, mode in ((f"{top}/cudnnctl", program, 0o755), (f"{top}/LICENSE", b"MIT\n", 0o644)):
            info = tarfile.TarInfo(member)
            info.size, info.mode = len(data), mode
            t.addfile(info, io.BytesIO(data))
    with open(os.path.join(folder, name), "wb") as f:
        f.write(buf.getvalue())
    return name


def make_release(name, corrupt=None):
    """A release folder under the server's root; corrupt='x86_64' lists a wrong SHA-256 for that file."""
    folder = os.path.join(TMP, "www", name)
    os.makedirs(folder)
    with open(CUDNNCTL, "rb") as f:
        files = [tarball(folder, "x86_64", f.read()), tarball(folder, "aarch64", AARCH64_STUB)]
    with open(os.path.join(folder, "cudnnctl-unrelated.txt"), "w") as f:
        f.write("not a release file\n")
    lines = []
    for fn in files:
        digest = hashlib.sha256(open(os.path.join(folder, fn), "rb").read()).hexdigest()
        if corrupt and fn.endswith(f"-linux-{corrupt}.tar.gz"):
            digest = hashlib.sha256(b"something else").hexdigest()
        lines.append(f"{digest}  {fn}\n")
    with open(os.path.join(folder, "SHA256SUMS"), "w") as f:
        f.writelines(lines)


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **kw):
        super().__init__(*a, directory=os.path.join(TMP, "www"), **kw)

    def log_message(self, *args):
        pass

    def do_GET(self):
        REQUESTS.append(self.path)
        super().do_GET()


make_release("good")
make_release("badsum", corrupt="x86_64")
os.makedirs(os.path.join(TMP, "www", "empty"))
open(os.path.join(TMP, "www", "empty", "SHA256SUMS"), "w").close()
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
threading.Thread(target=server.serve_forever, daemon=True).start()
BASE = f"http://127.0.0.1:{server.server_address[1]}"


def install(release, folder, machine="x86_64", os_name="Linux", *extra, piped=True):
    """Runs install.sh as `curl ... | sh -s -- ARGS` does (dash reads the script from standard input)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("CUDNNCTL_")}
    env.update(CUDNNCTL_INSTALL_UNAME_S=os_name, CUDNNCTL_INSTALL_UNAME_M=machine, HOME=os.path.join(TMP, "home"))
    args = ["--base-url", f"{BASE}/{release}/", "--dir", folder, *extra]
    REQUESTS.clear()
    with open(INSTALL_SH, "rb") as script:
        if piped:
            r = subprocess.run(["sh", "-s", "--", *args], stdin=script, env=env, capture_output=True, timeout=120)
        else:
            r = subprocess.run(["sh", INSTALL_SH, *args], env=env, capture_output=True, timeout=120)
    return r.returncode, (r.stdout + r.stderr).decode(errors="replace")


def files_in(folder):
    return sorted(os.listdir(folder)) if os.path.isdir(folder) else []


def content(path):
    with open(path, "rb") as f:
        return f.read()


# x86_64: this build's cudnnctl, runnable, nothing else left in the folder
d64 = os.path.join(TMP, "bin x86")  # a space in the path on purpose
rc, out = install("good", d64)
check(rc == 0 and files_in(d64) == ["cudnnctl"], f"x86_64: installed (rc {rc}): {files_in(d64)} {out}")
check(os.path.isfile(os.path.join(d64, "cudnnctl")) and content(os.path.join(d64, "cudnnctl")) == content(CUDNNCTL),
      "x86_64: the installed file is the x86_64 build")
check(any(p.endswith(f"-linux-x86_64.tar.gz") for p in REQUESTS) and not any("aarch64" in p for p in REQUESTS),
      f"x86_64: only the x86_64 file was downloaded: {REQUESTS}")
ver = subprocess.run([os.path.join(d64, "cudnnctl"), "--version"], capture_output=True, text=True)
check(ver.returncode == 0 and ver.stdout.startswith(f"cudnnctl {VERSION}"), f"x86_64: the installed cudnnctl runs: {ver.stdout}")

# the same version again: a no-op (no download, the same file, untouched)
before = os.stat(os.path.join(d64, "cudnnctl"))
rc, out = install("good", d64)
after = os.stat(os.path.join(d64, "cudnnctl"))
check(rc == 0 and "already installed" in out, f"second run: says it is installed already (rc {rc}): {out}")
check((before.st_ino, before.st_mtime_ns) == (after.st_ino, after.st_mtime_ns), "second run: the file is untouched")
check(not any(p.endswith(".tar.gz") for p in REQUESTS), f"second run: nothing downloaded but SHA256SUMS: {REQUESTS}")
rc, out = install("good", d64, "x86_64", "Linux", "--force", piped=False)
check(rc == 0 and any(p.endswith(".tar.gz") for p in REQUESTS), f"--force reinstalls (rc {rc}): {out}")

# aarch64 (uname says so): the aarch64 file
darm = os.path.join(TMP, "bin-arm")
rc, out = install("good", darm, "aarch64")
check(rc == 0 and os.path.isfile(os.path.join(darm, "cudnnctl")) and content(os.path.join(darm, "cudnnctl")) == AARCH64_STUB,
      f"aarch64: installed the aarch64 file (rc {rc}): {out}")
check(any(p.endswith("-linux-aarch64.tar.gz") for p in REQUESTS) and not any("x86_64" in p for p in REQUESTS),
      f"aarch64: only the aarch64 file was downloaded: {REQUESTS}")
rc, out = install("good", os.path.join(TMP, "bin-arm64"), "arm64")
check(rc == 0 and content(os.path.join(TMP, "bin-arm64", "cudnnctl")) == AARCH64_STUB, f"arm64 (uname's name on some systems) is aarch64: {out}")

# a wrong SHA-256: refused, nothing installed, no temporary file left
dbad = os.path.join(TMP, "bin-bad")
rc, out = install("badsum", dbad)
check(rc != 0 and "SHA-256" in out and "nothing installed" in out, f"wrong SHA-256 refused (rc {rc}): {out}")
check(not os.path.exists(os.path.join(dbad, "cudnnctl")) and files_in(dbad) == [], f"wrong SHA-256: nothing in the folder: {files_in(dbad)}")
# ... and an older install is left as it was
os.makedirs(os.path.join(TMP, "bin-old"))
old = os.path.join(TMP, "bin-old", "cudnnctl")
with open(old, "w") as f:
    f.write("#!/bin/sh\necho 'cudnnctl 0.0.1 (old)'\n")
os.chmod(old, 0o755)
old_bytes = content(old)
rc, out = install("badsum", os.path.dirname(old))
check(rc != 0 and content(old) == old_bytes and files_in(os.path.dirname(old)) == ["cudnnctl"], f"wrong SHA-256: the older install untouched: {out}")
rc, out = install("good", os.path.dirname(old))
check(rc == 0 and content(old) == content(CUDNNCTL), f"an older version is replaced by the release's: {out}")

# clear refusals
for args, words in ((("good", os.path.join(TMP, "x"), "mips64"), "no cudnnctl build for the machine 'mips64'"),
                    (("good", os.path.join(TMP, "x"), "x86_64", "MINGW64_NT-10.0"), "winget"),
                    (("empty", os.path.join(TMP, "x")), "names no cudnnctl-<version>-linux-x86_64.tar.gz"),
                    (("nowhere", os.path.join(TMP, "x")), "cannot download")):
    rc, out = install(*args)
    check(rc != 0 and words in out and not os.path.exists(os.path.join(TMP, "x", "cudnnctl")), f"refused with '{words}' (rc {rc}): {out.strip()}")
rc, out = install("good", os.path.join(TMP, "x"), "x86_64", "Linux", "--version", "9.9.9")
check(rc != 0 and f"holds cudnnctl {VERSION}, not 9.9.9" in out, f"--version that the mirror does not hold: {out.strip()}")

server.shutdown()
shutil.rmtree(TMP, ignore_errors=True)
if failures:
    print(f"{len(failures)} failed")
    sys.exit(1)
print("install.sh: right file per machine, a second run a no-op, a wrong SHA-256 refused with nothing installed")

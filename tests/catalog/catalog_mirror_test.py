#!/usr/bin/env python3
"""catalog update and install through a local HTTPS mirror on 127.0.0.1, and hostile manifests refused.

    catalog_mirror_test.py CUDNNCTL

A CA and a server certificate are made here with openssl; cudnnctl trusts the CA through SSL_CERT_FILE.
The mirror serves NVIDIA's paths (compute/cudnn/redist/...) below /<case>/: /good/ has a listing and the
manifest of a release newer than the built-in catalog (9.30.0, its facts shaped like NVIDIA's real
redistrib_9.27.0.json, https://developer.download.nvidia.com/compute/cudnn/redist/redistrib_9.27.0.json)
and a small tar.xz archive made here whose hash the manifest gives. Every other case serves one manifest
that breaks one rule: each must be refused (exit 9) with the user catalog byte-identical.
"""
import hashlib
import http.server
import io
import json
import os
import shutil
import ssl
import subprocess
import sys
import tarfile
import tempfile
import threading

CUDNNCTL = sys.argv[1]
if not shutil.which("openssl"):
    print("SKIP: openssl is not installed")
    sys.exit(0)

TMP = tempfile.mkdtemp(prefix="cudnnctl-mirror-")
NEW = "9.30.0.7"
TOP = f"cudnn-linux-x86_64-{NEW}_cuda13-archive"
NAME = TOP + ".tar.xz"
REDIST = "compute/cudnn/redist/"


def make_archive():
    buf = io.BytesIO()
    # an ELF shared object (Python's own _ssl module, so that the doctor reads the installed library as one) and
    # incompressible bytes after it, as real libraries nearly are (the extractor caps members at 4x the size)
    import _ssl
    lib = open(getattr(_ssl, "__file__", None) or sys.executable, "rb").read() + os.urandom(60000)
    with tarfile.open(fileobj=buf, mode="w:xz") as t:
        def add(name, data=None, kind=tarfile.REGTYPE, target="", mode=0o644):
            ti = tarfile.TarInfo(f"{TOP}/{name}" if name else TOP)
            ti.type, ti.mode = kind, mode
            if kind == tarfile.REGTYPE:
                ti.size = len(data)
                t.addfile(ti, io.BytesIO(data))
            else:
                ti.linkname = target
                t.addfile(ti)
        add("", kind=tarfile.DIRTYPE, mode=0o755)
        for d in ("include", "lib"):
            add(d, kind=tarfile.DIRTYPE, mode=0o755)
        add("include/cudnn_version.h", b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 30\n#define CUDNN_PATCHLEVEL 0\n")
        add("include/cudnn.h", b"#include \"cudnn_version.h\"\n")
        add("LICENSE", b"license text\n")
        add("lib/libcudnn.so.9.30.0", lib, mode=0o755)
        add("lib/libcudnn.so.9", kind=tarfile.SYMTYPE, target="libcudnn.so.9.30.0")
        add("lib/libcudnn.so", kind=tarfile.SYMTYPE, target="libcudnn.so.9")
    return buf.getvalue()


ARCHIVE = make_archive()
SHA = hashlib.sha256(ARCHIVE).hexdigest()


def manifest(label="9.30.0", version=NEW, entries=None, **top):
    entries = entries or {"linux-x86_64": {"cuda13": {"relative_path": f"cudnn/linux-x86_64/{NAME}", "sha256": SHA,
                                                      "md5": hashlib.md5(ARCHIVE).hexdigest(), "size": str(len(ARCHIVE))}}}
    doc = {"release_date": "2026-12-01", "release_label": label, "release_product": "cudnn",
           "cudnn": {"name": "NVIDIA CUDA Deep Neural Network library", "license": "cudnn", "version": version,
                     "cuda_variant": ["12", "13"], **entries}}
    doc.update(top)
    return json.dumps(doc).encode()


def entry(rel, sha=SHA, size=None):
    return {"linux-x86_64": {"cuda13": {"relative_path": rel, "sha256": sha, "size": size or str(len(ARCHIVE))}}}


# 9.27.0.42 linux-x86_64 cuda13 as the built-in catalog has it (NVIDIA's manifest)
B_NAME = "cudnn-linux-x86_64-9.27.0.42_cuda13-archive.tar.xz"
B_SHA = "dd3245ba3aca8593934fc946d08649ad3a5ee8500e8da3870bc23bf7ddccd7f9"
B_SIZE = "937996620"
HOSTILE = {
    "outside": (manifest(entries=entry(f"other/linux-x86_64/{NAME}")), "not a file directly below cudnn/linux-x86_64/"),
    "dotdot": (manifest(entries=entry(f"cudnn/linux-x86_64/../../../etc/{NAME}")), "contains '..'"),
    "otherversion": (manifest(entries=entry("cudnn/linux-x86_64/cudnn-linux-x86_64-9.29.0.1_cuda13-archive.tar.xz")),
                     "is cuDNN 9.29.0.1, the release is 9.30.0.7"),
    "otherplatform": (manifest(entries=entry(f"cudnn/linux-x86_64/cudnn-linux-sbsa-{NEW}_cuda13-archive.tar.xz")),
                      "is for linux-sbsa, listed under linux-x86_64"),
    "badhash": (manifest(entries=entry(f"cudnn/linux-x86_64/{NAME}", sha="12" * 31)), "is not 64 hex digits"),
    "badsize": (manifest(entries=entry(f"cudnn/linux-x86_64/{NAME}", size="12e4")), "is not a decimal byte count"),
    "sizemismatch": (manifest("9.27.0", "9.27.0.42", entry(f"cudnn/linux-x86_64/{B_NAME}", sha=B_SHA, size="937996621")),
                     "937996621 bytes, the catalog (built in) has 937996620 bytes"),
    "contradiction": (manifest("9.27.0", "9.27.0.42", entry(f"cudnn/linux-x86_64/{B_NAME}", sha="ab" * 32, size=B_SIZE)),
                      f"the catalog (built in) has {B_SHA}"),
    "nonutf8": (manifest().replace(b"NVIDIA CUDA", b"NVIDIA \xff\xfe CUDA"), "is not UTF-8 text"),
    "huge": (None, "larger than the 1048576 bytes"),
    "unknownplatform": (manifest(entries={"linux-riscv64": entry(f"cudnn/linux-x86_64/{NAME}")["linux-x86_64"]}),
                        "unknown platform 'linux-riscv64'"),
    "threeparts": (manifest(version="9.30.0"), "not a 4-part version"),
}


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def send_body(self, data):
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        case, _, rel = self.path.lstrip("/").partition("/")
        try:
            if rel == REDIST:
                label = "9.27.0" if case in ("sizemismatch", "contradiction") else "9.30.0"
                return self.send_body(f'<a href="redistrib_9.19.0.json">a</a> <a href="redistrib_{label}.json">b</a>'.encode())
            if rel.startswith(REDIST + "redistrib_"):
                if case == "huge":  # 100 MB, streamed
                    self.send_response(200)
                    self.send_header("Content-Length", str(100 << 20))
                    self.end_headers()
                    self.wfile.write(b'{"release_label": "9.30.0", "pad": "')
                    for _ in range(100):
                        self.wfile.write(b"x" * (1 << 20))
                    return
                if case == "good" and not rel.endswith("redistrib_9.30.0.json"):
                    return self.send_error(404)
                return self.send_body(manifest() if case == "good" else HOSTILE[case][0])
            if case == "good" and rel == REDIST + f"cudnn/linux-x86_64/{NAME}":
                return self.send_body(ARCHIVE)
            self.send_error(404)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass


def openssl(*args):
    subprocess.run(["openssl", *args], cwd=TMP, check=True, capture_output=True)


openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=cudnnctl test CA")
openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1")
with open(os.path.join(TMP, "san.ext"), "w") as f:
    f.write("subjectAltName=IP:127.0.0.1\n")
openssl("x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem", "-days", "2",
        "-extfile", "san.ext")
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(os.path.join(TMP, "srv.pem"), os.path.join(TMP, "srv.key"))
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
server.socket = ctx.wrap_socket(server.socket, server_side=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
BASE = f"https://127.0.0.1:{server.server_address[1]}"

ENV = dict(os.environ, XDG_CACHE_HOME=os.path.join(TMP, "cache"), SSL_CERT_FILE=os.path.join(TMP, "ca.pem"))
ENV.pop("LOCALAPPDATA", None)
USER = os.path.join(TMP, "cache", "cudnnctl", "catalog.json")


def run(*args, env=ENV):
    r = subprocess.run([CUDNNCTL, *args], env=env, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout, r.stderr


failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# without the CA, the mirror's certificate is not trusted: nothing is written
rc, out, err = run("catalog", "update", "--mirror", BASE + "/good", env=dict(ENV, SSL_CERT_FILE="/nonexistent-ca.pem"))
check(rc == 8 and not os.path.exists(USER), f"an untrusted certificate is an I/O error (rc {rc}): {out}{err}")

# the good mirror: the listing's unknown release is learnt
rc, out, err = run("catalog", "update", "--mirror", BASE + "/good", "--json")
check(rc == 0, f"catalog update --mirror (rc {rc}): {out}{err}")
res = json.loads(out) if rc == 0 else {}
check(res.get("written") and [m["label"] for m in res.get("learnt", [])] == ["9.30.0"], f"learnt 9.30.0 only: {out}")
check("9.19.0" in res.get("already_known", []), "9.19.0 is known from the built-in catalog")
rc, out, _ = run("catalog", "list", "--platform", "linux-x86_64", "--json")
rows = {r["filename"]: r for r in json.loads(out)["archives"]}
check(rows.get(NAME, {}).get("catalog") == "user" and rows[NAME]["sha256"] == SHA and rows[NAME]["origin"].startswith(BASE + "/good/"),
      f"catalog list shows the user row with its origin: {rows.get(NAME)}")
check(rows.get(B_NAME, {}).get("catalog") == "built-in", "built-in rows are listed as such")
rc, out, _ = run("inspect", NAME, "--json")
check(rc == 0 and SHA in out, f"inspect knows the new archive's hash through the user catalog: {out[:300]}")
rc, out, _ = run("catalog", "update", "--mirror", BASE + "/good")
check(rc == 0 and "unchanged" in out, f"a second update learns nothing: {out}")

# install that version from the mirror, verified, into a temporary CUDA 13 toolkit
tk = os.path.join(TMP, "cuda-13.0")
os.makedirs(os.path.join(tk, "targets", "x86_64-linux", "lib"))
os.makedirs(os.path.join(tk, "include"))
os.makedirs(os.path.join(tk, "bin"))
os.symlink("targets/x86_64-linux/lib", os.path.join(tk, "lib64"))
with open(os.path.join(tk, "version.json"), "w") as f:
    json.dump({"cuda": {"name": "CUDA SDK", "version": "13.0.2"}}, f)
open(os.path.join(tk, "include", "cuda.h"), "w").write("#define CUDA_VERSION 13000\n")
rc, out, err = run("install", NEW, "--mirror", BASE + "/good", "--cuda-path", tk, "--cache", os.path.join(TMP, "archives"),
                   "--no-path", "--json")
check(rc == 0, f"install {NEW} --mirror (rc {rc}): {out}{err}")
if rc == 0:
    receipt = json.loads(out)["receipt"]
    check(receipt["sha256"] == SHA, f"the receipt names the manifest's hash: {receipt.get('sha256')}")
    check(os.path.isfile(os.path.join(tk, "lib64", "libcudnn.so.9.30.0")), "the library is in the toolkit")

# doctor --fix on a toolkit without cuDNN: with --mirror, one step `install latest --mirror ...` into it; without,
# the fix is printed with why. The system root is an empty folder (its ld.so cache is read, never this machine's).
tk2 = os.path.join(TMP, "cuda-13.0-empty")
os.makedirs(os.path.join(tk2, "targets", "x86_64-linux", "lib"))
os.makedirs(os.path.join(tk2, "include"))
os.makedirs(os.path.join(tk2, "bin"))
os.symlink("targets/x86_64-linux/lib", os.path.join(tk2, "lib64"))
open(os.path.join(tk2, "include", "cuda.h"), "w").write("#define CUDA_VERSION 13000\n")
open(os.path.join(tk2, "bin", "nvcc"), "w").write("nvcc\n")
sysroot = os.path.join(TMP, "sysroot")
os.makedirs(os.path.join(sysroot, "etc"))
FIX = ["doctor", "--cuda-path", tk2, "--layer", "2", "--root", sysroot, "--cache", os.path.join(TMP, "archives3"), "--fix", "files.cudnn"]


def tree(top):
    out = []
    for d, dirs, files in os.walk(top):
        for n in sorted(dirs + files):
            p = os.path.join(d, n)
            out.append((p, os.path.islink(p) and os.readlink(p), os.path.isfile(p) and not os.path.islink(p) and open(p, "rb").read()))
    return sorted(out)


shutil.copytree(tk2, tk2 + "-pristine", symlinks=True)
before = tree(tk2)
rc, out, err = run(*FIX, "--dry-run", "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
printed = doc.get("plan", {}).get("printed", [])
check(rc == 0 and not doc.get("plan", {}).get("steps") and len(printed) == 1 and "no mirror was given" in (printed[0].get("why_not_automatic") or ""),
      f"doctor --fix without a mirror prints the install with why (rc {rc}): {out}{err}")
rc, out, err = run(*FIX, "--mirror", BASE + "/good", "--dry-run", "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
steps = doc.get("plan", {}).get("steps", [])
check(rc == 10 and len(steps) == 1 and steps[0]["operation"] == "install"
      and steps[0]["command"].startswith(f"cudnnctl install latest --mirror {BASE}/good --cuda-path {tk2} --no-path"),
      f"doctor --fix --mirror plans install latest from the mirror (rc {rc}): {out}{err}")
check(tree(tk2) == before, "--dry-run changed the toolkit")
rc, out, err = run(*FIX, "--mirror", BASE + "/good", "--yes", "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
results = doc.get("results", [])
check(rc == 0 and len(results) == 1 and results[0]["applied"] and os.path.isfile(os.path.join(tk2, "lib64", "libcudnn.so.9.30.0")),
      f"doctor --fix --mirror --yes installs the newest release from the mirror (rc {rc}): {out}{err}")
rc, out, err = run("doctor", "--cuda-path", tk2, "--root", sysroot, "--check", "files.cudnn", "--json")
statuses = [c["status"] for c in json.loads(out)["checks"]] if out.strip().startswith("{") else []
check(statuses == ["pass"], f"files.cudnn passes afterwards: {statuses} {err}")
rc, out, err = run(*FIX, "--mirror", BASE + "/good", "--yes", "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
check(rc == 0 and not doc.get("plan", {}).get("steps"), f"a second doctor --fix --mirror plans nothing (rc {rc}): {out}{err}")

# ordered: an install killed after its journal was written and a dead run's staging folder in a toolkit without
# cuDNN. The recovery runs first, then the install from the mirror over the settled toolkit.
tk3 = os.path.join(TMP, "cuda-13.0-killed")
shutil.copytree(tk2 + "-pristine", tk3, symlinks=True)
os.makedirs(os.path.join(tk3, ".cudnnctl", "staging-4242", "lib"))
open(os.path.join(tk3, ".cudnnctl", "staging-4242", "lib", "libcudnn.so.9"), "w").write("half extracted")
json.dump({"schema_version": 1, "id": "j1", "description": f"install {TOP} into {tk3}", "phase": "applying", "moves": [],
           "remove_on_commit": [], "remove_on_rollback": []}, open(os.path.join(tk3, ".cudnnctl", "journal.json"), "w"))
ORDERED = ["doctor", "--cuda-path", tk3, "--layer", "2", "--root", sysroot, "--cache", os.path.join(TMP, "archives3"),
           "--mirror", BASE + "/good", "--fix", "files.interrupted", "--fix", "files.cudnn"]
rc, out, err = run(*ORDERED, "--dry-run", "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
check([s["operation"] for s in doc.get("plan", {}).get("steps", [])] == ["recover", "install"],
      f"the recovery is planned before the install (rc {rc}): {out}{err}")
rc, out, err = run(*ORDERED, "--yes", "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
check(rc == 0 and [r["operation"] for r in doc.get("results", [])] == ["recover", "install"] and all(r["applied"] for r in doc["results"])
      and not os.path.exists(os.path.join(tk3, ".cudnnctl", "journal.json"))
      and not os.path.exists(os.path.join(tk3, ".cudnnctl", "staging-4242"))
      and os.path.isfile(os.path.join(tk3, "lib64", "libcudnn.so.9.30.0")),
      f"one doctor --fix --yes rolls back, removes the staging folder, then installs (rc {rc}): {out}{err}")
rc, out, err = run(*ORDERED, "--yes", "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
check(rc == 0 and not doc.get("plan", {}).get("steps"), f"then nothing is left to plan (rc {rc}): {out}{err}")

# the install step killed (SIGKILL) at each of its file-system changes (CUDNNCTL_FAULT_AT_CHANGE, counted by the
# `install latest` child as CUDNNCTL_FAULT_LOG lists them): the next doctor --fix --mirror --yes finishes the job
# (the killed install rolled back or its clean-up finished, then installed), and the toolkit is whole.
SWEEP_ROOT = os.path.join(TMP, "sysroot-sweep")  # a system root whose ld.so.conf reads ld.so.conf.d, made again each run
SWEEP = ["doctor", "--layer", "2", "--root", SWEEP_ROOT, "--cache", os.path.join(TMP, "archives3"), "--mirror", BASE + "/good", "--fix", "--yes"]


def whole(tk):
    rc, out, err = run("doctor", "--cuda-path", tk, "--root", SWEEP_ROOT, "--check", "files.cudnn", "--check", "files.interrupted",
                       "--check", "files.receipt", "--check", "files.search_path", "--json")
    bad = [f"{c['id']}={c['status']}" for c in json.loads(out)["checks"] if c["status"] in ("warn", "fail")] if out.strip().startswith("{") else [err]
    staging = [n for n in os.listdir(os.path.join(tk, ".cudnnctl")) if n.startswith("staging-")] if os.path.isdir(os.path.join(tk, ".cudnnctl")) else []
    if not os.path.isfile(os.path.join(tk, "lib64", "libcudnn.so.9.30.0")):
        bad.append("no libcudnn.so.9.30.0")
    return bad + [f"staging left: {n}" for n in staging]


def fresh(tk):
    shutil.rmtree(SWEEP_ROOT, ignore_errors=True)
    os.makedirs(os.path.join(SWEEP_ROOT, "etc", "ld.so.conf.d"))
    shutil.copytree(tk2 + "-pristine", tk, symlinks=True)
    open(os.path.join(SWEEP_ROOT, "etc", "ld.so.conf"), "w").write("include /etc/ld.so.conf.d/*.conf\n")


tk4 = os.path.join(SWEEP_ROOT, "opt", "cuda-13.0")  # inside the system root: ldconfig -r lists it
log = os.path.join(TMP, "install-step.log")
fresh(tk4)
rc, out, err = run(*SWEEP[:1], "--cuda-path", tk4, *SWEEP[1:], env=dict(ENV, CUDNNCTL_FAULT_LOG=log))
changes = open(log).read().splitlines() if os.path.isfile(log) else []
check(rc == 0 and not whole(tk4), f"the clean doctor --fix --mirror --yes installs (rc {rc}): {whole(tk4)} {err[-300:]}")
check(len(changes) > 5, f"the install step counts its changes (CUDNNCTL_FAULT_LOG): {len(changes)}")
killed = 0
for k in range(1, len(changes) + 1):
    fresh(tk4)
    rc, out, err = run(*SWEEP[:1], "--cuda-path", tk4, *SWEEP[1:], env=dict(ENV, CUDNNCTL_FAULT_AT_CHANGE=str(k), CUDNNCTL_FAULT_SIGNAL="KILL"))
    check(rc != 0, f"killed before change {k} ({changes[k - 1]}): the doctor reports the step failed (rc {rc})")
    rc, out, err = run(*SWEEP[:1], "--cuda-path", tk4, *SWEEP[1:], "--json")
    left = whole(tk4)
    check(rc == 0 and not left, f"killed before change {k} ({changes[k - 1]}): the next doctor --fix finishes it (rc {rc}): {left} {out[-400:]}{err[-300:]}")
    killed += 1
print(f"install step: killed at each of {killed} changes, each finished by the next doctor --fix")
check(killed == len(changes) and killed > 5, f"the sweep ran: {killed} of {len(changes)}")

# one run, four planted problems: an install killed after its journal was written, a dead run's staging folder, no
# cuDNN (a mirror given) and so no toolkit folder in the ld.so cache: recovered, installed, then put first on the
# loader path (planned again after the install), and the doctor passes
fresh(tk4)
os.makedirs(os.path.join(tk4, ".cudnnctl", "staging-4242", "lib"))
open(os.path.join(tk4, ".cudnnctl", "staging-4242", "lib", "libcudnn.so.9"), "w").write("half extracted")
json.dump({"schema_version": 1, "id": "j1", "description": f"install {TOP} into {tk4}", "phase": "applying", "moves": [],
           "remove_on_commit": [], "remove_on_rollback": []}, open(os.path.join(tk4, ".cudnnctl", "journal.json"), "w"))
rc, out, err = run(*SWEEP[:1], "--cuda-path", tk4, *SWEEP[1:], "--json")
doc = json.loads(out) if out.strip().startswith("{") else {}
check(rc == 0 and [r["operation"] for r in doc.get("results", [])] == ["recover", "install", "path"] and all(r["applied"] for r in doc["results"])
      and not whole(tk4), f"one doctor --fix --yes recovers, installs and puts the toolkit first (rc {rc}): {whole(tk4)} {out[-600:]}{err[-300:]}")
rc, out, err = run(*SWEEP[:1], "--cuda-path", tk4, *SWEEP[1:], "--json")
check(rc == 0 and not (json.loads(out) if out.strip().startswith("{") else {"plan": {"steps": [1]}})["plan"]["steps"],
      f"then nothing is left to plan (rc {rc}): {out[-300:]}")

# a version no catalog knows, in a fresh cache: --offline reads nothing; fetch reads the release's manifest first
ENV2 = dict(ENV, XDG_CACHE_HOME=os.path.join(TMP, "cache2"))
USER2 = os.path.join(TMP, "cache2", "cudnnctl", "catalog.json")
rc, out, err = run("fetch", NEW, "--platform", "linux-x86_64", "--cuda", "13", "--mirror", BASE + "/good", "--offline", env=ENV2)
check(rc == 8 and "--offline" in err and not os.path.exists(USER2), f"fetch --offline of an unknown version reads nothing (rc {rc}): {err}")
rc, out, err = run("fetch", "9.30", "--platform", "linux-x86_64", "--cuda", "13", "--mirror", BASE + "/good",
                   "--cache", os.path.join(TMP, "archives2"), env=ENV2)
check(rc == 0 and "reading its release manifest" in err and "learnt cuDNN 9.30.0.7" in err and SHA in out,
      f"fetch of an unknown version learns its manifest and downloads verified (rc {rc}): {out}{err}")
check(os.path.isfile(USER2), "the manifest went into the user catalog")
rc, out, err = run("fetch", "9.31.0.1", "--platform", "linux-x86_64", "--cuda", "13", "--mirror", BASE + "/good", env=ENV2)
check(rc == 8 and "could not be read" in err, f"a version with no manifest on the mirror is a clear error (rc {rc}): {err}")

# hostile manifests: each refused, exit 9, the user catalog byte-identical
before = open(USER, "rb").read()
for case, (_, words) in HOSTILE.items():
    label = ["--label", "9.27.0" if case in ("sizemismatch", "contradiction") else "9.30.0"]
    rc, out, err = run("catalog", "update", "--mirror", f"{BASE}/{case}", *label, "--json")
    doc = json.loads(out) if out.strip().startswith("{") else {}
    msg = doc.get("error", {}).get("message", "")
    check(rc == 9 and doc.get("error", {}).get("code") == "catalog.manifest-refused", f"{case}: refused with exit 9 (rc {rc}): {out}{err}")
    check(words in msg, f"{case}: the message says why ('{words}'): {msg}")
    check(open(USER, "rb").read() == before, f"{case}: the user catalog is unchanged")

shutil.rmtree(TMP, ignore_errors=True)
if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print(f"HTTPS mirror: learnt, listed, inspected, installed; {len(HOSTILE)} hostile manifests refused, user catalog unchanged")

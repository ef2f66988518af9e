#!/usr/bin/env python3
"""CTest fetch.https_ca_certificates: cudnnctl fetch from a local HTTPS server on 127.0.0.1 whose certificate
is signed by a throwaway CA made here with openssl.

    https_ca_test.py CUDNNCTL

- SSL_CERT_FILE names the CA: the download works, and -v says which CA file was trusted and why.
- SSL_CERT_FILE unset: the host's bundle (found where the distribution keeps it) does not hold the CA; the
  error names the bundle it checked against and SSL_CERT_FILE.
- SSL_CERT_FILE naming no file: a clear error naming SSL_CERT_FILE, nothing downloaded.
Prints SKIP: without openssl.
"""
import hashlib
import http.server
import json
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import threading

CUDNNCTL = sys.argv[1]
if not shutil.which("openssl"):
    print("SKIP: openssl is not installed")
    sys.exit(0)

TMP = tempfile.mkdtemp(prefix="cudnnctl-https-")
VERSION = "9.30.0.7"
NAME = f"cudnn-linux-x86_64-{VERSION}_cuda13-archive.tar.xz"
REL = f"compute/cudnn/redist/cudnn/linux-x86_64/{NAME}"
WWW = os.path.join(TMP, "www")


def openssl(*args):
    subprocess.run(["openssl", *args], cwd=TMP, check=True, capture_output=True)


def make_site():
    os.makedirs(os.path.dirname(os.path.join(WWW, REL)))
    body = bytes((i * 131 + i // 7) & 0xFF for i in range(200000))
    with open(os.path.join(WWW, REL), "wb") as f:
        f.write(body)
    catalog = {"schema_version": 1, "archives": [{
        "filename": NAME, "version": VERSION, "platform": "linux-x86_64", "cuda_variant": "13",
        "url": f"https://developer.download.nvidia.com/{REL}",
        "hashes": [{"sha256": hashlib.sha256(body).hexdigest(), "size": len(body), "confidence": "A", "sources": ["test"]}]}]}
    with open(os.path.join(TMP, "catalog.json"), "w") as f:
        json.dump(catalog, f)


def start_server():
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=cudnnctl throwaway test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(TMP, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem",
            "-days", "2", "-extfile", "san.ext")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(TMP, "srv.pem"), os.path.join(TMP, "srv.key"))

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=WWW, **kw)

        def log_message(self, *args):
            pass

        def handle(self):
            try:
                super().handle()
            except (ssl.SSLError, ConnectionResetError, BrokenPipeError):
                pass  # the client refused our certificate: expected in the untrusted cases

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"https://127.0.0.1:{server.server_address[1]}"


make_site()
BASE = start_server()
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def fetch(cache, env_changes, *extra):
    env = dict(os.environ)
    env.pop("SSL_CERT_FILE", None)
    env.pop("SSL_CERT_DIR", None)
    env.update(env_changes)
    args = [CUDNNCTL, "fetch", VERSION, "--platform", "linux-x86_64", "--cuda", "13", "--catalog",
            os.path.join(TMP, "catalog.json"), "--mirror", BASE, "--cache", os.path.join(TMP, cache), "--timeout", "10", *extra]
    r = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


CA = os.path.join(TMP, "ca.pem")
rc, out = fetch("trusted", {"SSL_CERT_FILE": CA}, "-v")
check(rc == 0 and os.path.isfile(os.path.join(TMP, "trusted", NAME)), f"fetch with SSL_CERT_FILE=the CA works (rc {rc}): {out}")
check(f"trusting the CA certificates in {CA} (SSL_CERT_FILE)" in out, f"-v names the CA file and SSL_CERT_FILE: {out}")

rc, out = fetch("untrusted", {})
check(rc != 0 and not os.path.exists(os.path.join(TMP, "untrusted", NAME)), f"without the CA the download fails (rc {rc}): {out}")
check("SSL_CERT_FILE" in out and "checked against" in out, f"the error names the bundle checked and SSL_CERT_FILE: {out}")

rc, out = fetch("missing", {"SSL_CERT_FILE": os.path.join(TMP, "no-such-ca.pem")})
check(rc != 0 and not os.path.exists(os.path.join(TMP, "missing", NAME)), f"a missing SSL_CERT_FILE fails (rc {rc}): {out}")
check("SSL_CERT_FILE names" in out and "no-such-ca.pem" in out and "not a file" in out,
      f"the error says SSL_CERT_FILE names no file: {out}")

shutil.rmtree(TMP, ignore_errors=True)
if failures:
    sys.exit(1)
print("https fetch: trusted with SSL_CERT_FILE, refused without it, a missing SSL_CERT_FILE named")

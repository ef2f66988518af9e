#!/usr/bin/env python3
"""CTest fetch.https_ca_certificates: cudnnctl fetch from a local HTTPS server on 127.0.0.1 whose certificate
is signed by a throwaway CA made here with openssl.

    https_ca_test.py CUDNNCTL

- SSL_CERT_FILE names the CA: the download works, and -v says which CA file was trusted and why.
- SSL_CERT_FILE unset: the host's bundle (found where the distribution keeps it) does not hold the CA; the
  error names the bundle it checked against and SSL_CERT_FILE.
- SSL_CERT_FILE naming no file: a clear error naming SSL_CERT_FILE, nothing downloaded.
- A redirect from https down to http (the same file on a plain HTTP server) is refused: exit 18
  (download.redirects), the hop logged at -v, nothing asked from the http server, nothing kept.
Prints SKIP: without openssl.
"""
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from https_site import NAME, VERSION, make_site, start_server  # noqa: E402

CUDNNCTL = sys.argv[1]
if not shutil.which("openssl"):
    print("SKIP: openssl is not installed")
    sys.exit(0)

TMP = tempfile.mkdtemp(prefix="cudnnctl-https-")
WWW = make_site(TMP)
PLAIN_ASKED = []


class Plain(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *a, **kw):
        super().__init__(*a, directory=WWW, **kw)

    def log_message(self, *args):
        pass

    def do_GET(self):
        PLAIN_ASKED.append(self.path)
        super().do_GET()


PLAIN = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Plain)
PLAIN.daemon_threads = True
threading.Thread(target=PLAIN.serve_forever, daemon=True).start()
BASE = start_server(TMP, WWW, downgrade_to=f"http://127.0.0.1:{PLAIN.server_address[1]}")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


def fetch(cache, env_changes, *extra, mirror=BASE):
    env = dict(os.environ)
    env.pop("SSL_CERT_FILE", None)
    env.pop("SSL_CERT_DIR", None)
    env.update(env_changes)
    args = [CUDNNCTL, "fetch", VERSION, "--platform", "linux-x86_64", "--cuda", "13", "--catalog",
            os.path.join(TMP, "catalog.json"), "--mirror", mirror, "--cache", os.path.join(TMP, cache), "--timeout", "10", *extra]
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

rc, out = fetch("downgrade", {"SSL_CERT_FILE": CA}, "-v", mirror=BASE + "/downgrade")
cache = os.path.join(TMP, "downgrade")
check(rc == 18, f"a redirect from https to http is refused with exit 18 (rc {rc}): {out}")
check("was refused: from https only https is followed" in out, f"the error says why: {out}")
check("HTTP 302 redirect 1: to http://127.0.0.1:" in out, f"-v logs the hop: {out}")
check(not PLAIN_ASKED, f"nothing was asked from the http server: {PLAIN_ASKED}")
check(not os.path.exists(cache) or not os.listdir(cache), f"nothing kept in the cache: {os.listdir(cache) if os.path.exists(cache) else ''}")

shutil.rmtree(TMP, ignore_errors=True)
if failures:
    sys.exit(1)
print("https fetch: trusted with SSL_CERT_FILE, refused without it, a missing SSL_CERT_FILE named, a redirect to http refused")

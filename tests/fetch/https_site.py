"""A throwaway CA and an HTTPS server on 127.0.0.1 serving one made-up cuDNN archive, with a catalog naming it:
shared by fetch.https_ca_certificates (tests/fetch/https_ca_test.py) and the portable binary's chroot test
(tests/packaging/portable_chroot_fetch.py). Needs openssl on PATH."""
import hashlib
import http.server
import json
import os
import ssl
import subprocess
import threading

VERSION = "9.30.0.7"
NAME = f"cudnn-linux-x86_64-{VERSION}_cuda13-archive.tar.xz"
REL = f"compute/cudnn/redist/cudnn/linux-x86_64/{NAME}"


def openssl(folder, *args):
    subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)


def make_site(folder, size=200000):
    """Writes folder/www/<REL> and folder/catalog.json; returns the www folder."""
    www = os.path.join(folder, "www")
    os.makedirs(os.path.dirname(os.path.join(www, REL)))
    body = bytes((i * 131 + i // 7) & 0xFF for i in range(size))
    with open(os.path.join(www, REL), "wb") as f:
        f.write(body)
    catalog = {"schema_version": 1, "archives": [{
        "filename": NAME, "version": VERSION, "platform": "linux-x86_64", "cuda_variant": "13",
        "url": f"https://developer.download.nvidia.com/{REL}",
        "hashes": [{"sha256": hashlib.sha256(body).hexdigest(), "size": len(body), "confidence": "A", "sources": ["test"]}]}]}
    with open(os.path.join(folder, "catalog.json"), "w") as f:
        json.dump(catalog, f)
    return www


def start_server(folder, www, downgrade_to=None):
    """Makes folder/ca.pem and a certificate for 127.0.0.1 it signs; serves www over HTTPS; returns the base URL.
    With downgrade_to (an http:// base URL), GET /downgrade/<path> is redirected (302) to downgrade_to/<path>."""
    openssl(folder, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=cudnnctl throwaway test CA")
    openssl(folder, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "srv.key", "-out", "srv.csr", "-subj", "/CN=127.0.0.1")
    with open(os.path.join(folder, "san.ext"), "w") as f:
        f.write("subjectAltName=IP:127.0.0.1\n")
    openssl(folder, "x509", "-req", "-in", "srv.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", "srv.pem",
            "-days", "2", "-extfile", "san.ext")
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(os.path.join(folder, "srv.pem"), os.path.join(folder, "srv.key"))

    class Handler(http.server.SimpleHTTPRequestHandler):
        def __init__(self, *a, **kw):
            super().__init__(*a, directory=www, **kw)

        def log_message(self, *args):
            pass

        def do_GET(self):
            if downgrade_to and self.path.startswith("/downgrade/"):
                self.send_response(302)
                self.send_header("Location", downgrade_to + self.path[len("/downgrade"):])
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            super().do_GET()

        def handle(self):
            try:
                super().handle()
            except (ssl.SSLError, ConnectionResetError, BrokenPipeError):
                pass  # the client refused the certificate: expected where the CA is not trusted

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"https://127.0.0.1:{server.server_address[1]}"

#!/usr/bin/env python3
"""A misbehaving-on-purpose HTTP server for the fetch tests, on 127.0.0.1 only.

    http_server.py ROOT PORT_FILE

GET /<mode>/<path> serves ROOT/<path> in one of these modes:
  ok        ranges honoured (206), like a real server
  truncate  announces the full length, sends half, closes
  wrong     same length, different bytes
  stall     sends the headers and 1000 bytes, then nothing for 60 s
  norange   ignores Range and always sends 200 with the whole file
A missing file is 404. The chosen port is written to PORT_FILE.
"""
import http.server
import os
import sys
import threading
import time

ROOT = sys.argv[1]


class Handler(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_GET(self):
        parts = self.path.lstrip("/").split("/", 1)
        mode, rel = (parts + [""])[:2]
        path = os.path.join(ROOT, rel)
        if not os.path.isfile(path):
            self.send_error(404)
            return
        data = open(path, "rb").read()
        start = 0
        rng = self.headers.get("Range")
        if rng and mode != "norange" and rng.startswith("bytes="):
            start = int(rng[6:].split("-")[0])
        body = data[start:]
        if mode == "wrong":
            body = bytes(b ^ 0xFF for b in body)
        self.send_response(206 if start else 200)
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            if mode == "truncate":
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            if mode == "stall":
                self.wfile.write(body[:1000])
                self.wfile.flush()
                time.sleep(60)
                return
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(f"{server.server_address[1]} {os.getpid()}\n")
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
threading.Thread(target=lambda: (time.sleep(600), os._exit(0)), daemon=True).start()  # never outlive a test run
server.serve_forever()

#!/usr/bin/env python3
"""A misbehaving-on-purpose HTTP server for the fetch tests, on 127.0.0.1 only.

    http_server.py ROOT PORT_FILE

GET /<mode>/<path> serves ROOT/<path> with ETag and Last-Modified; a Range (bytes=a-b or bytes=a-) is
answered 206 with Content-Range, also from byte 0. Modes:
  ok           ranges honoured, like a real server
  truncate     announces the full length of the answer, sends half, closes
  wrong        same length, different bytes
  stall        sends the headers and 1000 bytes, then nothing for 60 s
  norange      ignores Range and always sends 200 with the whole file
  drop         every third answer is cut after half its bytes (a dropped connection); the answer to the
               rest of a cut range (the same last byte) is never cut
  short        answers at most 40000 bytes of a range (a correct, shorter Content-Range)
  long         Content-Range as asked, then 1000 bytes more than it announces
  laterno      the first answer honours Range, every later one is 200 with the whole file
  changeonce   the first answer is another file (other bytes, ETag "a"); later ones the real one
  changealways every answer has another ETag
  slow         sends 10000 bytes every 0.2 s
  crawl        sends 2000 bytes every 0.2 s (a kill lands mid-download even in a small archive)
  redirect     302 to http://localhost:PORT/ok/<path> (another host name for the same server)
  loop         302 to itself, forever (a redirect loop)
  endless      ignores Range; 200 without Content-Length, then zeros until the client goes (at most 256 MiB)
  huge         ignores Range; 200 with Content-Length 10^12, then zeros like endless
  liar         announces a file 1000 bytes longer than the real one (Content-Length, Content-Range's total)
A missing file is 404. The chosen port is written to PORT_FILE; each request is appended to
PORT_FILE.log as "MODE RANGE" (RANGE "-" when none), and each TCP connection accepted as a line of
PORT_FILE.connections (a client that keeps its connections alive makes fewer of these than requests).
"""
import email.utils
import http.server
import os
import sys
import threading
import time

ROOT = sys.argv[1]
LOG = sys.argv[2] + ".log"
COUNTS = {}
CUT_ENDS = set()
LOCK = threading.Lock()


def count(mode):
    with LOCK:
        COUNTS[mode] = COUNTS.get(mode, 0) + 1
        return COUNTS[mode]


def parse_range(value, size):
    if not value or not value.startswith("bytes="):
        return None
    first, _, last = value[6:].partition("-")
    first = int(first)
    last = min(int(last), size - 1) if last else size - 1
    return first, last


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        parts = self.path.lstrip("/").split("/", 1)
        mode, rel = (parts + [""])[:2]
        path = os.path.join(ROOT, rel)
        rng_header = self.headers.get("Range")
        n = count(mode)
        with LOCK, open(LOG, "a") as log:
            log.write(f"{mode} {rng_header or '-'}\n")
        if not os.path.isfile(path):
            self.send_error(404)
            return
        if mode == "loop":
            self.send_response(302)
            self.send_header("Location", f"/loop/{rel}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if mode in ("endless", "huge"):
            self.send_response(200)
            if mode == "huge":
                self.send_header("Content-Length", str(10**12))
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            zeros = bytes(1 << 16)
            try:
                for _ in range(4096):
                    self.wfile.write(zeros)
            except (BrokenPipeError, ConnectionResetError):
                pass
            return
        if mode == "redirect":
            self.send_response(302)
            self.send_header("Location", f"http://localhost:{self.server.server_address[1]}/ok/{rel}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        data = open(path, "rb").read()
        etag = f'"{len(data)}-{int(os.path.getmtime(path))}"'
        if mode == "changeonce" and n == 1:
            data, etag = bytes(b ^ 0x55 for b in data), '"a"'
        if mode == "changealways":
            etag = f'"{n}"'
        rng = None if mode == "norange" or (mode == "laterno" and n > 1) else parse_range(rng_header, len(data))
        first, last = rng if rng else (0, len(data) - 1)
        if mode == "short":
            last = min(last, first + 39999)
        body = data[first:last + 1]
        if mode == "wrong":
            body = bytes(b ^ 0xFF for b in body)
        if mode == "long":
            body = data[first:last + 1001]
        self.send_response(206 if rng else 200)
        extra = 1000 if mode == "liar" else 0
        if rng:
            self.send_header("Content-Range", f"bytes {first}-{last}/{len(data) + extra}")
        self.send_header("Content-Length", str(len(body) + (extra if not rng else 0)))
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", email.utils.formatdate(os.path.getmtime(path), usegmt=True))
        self.end_headers()
        drop = False
        if mode == "drop" and n % 3 == 0:
            with LOCK:
                drop = last not in CUT_ENDS
                CUT_ENDS.add(last)
        try:
            if mode == "truncate" or drop:
                self.wfile.write(body[: len(body) // 2])
                self.wfile.flush()
                self.close_connection = True
                return
            if mode in ("slow", "crawl"):
                step = 10000 if mode == "slow" else 2000
                for at in range(0, len(body), step):
                    self.wfile.write(body[at:at + step])
                    self.wfile.flush()
                    time.sleep(0.2)
                return
            if mode == "stall":
                self.wfile.write(body[:1000])
                self.wfile.flush()
                time.sleep(60)
                return
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = 64  # socketserver's 5 drops SYNs when many connections open at once (1 s retransmits)

    def process_request(self, request, client_address):
        with LOCK, open(sys.argv[2] + ".connections", "a") as log:
            log.write(f"{client_address[1]}\n")
        super().process_request(request, client_address)

    def handle_error(self, request, client_address):
        pass  # a client that closed its connection (an aborted range): not the tests' business


server = Server(("127.0.0.1", 0), Handler)
server.daemon_threads = True
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(f"{server.server_address[1]} {os.getpid()}\n")
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
threading.Thread(target=lambda: (time.sleep(600), os._exit(0)), daemon=True).start()  # never outlive a test run
server.serve_forever()

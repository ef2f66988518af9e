#!/usr/bin/env python3
"""Benchmark: the download is the install. A local HTTP server on 127.0.0.1 serves the realistic Windows
cuDNN zip (tests/fixtures/make_realistic_archives.py) under NVIDIA's paths, and the same files as a
hash-checked wheel (bench/python_peers.py packs it), once with a per-connection rate limit (a far CDN:
--rate, default 40 MB/s per connection) and once without. Compared in one run, each from a cold cache
into a fresh CUDA 13 Windows-layout tree:

  cudnnctl install <version> --mirror http://127.0.0.1:PORT --catalog C   (a catalog with the fixture's hash)
  curl -sS -o FILE URL && cudnnctl install FILE --sha256-file ...
  cudnnctl fetch <version> --mirror ... and aria2c -x8 -s8 URL            (the download alone)
  uv pip install of the wheel from the same server (uv unzips while it downloads)

    bench/download_bench.py [--cudnnctl build/cudnnctl] [--fixtures DIR] [--runs N] [--rate BYTES_PER_S]
                            [--markdown FILE]

Rounds are interleaved. Prints the medians and the ratios against the issue's goals (42): with the limit,
cudnnctl <= 0.5x uv and <= 1.1x aria2c's download alone; without it, cudnnctl <= 1.0x uv. A missing
peer (aria2c, uv) is skipped with a message.
"""
import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from archive_bench import ROOT  # noqa: E402
from install_bench import fresh_tree  # noqa: E402
from python_peers import DIST, build_wheel, find_uv  # noqa: E402

REL = "compute/cudnn/redist/cudnn/windows-x86_64/"

SERVER = r'''
import http.server, os, sys, time
root, port_file, rate = sys.argv[1], sys.argv[2], float(sys.argv[3])
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def do_HEAD(self):
        self.do_GET(body=False)
    def do_GET(self, body=True):
        path = os.path.join(root, self.path.lstrip("/").split("?")[0])
        if not os.path.isfile(path):
            self.send_error(404); return
        size = os.path.getsize(path)
        first, last, code = 0, size - 1, 200
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            a, _, b = rng[6:].partition("-")
            first, last, code = int(a), min(int(b), size - 1) if b else size - 1, 206
        self.send_response(code)
        if code == 206: self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Length", str(last - first + 1))
        self.send_header("ETag", f'"{size}-{int(os.path.getmtime(path))}"')
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if not body: return
        t0, sent, block = time.perf_counter(), 0, 1 << 18
        with open(path, "rb") as f:
            f.seek(first)
            left = last - first + 1
            while left > 0:
                data = f.read(min(block, left))
                try:
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    return
                left -= len(data); sent += len(data)
                if rate > 0:  # this connection's budget: sleep until the bytes sent are due
                    due = sent / rate - (time.perf_counter() - t0)
                    if due > 0: time.sleep(due)
class Server(http.server.ThreadingHTTPServer):
    # socketserver's listen backlog is 5: eight connections opened at once (aria2c -x8, or a client opening
    # one per range) then overflow it now and then, and a dropped SYN costs a 1 s retransmit; a CDN's is large
    request_queue_size = 128
s = Server(("127.0.0.1", 0), H)
s.daemon_threads = True
open(port_file + ".tmp", "w").write(str(s.server_address[1])); os.rename(port_file + ".tmp", port_file)
s.serve_forever()
'''


def start_server(www, tmp, rate):
    port_file = os.path.join(tmp, f"port-{int(rate)}")
    p = subprocess.Popen([sys.executable, "-c", SERVER, www, port_file, str(rate)])
    for _ in range(200):
        if os.path.exists(port_file):
            return p, int(open(port_file).read())
        time.sleep(0.05)
    p.kill()
    raise SystemExit("the bench's HTTP server did not start")


def timed(argv, prepare):
    prepare()
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"command failed ({p.returncode}): {' '.join(argv)}\n{p.stderr.decode(errors='replace')[-2000:]}")
    return wall


def catalog_for(fixture, version, sha, size, out):
    entry = {"filename": fixture, "version": version, "platform": "windows-x86_64", "cuda_variant": "13",
             "url": "https://developer.download.nvidia.com/" + REL + fixture,
             "hashes": [{"sha256": sha, "size": size, "confidence": "A", "sources": ["download_bench fixture"]}]}
    with open(out, "w") as f:
        json.dump({"schema_version": 1, "archives": [entry]}, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudnnctl", default=os.path.join(ROOT, "build", "cudnnctl"))
    ap.add_argument("--fixtures", default=os.path.join(os.path.expanduser("~"), ".cache", "cudnnctl-fixtures"))
    ap.add_argument("--peer-cache", default=os.path.join(os.path.expanduser("~"), ".cache", "cudnnctl-bench"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--rate", type=float, default=40e6, help="bytes per second per connection in the limited pass")
    ap.add_argument("--markdown")
    args = ap.parse_args()
    made = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fixtures", "make_realistic_archives.py"), args.fixtures])
    if made.returncode == 77:
        print("skipped: no cuDNN on this machine to build the realistic archives from")
        return 0
    made.check_returncode()
    fixture = next(f for f in sorted(os.listdir(args.fixtures)) if f.endswith(".zip"))
    z = os.path.join(args.fixtures, fixture)
    top = fixture[: -len(".zip")]
    version = top.rsplit("-", 2)[-2].split("_")[0]
    sha = hashlib.sha256(open(z, "rb").read()).hexdigest()
    size = os.path.getsize(z)
    ours = os.path.abspath(args.cudnnctl)
    tmp = tempfile.mkdtemp(prefix="cudnnctl-download-bench-")
    www = os.path.join(tmp, "www")
    os.makedirs(os.path.join(www, REL))
    os.link(z, os.path.join(www, REL, fixture)) if os.stat(z).st_dev == os.stat(tmp).st_dev else shutil.copy(z, os.path.join(www, REL, fixture))
    os.makedirs(args.peer_cache, exist_ok=True)
    wheel = build_wheel(z, top, version, args.peer_cache)
    shutil.copy(wheel, os.path.join(www, os.path.basename(wheel)))
    wheel_sha = hashlib.sha256(open(wheel, "rb").read()).hexdigest()
    catalog = os.path.join(tmp, "catalog.json")
    catalog_for(fixture, version, sha, size, catalog)
    tree, cache, dl, venv = (os.path.join(tmp, d) for d in ("tree", "cache", "dl", "venv"))
    uv, why = find_uv(args.peer_cache)
    if not uv:
        print(f"skipped: uv rows ({why})")
    aria = shutil.which("aria2c")
    if not aria:
        print("skipped: aria2c rows (apt install aria2)")

    def fresh():
        fresh_tree(tree)
        for d in (cache, dl):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        os.sync()

    def fresh_venv():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True)
        os.sync()

    results = {}
    servers = []
    try:
        for label, rate in (("limited", args.rate), ("unlimited", 0.0)):
            server, port = start_server(www, tmp, rate)
            servers.append(server)
            base = f"http://127.0.0.1:{port}"
            url = f"{base}/{REL}{fixture}"
            req = os.path.join(tmp, f"req-{label}.txt")
            with open(req, "w") as f:
                f.write(f"{DIST.replace('_', '-')} @ {base}/{os.path.basename(wheel)} --hash=sha256:{wheel_sha}\n")
            cmds = {
                "ours": ("cudnnctl install VERSION --mirror", [ours, "install", version, "--mirror", base, "--catalog", catalog,
                                                                "--cuda-path", tree, "--cache", cache], fresh),
                "curl": ("curl -O && cudnnctl install FILE", ["sh", "-c", f"curl -sSf -o '{dl}/{fixture}' '{url}' && '{ours}' install "
                                                                         f"'{dl}/{fixture}' --sha256 {sha} --cuda-path '{tree}'"], fresh),
            }
            cmds["fetch"] = ("cudnnctl fetch VERSION --mirror (download alone)",
                             [ours, "fetch", version, "--platform", "windows-x86_64", "--cuda", "13", "--mirror", base,
                              "--catalog", catalog, "--cache", cache], fresh)
            if aria:
                cmds["aria2c"] = ("aria2c -x8 -s8 (download alone)", [aria, "-q", "-x8", "-s8", "-k1M", "--allow-overwrite=true",
                                                                      "-d", dl, "-o", fixture, url], fresh)
            if uv:
                cmds["uv"] = ("uv pip install wheel from the server (--require-hashes, no cache)",
                              [uv, "pip", "install", "--python", os.path.join(venv, "bin", "python"), "--no-cache", "--no-deps",
                               "--require-hashes", "-r", req, "-q"], fresh_venv)
            runs = {k: [] for k in cmds}
            keys = list(cmds)
            print(f"{label} ({'%.0f MB/s per connection' % (rate / 1e6) if rate else 'no limit'}): {fixture}, {size} bytes")
            for rnd in range(args.runs):
                order = keys[rnd % len(keys):] + keys[: rnd % len(keys)]
                for k in order:
                    runs[k].append(timed(cmds[k][1], cmds[k][2]))
                print(f"  round {rnd + 1}/{args.runs}: " + "  ".join(f"{k} {runs[k][-1]:.3f} s" for k in keys), flush=True)
            results[label] = {k: (cmds[k][0], statistics.median(v), min(v)) for k, v in runs.items()}
    finally:
        for s in servers:
            s.kill()
        shutil.rmtree(tmp, ignore_errors=True)

    goals = {("limited", "uv"): 0.5, ("limited", "aria2c"): 1.1, ("unlimited", "uv"): 1.0}
    lines = []
    print()
    for label, rows in results.items():
        for k, (name, med, mn) in rows.items():
            print(f"  {label:<9} {name:<66} median {med:7.3f} s  min {mn:7.3f} s")
            lines.append(f"| {label} | {name} | {med:.3f} | {mn:.3f} |")
    ratio_lines = []
    print("\nratios (cudnnctl install VERSION --mirror / peer, medians):")
    for label, rows in results.items():
        for peer in ("uv", "aria2c", "curl"):
            if peer in rows:
                value = rows["ours"][1] / rows[peer][1]
                goal = goals.get((label, peer))
                verdict = "" if goal is None else (f"<= {goal}: met" if value <= goal else f"<= {goal}: NOT MET")
                print(f"  {label:<9} / {rows[peer][0]:<66} {value:6.2f}  {verdict}")
                ratio_lines.append(f"| {label} | cudnnctl / {rows[peer][0]} | {value:.2f} | {verdict} |")
    print("\nthe download alone (cudnnctl fetch / aria2c -x8, medians):")
    for label, rows in results.items():
        if "aria2c" in rows:
            value = rows["fetch"][1] / rows["aria2c"][1]
            print(f"  {label:<9} {value:6.2f}")
            ratio_lines.append(f"| {label} | cudnnctl fetch / {rows['aria2c'][0]} | {value:.2f} | |")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(f"{args.runs} interleaved rounds, {fixture} ({size} bytes), limit {args.rate / 1e6:.0f} MB/s per connection.\n\n")
            f.write("| pass | command | median s | min s |\n| --- | --- | --- | --- |\n" + "\n".join(lines) + "\n\n")
            f.write("| pass | ratio | value | goal |\n| --- | --- | --- | --- |\n" + "\n".join(ratio_lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

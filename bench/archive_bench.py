#!/usr/bin/env python3
"""Benchmark: cudnnctl verify/extract against sha256sum, openssl, unzip, 7z, bsdtar, tar and xz.

    bench/archive_bench.py [--cudnnctl build/cudnnctl] [--fixtures DIR] [--runs N] [--markdown FILE]

Builds the realistic archives with tests/fixtures/make_realistic_archives.py (this machine's cuDNN in
NVIDIA's layouts; kept in --fixtures, default build/fixtures/realistic, the folder the tests use, and
rebuilt only when their inputs change), runs every command in the same session (one warm-up, then N
timed runs; the page cache is warm), and prints min and median
wall time, peak RSS, and the ratios our targets are stated in. Needs p7zip-full, libarchive-tools.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run_once(cmd, out_dir, prepare=None):
    if prepare:
        prepare()
    if out_dir:
        shutil.rmtree(out_dir, ignore_errors=True)
        if "--to" not in cmd:
            os.makedirs(out_dir)
    # GNU time reports the peak RSS of the command (and of what it waits for), not of this Python
    rss_file = os.path.join(tempfile.gettempdir(), f"cudnnctl-bench-rss-{os.getpid()}")
    argv = ["/usr/bin/time", "-f", "%M", "-o", rss_file] + (["sh", "-c", cmd] if isinstance(cmd, str) else cmd)
    t0 = time.perf_counter()
    p = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        raise SystemExit(f"command failed ({p.returncode}): {cmd}\n{p.stderr.decode(errors='replace')}")
    with open(rss_file) as f:
        rss = int(f.read().split()[-1])
    return dt, rss  # KiB


def measure(name, cmd, out_dir, runs, prepare=None):
    run_once(cmd, out_dir, prepare)  # warm-up
    times, rss = [], 0
    for _ in range(runs):
        dt, r = run_once(cmd, out_dir, prepare)
        times.append(dt)
        rss = max(rss, r)
    if out_dir:
        shutil.rmtree(out_dir, ignore_errors=True)
    row = {"name": name, "min": min(times), "median": statistics.median(times), "rss_mib": rss / 1024}
    print(f"  {name:<44} min {row['min']:6.3f} s   median {row['median']:6.3f} s   peak RSS {row['rss_mib']:7.1f} MiB", flush=True)
    return row


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudnnctl", default=os.path.join(ROOT, "build", "cudnnctl"))
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "build", "fixtures", "realistic"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--markdown")
    args = ap.parse_args()
    for tool in ("sha256sum", "openssl", "unzip", "7z", "bsdtar", "tar", "xz", "/usr/bin/time"):
        if not shutil.which(tool):
            raise SystemExit(f"missing tool: {tool} (apt-get install p7zip-full libarchive-tools unzip xz-utils time)")
    make = subprocess.run([sys.executable, os.path.join(ROOT, "tests", "fixtures", "make_realistic_archives.py"), args.fixtures],
                          stdout=subprocess.PIPE, text=True)
    if make.returncode != 0:
        raise SystemExit(f"{make.stdout}no realistic archives to measure (make_realistic_archives.py exited {make.returncode})")
    with open(os.path.join(args.fixtures, "fixtures.json")) as f:
        made = json.load(f)
    z = os.path.join(args.fixtures, made["windows"]["file"])
    x = os.path.join(args.fixtures, made["linux"]["file"])
    zh = open(z + ".sha256").read().split()[0]
    xh = open(x + ".sha256").read().split()[0]
    ours = os.path.abspath(args.cudnnctl)
    only = os.path.join(os.path.dirname(ours), "bench", "cudnnctl_extract_only")
    tmp = tempfile.mkdtemp(prefix="cudnnctl-bench-")
    d = os.path.join(tmp, "out")
    r = {}
    try:
        print(f"zip: {z} ({os.path.getsize(z)} bytes)")
        r["sha256sum"] = measure("sha256sum", ["sha256sum", z], None, args.runs)
        r["openssl"] = measure("openssl dgst -sha256", ["openssl", "dgst", "-sha256", z], None, args.runs)
        r["verify"] = measure("cudnnctl verify --sha256", [ours, "verify", z, "--sha256", zh], None, args.runs)
        r["unzip"] = measure("unzip -q", f"unzip -q '{z}' -d '{d}'", d, args.runs)
        r["7z"] = measure("7z x", f"7z x -y -bso0 -bsp0 -o'{d}' '{z}'", d, args.runs)
        r["bsdtar"] = measure("bsdtar -xf", f"bsdtar -xf '{z}' -C '{d}'", d, args.runs)
        r["openssl+bsdtar"] = measure("openssl dgst -sha256 && bsdtar -xf", f"openssl dgst -sha256 '{z}' >/dev/null && bsdtar -xf '{z}' -C '{d}'", d, args.runs)
        r["extract-only"] = measure("cudnnctl engine: extract alone (no hash)", [only, z, d], d, args.runs)
        r["extract"] = measure("cudnnctl extract --sha256 (verify+extract)", [ours, "extract", z, "--sha256", zh, "--to", d], d, args.runs)
        print(f"tar.xz: {x} ({os.path.getsize(x)} bytes)")
        xr = max(2, args.runs // 2)
        r["xz"] = measure("xz -dc > /dev/null", f"xz -dc '{x}' > /dev/null", None, xr)
        r["tarxj"] = measure("tar -xJf", f"tar -xJf '{x}' -C '{d}'", d, xr)
        r["bsdtar-xz"] = measure("bsdtar -xf", f"bsdtar -xf '{x}' -C '{d}'", d, xr)
        r["extract-xz-only"] = measure("cudnnctl engine: extract alone (no hash)", [only, x, d], d, xr)
        r["extract-xz"] = measure("cudnnctl extract --sha256", [ours, "extract", x, "--sha256", xh, "--to", d], d, xr)
        r["extract-xz-t2"] = measure("cudnnctl extract --sha256 --threads 2", [ours, "extract", x, "--sha256", xh, "--to", d, "--threads", "2"], d, xr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    m = lambda k: r[k]["median"]
    checks = [
        ("hashing speed vs openssl dgst (>= 0.95x)", m("openssl") / m("verify"), ">=", 0.95),
        ("zip extraction speed-up vs bsdtar -xf (>= 1.6x)", m("bsdtar") / m("extract-only"), ">=", 1.6),
        ("zip verify+extract speed-up vs bsdtar -xf alone", m("bsdtar") / m("extract"), "", 0),
        ("verify+extract time / (openssl dgst then bsdtar -xf) (<= 0.6)", m("extract") / m("openssl+bsdtar"), "<=", 0.6),
        ("tar.xz extract (verify+extract) time / xz -dc alone (<= 1.1)", m("extract-xz") / m("xz"), "<=", 1.1),
        ("tar.xz extraction alone time / xz -dc alone", m("extract-xz-only") / m("xz"), "", 0),
        ("tar.xz extract --threads 2 time / xz -dc alone", m("extract-xz-t2") / m("xz"), "", 0),
        ("peak RSS of zip verify+extract, MiB (<= 64)", r["extract"]["rss_mib"], "<=", 64),
        ("peak RSS of tar.xz extract, MiB (<= 64)", r["extract-xz"]["rss_mib"], "<=", 64),
        ("peak RSS of tar.xz extract --threads 2, MiB", r["extract-xz-t2"]["rss_mib"], "", 0),
        ("unzip -q time / cudnnctl verify+extract", m("unzip") / m("extract"), "", 0),
        ("7z x time / cudnnctl verify+extract", m("7z") / m("extract"), "", 0),
    ]
    print("\nratios (medians):")
    lines = []
    for label, value, op, target in checks:
        verdict = "" if not op else ("met" if (value >= target if op == ">=" else value <= target) else "NOT MET")
        print(f"  {label:<66} {value:7.2f}  {verdict}")
        lines.append(f"| {label} | {value:.2f} | {verdict} |")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| command | min s | median s | peak RSS MiB |\n| --- | --- | --- | --- |\n")
            for row in r.values():
                f.write(f"| {row['name']} | {row['min']:.3f} | {row['median']:.3f} | {row['rss_mib']:.1f} |\n")
            f.write("\n| ratio | value | target |\n| --- | --- | --- |\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Benchmark: `cudnnctl install` of the realistic Windows zip into a CUDA 13 Windows-layout toolkit tree,
against what people type by hand, in the same session:

  openssl dgst -sha256 ZIP && bsdtar -xf ZIP -C S && cp -r S/.../bin/x64/* S/.../include/* S/.../lib/x64/* into the tree
  sha256sum ZIP && unzip -q ZIP -d S && cp -r ...

    bench/install_bench.py [--cudnnctl build/cudnnctl] [--fixtures DIR] [--runs N] [--markdown FILE]

Each run starts from a fresh toolkit tree (made before the clock starts). Prints min/median and ratios.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from archive_bench import ROOT, measure  # noqa: E402


def fresh_tree(root):
    shutil.rmtree(root, ignore_errors=True)
    for d in ("bin/x64", "include", "lib/x64"):
        os.makedirs(os.path.join(root, d))
    with open(os.path.join(root, "version.json"), "w") as f:
        f.write('{"cuda": {"name": "CUDA SDK", "version": "13.0.2"}}')
    for name in ("bin/x64/cudart64_13.dll", "bin/nvcc.exe", "include/cuda.h"):
        with open(os.path.join(root, name), "w") as f:
            f.write("x")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudnnctl", default=os.path.join(ROOT, "build", "cudnnctl"))
    ap.add_argument("--fixtures", default=os.path.join(os.path.expanduser("~"), ".cache", "cudnnctl-fixtures"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--markdown")
    args = ap.parse_args()
    subprocess.run(["bash", os.path.join(ROOT, "..", "shared", "bench", "make-fixtures.sh"), args.fixtures], check=True,
                   stdout=subprocess.DEVNULL)
    z = [os.path.join(args.fixtures, f) for f in os.listdir(args.fixtures) if f.endswith(".zip")][0]
    top = os.path.basename(z)[: -len(".zip")]
    ours = os.path.abspath(args.cudnnctl)
    tmp = tempfile.mkdtemp(prefix="cudnnctl-install-bench-")
    tree = os.path.join(tmp, "win-v13.0")
    stage = os.path.join(tmp, "stage")
    place = (f"cp -r '{stage}/{top}/bin/x64/.' '{tree}/bin/x64/' && cp -r '{stage}/{top}/include/.' '{tree}/include/' && "
             f"cp -r '{stage}/{top}/lib/x64/.' '{tree}/lib/x64/'")

    def prepare():
        fresh_tree(tree)
        shutil.rmtree(stage, ignore_errors=True)
        os.makedirs(stage)

    r = {}
    try:
        print(f"install {z} ({os.path.getsize(z)} bytes) into a CUDA 13 Windows-layout tree")
        r["ours"] = measure("cudnnctl install (verify+extract+place+receipt)",
                            [ours, "install", z, "--sha256-file", z + ".sha256", "--cuda-path", tree], None, args.runs, prepare)
        r["fast"] = measure("openssl dgst -sha256 && bsdtar -xf && cp -r",
                            f"openssl dgst -sha256 '{z}' >/dev/null && bsdtar -xf '{z}' -C '{stage}' && {place}", None, args.runs, prepare)
        r["usual"] = measure("sha256sum && unzip -q && cp -r",
                             f"sha256sum '{z}' >/dev/null && unzip -q '{z}' -d '{stage}' && {place}", None, args.runs, prepare)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    m = lambda k: r[k]["median"]
    rows = [("cudnnctl install time / (openssl && bsdtar && cp -r) (<= 0.6)", m("ours") / m("fast"), 0.6),
            ("same, fastest run of each (min / min) (<= 0.6)", r["ours"]["min"] / r["fast"]["min"], 0.6),
            ("cudnnctl install time / (sha256sum && unzip && cp -r)", m("ours") / m("usual"), None)]
    print("\nratios (medians unless said):")
    lines = []
    for label, value, target in rows:
        verdict = "" if target is None else ("met" if value <= target else "NOT MET")
        print(f"  {label:<66} {value:6.2f}  {verdict}")
        lines.append(f"| {label} | {value:.2f} | {verdict} |")
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| command | min s | median s | peak RSS MiB |\n| --- | --- | --- | --- |\n")
            for row in r.values():
                f.write(f"| {row['name']} | {row['min']:.3f} | {row['median']:.3f} | {row['rss_mib']:.1f} |\n")
            f.write("\n| ratio | value | target |\n| --- | --- | --- |\n" + "\n".join(lines) + "\n")


if __name__ == "__main__":
    sys.exit(main())

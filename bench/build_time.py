#!/usr/bin/env python3
"""Build time from scratch, as scripts/quickstart.sh runs it: a fresh build folder, ccache off, cudnnctl
without the tests (--tests: with them), then the slowest units from .ninja_log and the totals.

    bench/build_time.py [--build-dir DIR] [--jobs N] [--tests] [--top N] [--keep]

Prints the wall time of the configure and of the build, the sum of per-unit times from .ninja_log (CPU
time spent compiling and linking, when the machine is not oversubscribed) and that sum over the jobs (the
wall time an otherwise idle machine with that many cores would take), and the load average before and
after: on a shared machine the wall time is noisy, the per-unit sum less so.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ninja_log_units(build_dir):
    """{output: seconds} of the last build recorded in .ninja_log (v5: start, end, mtime, output, hash)."""
    units = {}
    with open(os.path.join(build_dir, ".ninja_log")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            start, end, _, output, _ = line.rstrip("\n").split("\t")
            units[output] = (int(end) - int(start)) / 1000
    return units


def children_cpu():
    r = os.times()
    return r.children_user + r.children_system


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-time"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--tests", action="store_true", help="build the test suite too (scripts/test.sh's build)")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--keep", action="store_true", help="keep the build folder")
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    shutil.rmtree(build, ignore_errors=True)
    env = dict(os.environ, CCACHE_DISABLE="1")
    load_before = os.getloadavg()
    cpu0, t0 = children_cpu(), time.perf_counter()
    subprocess.run(["cmake", "-S", ROOT, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    "-DCUDNNCTL_WERROR=ON", f"-DCUDNNCTL_TESTS={'ON' if args.tests else 'OFF'}",
                    "-DCMAKE_CXX_COMPILER_LAUNCHER=", "-DCMAKE_C_COMPILER_LAUNCHER="],
                   env=env, check=True, stdout=subprocess.DEVNULL)
    t1 = time.perf_counter()
    subprocess.run(["cmake", "--build", build, "-j", str(args.jobs)], env=env, check=True, stdout=subprocess.DEVNULL)
    t2, cpu1 = time.perf_counter(), children_cpu()
    load_after = os.getloadavg()

    units = ninja_log_units(build)
    total = sum(units.values())
    print(f"{len(units)} build steps, slowest {args.top}:")
    for out, sec in sorted(units.items(), key=lambda x: -x[1])[: args.top]:
        print(f"  {sec:7.2f} s  {out}")
    print(f"\nconfigure {t1 - t0:.1f} s, build {t2 - t1:.1f} s wall with -j{args.jobs} "
          f"({(t2 - t0) / 60:.1f} min in all)")
    print(f"sum of per-unit times {total:.1f} s = {total / args.jobs:.1f} s over {args.jobs} jobs "
          f"({total / args.jobs / 60:.2f} min); CPU time of the compilers {cpu1 - cpu0:.1f} s")
    print(f"load average (1 min) before {load_before[0]:.2f}, after {load_after[0]:.2f} on {os.cpu_count()} CPUs")
    if not args.keep:
        shutil.rmtree(build, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

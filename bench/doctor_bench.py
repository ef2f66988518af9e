#!/usr/bin/env python3
"""Benchmark: `cudnnctl doctor` on this machine's real toolkit, against what people run by hand to look at a
cuDNN set-up (`ldd` on the cuDNN libraries, `ldconfig -p | grep cudnn`), in the same session. Target: doctor
under 0.5 s. Prints min/median and ratios.

    bench/doctor_bench.py [--cudnnctl build/cudnnctl] [--cuda-path /usr/local/cuda] [--runs N]
"""
import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from archive_bench import ROOT, measure  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudnnctl", default=os.path.join(ROOT, "build", "cudnnctl"))
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    ours = os.path.abspath(args.cudnnctl)
    libs = " ".join(sorted(glob.glob(os.path.join(args.cuda_path, "lib64", "libcudnn*.so.[0-9]"))))
    r = {
        "doctor": measure("cudnnctl doctor (layers 1-5)", f"'{ours}' doctor --cuda-path '{args.cuda_path}' >/dev/null; true", None, args.runs),
        "ldd": measure("ldd on every cuDNN library", f"ldd {libs} >/dev/null", None, args.runs),
        "ldconfig": measure("ldconfig -p | grep cudnn", "ldconfig -p | grep cudnn >/dev/null", None, args.runs),
    }
    m = lambda k: r[k]["median"]
    print("\nratios (medians):")
    print(f"  cudnnctl doctor median (<= 0.5 s)                 {m('doctor'):6.3f} s  {'met' if m('doctor') <= 0.5 else 'NOT MET'}")
    print(f"  doctor time / ldd on every cuDNN library          {m('doctor') / m('ldd'):6.2f}")
    print(f"  doctor time / ldconfig -p | grep cudnn            {m('doctor') / m('ldconfig'):6.2f}")


if __name__ == "__main__":
    sys.exit(main())

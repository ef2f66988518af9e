#!/usr/bin/env python3
"""Benchmark: `cudnnctl doctor` on this machine's real toolkit, against what people run by hand to look at a
cuDNN set-up (`ldd` on the cuDNN libraries, `ldconfig -p | grep cudnn`), in the same session. Target: doctor
under 0.5 s. Prints min/median and ratios.

Then `doctor --no-gpu` and `bundle list` on a machine with pyenv shims on PATH: the bench makes a pyenv root
(shims/python3 and shims/python are shell scripts that sleep 0.3 s, as a pyenv shim costs here, then run
the real interpreter; versions/<v> links to this Python's prefix; `version` names it) and puts its shims
first on PATH. Goals (issue 42): doctor --no-gpu <= 0.10 s (round 3: 0.059 s), bundle list <= 0.15 s.
--baseline names another build (e.g. main's) to measure in the same rounds.

    bench/doctor_bench.py [--cudnnctl build/cudnnctl] [--baseline OTHER/cudnnctl] [--cuda-path /usr/local/cuda] [--runs N]
"""
import argparse
import glob
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from archive_bench import ROOT, measure  # noqa: E402


ROUND3_DOCTOR_NO_GPU = 0.059  # seconds, bench/RESULTS.md of round 3


def measure_cpu(name, cmd, runs):
    """Like archive_bench.measure, with the CPU seconds (user + system, children included) of each run:
    on a shared machine the CPU time is what the load does not change."""
    stats = os.path.join(tempfile.gettempdir(), f"cudnnctl-doctor-bench-{os.getpid()}")
    walls, cpus = [], []
    for i in range(runs + 1):  # the first is a warm-up
        t0 = time.perf_counter()
        subprocess.run(["/usr/bin/time", "-f", "%U %S", "-o", stats, "sh", "-c", cmd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall = time.perf_counter() - t0
        with open(stats) as f:
            user, sys_ = f.read().split()[-2:]
        if i:
            walls.append(wall)
            cpus.append(float(user) + float(sys_))
    os.remove(stats)
    row = {"name": name, "min": min(walls), "median": statistics.median(walls), "cpu": statistics.median(cpus)}
    print(f"  {name:<44} min {row['min']:6.3f} s   median {row['median']:6.3f} s   CPU {row['cpu']:6.3f} s", flush=True)
    return row


def make_pyenv_shims(root):
    """A pyenv root whose shims cost 0.3 s each before they run this machine's real Python."""
    prefix = os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))
    version = f"{sys.version_info.major}.{sys.version_info.minor}.{sys.version_info.micro}"
    os.makedirs(os.path.join(root, "shims"))
    os.makedirs(os.path.join(root, "versions"))
    os.symlink(prefix, os.path.join(root, "versions", version))
    with open(os.path.join(root, "version"), "w") as f:
        f.write(version + "\n")
    for name in ("python3", "python"):
        shim = os.path.join(root, "shims", name)
        with open(shim, "w") as f:
            # what a pyenv shim is (a bash script that runs pyenv exec), with pyenv's own cost as a sleep
            f.write(f'#!/usr/bin/env bash\n# pyenv shim (bench)\nexport PYENV_ROOT="{root}"\nsleep 0.3\n'
                    f'exec "{root}/versions/{version}/bin/{name}" "$@"\n')
        os.chmod(shim, 0o755)
    return os.path.join(root, "shims"), prefix


def shim_rounds(binaries, cuda_path, runs):
    root = tempfile.mkdtemp(prefix="cudnnctl-pyenv-bench-")
    try:
        shims, prefix = make_pyenv_shims(os.path.join(root, "pyenv"))
        env = f"env -u VIRTUAL_ENV -u CONDA_PREFIX PATH='{shims}':\"$PATH\" XDG_STATE_HOME='{root}/state'"
        print(f"\npyenv shims (0.3 s each) at {shims} on PATH, running {prefix}:")
        r = {"shim": measure_cpu("python3 -c pass through the shim", f"{env} python3 -c pass", runs)}
        for tag, exe in binaries:
            r[f"doctor {tag}"] = measure_cpu(f"doctor --no-gpu ({tag})", f"{env} '{exe}' doctor --no-gpu --cuda-path '{cuda_path}' >/dev/null; true", runs)
            r[f"list {tag}"] = measure_cpu(f"bundle list ({tag})", f"{env} '{exe}' bundle list >/dev/null", runs)
        return r
    finally:
        shutil.rmtree(root, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cudnnctl", default=os.path.join(ROOT, "build", "cudnnctl"))
    ap.add_argument("--cuda-path", default="/usr/local/cuda")
    ap.add_argument("--baseline", help="another cudnnctl to measure beside it (with pyenv shims)")
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

    binaries = [("this build", ours)] + ([("baseline", os.path.abspath(args.baseline))] if args.baseline else [])
    s = shim_rounds(binaries, args.cuda_path, args.runs)
    d, l = s["doctor this build"]["median"], s["list this build"]["median"]
    print("\nratios with pyenv shims on PATH (medians):")
    print(f"  doctor --no-gpu (<= 0.10 s)                       {d:6.3f} s  {'met' if d <= 0.10 else 'NOT MET'}")
    print(f"  doctor --no-gpu / round 3's 0.059 s               {d / ROUND3_DOCTOR_NO_GPU:6.2f}")
    print(f"  bundle list (<= 0.15 s)                           {l:6.3f} s  {'met' if l <= 0.15 else 'NOT MET'}")
    dc, lc = s["doctor this build"]["cpu"], s["list this build"]["cpu"]
    print(f"  CPU seconds: doctor --no-gpu {dc:.3f} (its probe child included), bundle list {lc:.3f}: the wall time "
          f"of a machine with a free core for each")
    if args.baseline:
        print(f"  doctor --no-gpu / baseline's                      {d / s['doctor baseline']['median']:6.2f}")
        print(f"  bundle list / baseline's                          {l / s['list baseline']['median']:6.2f}")


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""cudnnctl gpu-code against NVIDIA's cuobjdump --list-elf / --list-ptx, entry by entry, in file order.

  cuobjdump_agreement.py CUDNNCTL cudnn DIR        the real cuDNN libraries of a toolkit (libcudnn*.so.N in DIR)
  cuobjdump_agreement.py CUDNNCTL nvcc WORKDIR     libraries built here with nvcc for chosen -gencode sets

cuobjdump comes from $CUDNNCTL_CUOBJDUMP or the cache tests/loader/fetch_cuobjdump.sh fills; without it
the test prints SKIP, unless CUDNNCTL_REQUIRE_CUOBJDUMP=1 (CI), where it fails; without nvcc or the libraries
it prints SKIP.
cuobjdump names an entry sm_XY or sm_XYa (it prints no `f`: sm_100f reads sm_100), so our names are
compared with the `f` dropped; the `f` itself is checked on the nvcc builds, where we know what was asked.
"""
import json
import os
import re
import shutil
import subprocess
import sys

NVCC = os.environ.get("CUDNNCTL_NVCC", "/usr/local/cuda/bin/nvcc")
KERNEL = r"""
__global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }
extern "C" void launch(float* x) { scale<<<1, 32>>>(x, 2.0f); }
"""
# name -> (nvcc options, SASS we expect ours to read, PTX we expect, compression: True all, False none, None either)
BUILDS = {
    "sass_only": (["-gencode", "arch=compute_75,code=sm_75", "-gencode", "arch=compute_80,code=sm_80",
                   "-gencode", "arch=compute_86,code=sm_86", "-gencode", "arch=compute_90,code=sm_90"],
                  ["sm_75", "sm_80", "sm_86", "sm_90"], [], None),
    "ptx_only": (["-gencode", "arch=compute_80,code=compute_80"], [], ["compute_80"], None),
    "both_compressed": (["-Xfatbin", "-compress-all", "-gencode", "arch=compute_90a,code=sm_90a",
                         "-gencode", "arch=compute_100f,code=sm_100f", "-gencode", "arch=compute_120a,code=[sm_120a,compute_120a]",
                         "-gencode", "arch=compute_121,code=[sm_121,compute_121]"],
                        ["sm_90a", "sm_100f", "sm_120a", "sm_121"], ["compute_120a", "compute_121"], True),
    "both_uncompressed": (["--no-compress", "-gencode", "arch=compute_75,code=[sm_75,compute_75]",
                           "-gencode", "arch=compute_103a,code=sm_103a", "-gencode", "arch=compute_120f,code=sm_120f"],
                          ["sm_75", "sm_103a", "sm_120f"], ["compute_75"], False),
}


def skip(why, required=False):
    if required and os.environ.get("CUDNNCTL_REQUIRE_CUOBJDUMP") == "1":
        sys.exit("FAIL (CUDNNCTL_REQUIRE_CUOBJDUMP=1): " + why)
    print("SKIP: " + why)
    sys.exit(0)


def find_cuobjdump():
    given = os.environ.get("CUDNNCTL_CUOBJDUMP")
    if given:
        return given if os.access(given, os.X_OK) else None
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(cache, "cudnnctl", "tools", "cuobjdump", "cuobjdump")
    return path if os.access(path, os.X_OK) else None


def cuobjdump_list(cuobjdump, what, lib):
    """The architectures cuobjdump lists, in order ("sm_90a"), for --list-elf or --list-ptx."""
    r = subprocess.run([cuobjdump, "--list-" + what, lib], capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    suffix = "cubin" if what == "elf" else "ptx"
    archs = re.findall(r"^(?:ELF|PTX) file\s+\d+: .*\.(sm_\d+[a-z]?)\." + suffix + "$", out, re.M)
    if r.returncode != 0 and not archs and "does not contain device code" not in out and "No " not in out:
        raise SystemExit("cuobjdump failed on %s: %s" % (lib, out))
    return archs


def ours(cudnnctl, lib):
    r = subprocess.run([cudnnctl, "gpu-code", "--json", lib], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        raise SystemExit("cudnnctl gpu-code failed on %s (exit %d): %s%s" % (lib, r.returncode, r.stdout, r.stderr))
    return json.loads(r.stdout)["libraries"][0]


def as_cuobjdump_names(entries, kind):
    names = []
    for e in entries:
        if e["kind"] != kind:
            continue
        arch = e["arch"].replace("compute_", "sm_")
        names.append(arch[:-1] if arch.endswith("f") else arch)
    return names


def compare(cuobjdump, cudnnctl, lib):
    got = ours(cudnnctl, lib)
    failures = []
    for what, kind in (("elf", "sass"), ("ptx", "ptx")):
        theirs = cuobjdump_list(cuobjdump, what, lib)
        mine = as_cuobjdump_names(got["entries"], kind)
        if theirs != mine:
            failures.append("%s --list-%s: cuobjdump %d entries %s..., cudnnctl %d entries %s..." %
                            (lib, what, len(theirs), theirs[:12], len(mine), mine[:12]))
        else:
            print("agree: %s --list-%s: %d entries (%s)" % (os.path.basename(lib), what, len(mine), " ".join(sorted(set(mine)))))
    return got, failures


def run_cudnn(cuobjdump, cudnnctl, folder):
    libs = sorted(os.path.join(folder, n) for n in os.listdir(folder) if re.fullmatch(r"libcudnn(_[a-z_]+)?\.so\.\d+", n))
    if len(libs) < 8:
        skip("fewer than eight cuDNN libraries in %s (%d)" % (folder, len(libs)))
    failures = []
    with_code = 0
    for lib in libs:
        got, f = compare(cuobjdump, cudnnctl, lib)
        failures += f
        with_code += 1 if got["entries"] else 0
    if with_code < 5:
        failures.append("only %d of the %d libraries carry GPU code" % (with_code, len(libs)))
    return failures, len(libs)


def run_nvcc(cuobjdump, cudnnctl, workdir):
    if not os.access(NVCC, os.X_OK):
        skip("no nvcc at " + NVCC)
    os.makedirs(workdir, exist_ok=True)
    source = os.path.join(workdir, "scale.cu")
    with open(source, "w") as f:
        f.write(KERNEL)
    failures = []
    for name, (options, sass, ptx, compressed) in BUILDS.items():
        lib = os.path.join(workdir, "lib%s.so" % name)
        r = subprocess.run([NVCC, "-shared", "-Xcompiler", "-fPIC", "-o", lib, source] + options,
                           capture_output=True, text=True, timeout=600)
        if r.returncode != 0:
            failures.append("nvcc %s failed: %s" % (name, r.stderr[-2000:]))
            continue
        got, f = compare(cuobjdump, cudnnctl, lib)
        failures += f
        if got["sass"] != sass or got["ptx"] != ptx:
            failures.append("%s: cudnnctl reads SASS %s PTX %s, nvcc was asked for %s %s" % (name, got["sass"], got["ptx"], sass, ptx))
        n, c = len(got["entries"]), got["compressed_entries"]
        if (compressed is True and c != n) or (compressed is False and c != 0):
            failures.append("%s: %d of %d entries read as compressed" % (name, c, n))
    return failures, len(BUILDS)


def main():
    cudnnctl, mode, where = sys.argv[1], sys.argv[2], sys.argv[3]
    cuobjdump = find_cuobjdump()
    if not cuobjdump:
        skip("no cuobjdump (tests/loader/fetch_cuobjdump.sh fetches it; or set CUDNNCTL_CUOBJDUMP)", required=True)
    if mode == "cudnn":
        if not os.path.isdir(where):
            skip("no folder " + where)
        failures, count = run_cudnn(cuobjdump, cudnnctl, where)
    else:
        failures, count = run_nvcc(cuobjdump, cudnnctl, where)
    for f in failures:
        print("MISMATCH: " + f)
    if failures:
        sys.exit(1)
    print("cudnnctl and cuobjdump agree on %d libraries" % count)


if __name__ == "__main__":
    main()

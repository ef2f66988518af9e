#!/usr/bin/env python3
"""`inspect ARCHIVE` reads the GPU code of an archive's libraries in one forward pass (loader/fatbin_stream);
this test proves it agrees with `gpu-code`, the random-access reader, on the same libraries extracted.

    inspect_gpu_code_test.py CUDNNCTL LIBDIR WORKDIR

LIBDIR holds the real cuDNN 9 libraries (this image: /usr/local/cuda/lib64, cuDNN 9.19 for CUDA 13). The test
packs all eight into a tar.xz in NVIDIA's Linux layout (lib/), and two of them, renamed to DLLs, into a zip in
the Windows layout (bin/x64/), runs `inspect --json` on each, extracts the archives and runs `gpu-code --json`
on every extracted library, and compares per library: SASS and PTX architectures, entries, containers,
compressed entries, and the PTX ISA versions. Without the libraries it prints SKIP.
"""
import json
import lzma
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

VERSION = "9.19.0.56"
TOP_LINUX = f"cudnn-linux-x86_64-{VERSION}_cuda13-archive"
TOP_WINDOWS = f"cudnn-windows-x86_64-{VERSION}_cuda13-archive"
LIBS = ["libcudnn.so.9", "libcudnn_adv.so.9", "libcudnn_cnn.so.9", "libcudnn_engines_precompiled.so.9",
        "libcudnn_engines_runtime_compiled.so.9", "libcudnn_graph.so.9", "libcudnn_heuristic.so.9", "libcudnn_ops.so.9"]
DLLS = {"libcudnn_ops.so.9": "cudnn_ops64_9.dll", "libcudnn_cnn.so.9": "cudnn_cnn64_9.dll"}


def run_json(*args):
    p = subprocess.run(list(args), capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(args)} exited {p.returncode}: {p.stderr[-2000:]}")
    return json.loads(p.stdout)


def make_tar_xz(libdir, path):
    with lzma.open(path, "wb", preset=0) as xz, tarfile.open(fileobj=xz, mode="w") as tar:
        for name in LIBS:
            tar.add(os.path.realpath(os.path.join(libdir, name)), arcname=f"{TOP_LINUX}/lib/{name}.19.0")


def make_zip(libdir, path):
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, dll in DLLS.items():
            z.write(os.path.realpath(os.path.join(libdir, name)), arcname=f"{TOP_WINDOWS}/bin/x64/{dll}")


def random_access(cudnnctl, path):
    lib = run_json(cudnnctl, "gpu-code", path, "--json")["libraries"][0]
    isa = sorted({e["ptx_isa"] for e in lib["entries"] if e["kind"] == "ptx"}, key=lambda v: tuple(map(int, v.split("."))))
    return {"sass": lib["sass"], "ptx": lib["ptx"], "entries": len(lib["entries"]), "containers": lib["containers"],
            "compressed_entries": lib["compressed_entries"], "ptx_isa": isa, "has_fatbin": lib["has_fatbin"]}


def compare(cudnnctl, archive, extracted_root):
    report = run_json(cudnnctl, "inspect", archive, "--json")
    seen = report["gpu_code"]
    if not isinstance(seen, list) or not seen:
        sys.exit(f"FAIL: inspect {archive} lists no gpu_code: {seen}")
    failures = 0
    for lib in seen:
        matches = [os.path.join(d, lib["library"]) for d, _, files in os.walk(extracted_root) if lib["library"] in files]
        if len(matches) != 1:
            sys.exit(f"FAIL: {lib['library']} is not in the extracted archive once: {matches}")
        if "error" in lib:
            print(f"FAIL: inspect could not read {lib['library']}: {lib['error']}")
            failures += 1
            continue
        want = random_access(cudnnctl, matches[0])
        got = {k: lib[k] for k in want}
        verdict = "ok  " if got == want else "FAIL"
        failures += got != want
        print(f"{verdict} {os.path.basename(archive)} {lib['library']}: SASS {' '.join(got['sass'])}; PTX {' '.join(got['ptx'])} "
              f"(ISA {' '.join(got['ptx_isa'])}); {got['entries']} entries, {got['compressed_entries']} compressed")
        if got != want:
            print(f"     inspect:  {got}\n     gpu-code: {want}")
    return failures, len(seen)


def main():
    cudnnctl, libdir, work = sys.argv[1], sys.argv[2], sys.argv[3]
    missing = [n for n in LIBS if not os.path.isfile(os.path.join(libdir, n))]
    if missing:
        print(f"SKIP: no cuDNN 9 libraries in {libdir} ({', '.join(missing)} missing)")
        return 0
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    tar_path = os.path.join(work, TOP_LINUX + ".tar.xz")
    zip_path = os.path.join(work, TOP_WINDOWS + ".zip")
    make_tar_xz(libdir, tar_path)
    make_zip(libdir, zip_path)
    with tarfile.open(tar_path) as t:
        t.extractall(os.path.join(work, "tar"))
    with zipfile.ZipFile(zip_path) as z:
        z.extractall(os.path.join(work, "zip"))
    failures, total = 0, 0
    for archive, root in ((tar_path, "tar"), (zip_path, "zip")):
        f, n = compare(cudnnctl, archive, os.path.join(work, root))
        failures, total = failures + f, total + n
    if total != len(LIBS) + len(DLLS):
        print(f"FAIL: inspect listed {total} libraries, the archives hold {len(LIBS) + len(DLLS)}")
        failures += 1
    shutil.rmtree(work, ignore_errors=True)
    print(f"{total - failures} of {total} libraries agree")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

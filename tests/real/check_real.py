#!/usr/bin/env python3
"""One check of cudnnctl's readers on one wheel of the real-files corpus (tests/real/corpus.json), every library
of it: cudnnctl's answer against an independent one, each disagreement printed with both answers.

    check_real.py CHECK ID --cudnnctl EXE --facts EXE [--cache DIR] [--plant]

CHECK:
  gpu_code  `cudnnctl gpu-code --json` against NVIDIA's cuobjdump --list-elf / --list-ptx, entry by entry in file
            order (a DLL: cuobjdump on its .nv_fatb section, cut out by this script's own PE parsing)
  binary    the ELF and PE readers (tests/real/library_facts, cudnnctl's loader module): the machine against the
            wheel's platform; DT_NEEDED, SONAME and the glibc/libstdc++ floor against GNU readelf; a DLL's imports
            against llvm-objdump; every cuDNN library a library needs is in the set; version resources against
            the wheel's version
  layout    the sub-library set against cudnnctl's knowledge of that release (`inspect --json` of the archive
            name), then an archive laid out from the wheel as NVIDIA lays out its archives: `inspect --json`
            reads its layout, the GPU code of every library (the streaming scanner) and the floor the same way
  doctor    the doctor on a toolkit built from the wheel (Windows: offline, a mounted tree; Linux: a copy of this
            image's CUDA toolkit with the wheel's cuDNN in it): no FAIL or WARN that the files do not deserve,
            the GPU code judged (files.gpu_code passes, naming the architectures)

--plant changes the independent answer by one item (an architecture, a machine, a library, a finding) and expects
the check to report the disagreement: the check itself is seen to fail (then exit 0, else 1). Exit 0 agree, 1 disagree, 77 skipped
(the corpus is not fetched: tests/real/fetch_corpus.py; with CUDNNCTL_REQUIRE_REAL=1 that is a failure).
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from stored_xz import StoredXzWriter  # noqa: E402
SKIP = 77
MACHINES = {("windows", "x86_64"): "x64", ("windows", "arm64"): "arm64", ("linux", "x86_64"): "x86_64",
            ("linux", "aarch64"): "aarch64"}


# Disagreements that are cudnnctl's known, not yet fixed bugs, each named exactly (the check fails when one goes away).
# None now: libcudnn_cnn_infer.so.8 of 8.9.6.50, whose .dynstr lies after its version tables and section table at
# the end of the 585 MB file, was one until the ELF reader took them in file order.
KNOWN_FLOOR_GAPS = {}


class Check:
    def __init__(self, name):
        self.name, self.failures, self.agreed = name, [], 0

    def same(self, what, ours, theirs):
        if ours == theirs:
            self.agreed += 1
            return True
        self.failures.append("%s\n      cudnnctl: %s\n      %s" % (what, ours, theirs))
        return False

    def require(self, cond, what):
        if cond:
            self.agreed += 1
        else:
            self.failures.append(what)
        return cond


def skip(why):
    if os.environ.get("CUDNNCTL_REQUIRE_REAL") == "1":
        print("FAIL (CUDNNCTL_REQUIRE_REAL=1): " + why)
        sys.exit(1)
    print("SKIP: " + why)
    sys.exit(SKIP)


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", timeout=900, **kw)


def libraries(root, wheel):
    folder = os.path.join(root, "bin" if wheel["os"] == "windows" else "lib")
    pattern = r"cudnn[a-z_]*64_\d+\.dll" if wheel["os"] == "windows" else r"libcudnn[a-z_]*\.so\.\d+"
    return sorted(os.path.join(folder, n) for n in os.listdir(folder) if re.fullmatch(pattern, n))


def sub_library(path):
    """cudnn_ops64_9.dll, libcudnn_ops.so.9 -> cudnn_ops."""
    n = os.path.basename(path)
    m = re.fullmatch(r"(cudnn[a-z_]*)64_\d+\.dll", n) or re.fullmatch(r"lib(cudnn[a-z_]*)\.so\.\d+", n)
    return m.group(1)


# ------------------------------------------------------------------ independent readers
def pe_section(path, name):
    """(offset, size) of a PE section's bytes, cut to its virtual size; None: no such section."""
    with open(path, "rb") as f:
        head = f.read(1 << 16)
        pe = struct.unpack_from("<I", head, 0x3C)[0]
        nsec = struct.unpack_from("<H", head, pe + 6)[0]
        opt = struct.unpack_from("<H", head, pe + 20)[0]
        table = pe + 24 + opt
        for i in range(nsec):
            s = head[table + 40 * i: table + 40 * i + 40]
            vsize, _va, raw, rawoff = struct.unpack_from("<IIII", s, 8)
            if s[:8].rstrip(b"\0").decode("latin-1") == name:
                return rawoff, min(vsize, raw) if vsize else raw
    return None


def cuobjdump_names(cuobjdump, what, target):
    r = run([cuobjdump, "--list-" + what, target])
    out = r.stdout + r.stderr
    suffix = "cubin" if what == "elf" else "ptx"
    names = re.findall(r"^(?:ELF|PTX) file\s+\d+: .*\.(sm_\d+[a-z]?)\." + suffix + "$", out, re.M)
    if r.returncode != 0 and not names and "does not contain device code" not in out:
        return None, out.strip()[:400]
    return names, None


def readelf_facts(path):
    d = run(["readelf", "-d", "-W", path]).stdout
    needed = re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", d)
    soname = re.findall(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", d)
    v = run(["readelf", "-V", "-W", path]).stdout
    needs = v.split("Version needs section", 1)[1] if "Version needs section" in v else ""
    needs = needs.split("Version definition section", 1)[0]
    highest = {}
    for name in re.findall(r"Name: ((?:GLIBC|GLIBCXX|CXXABI)_[0-9.]+)\s", needs):
        family, ver = name.split("_", 1)
        key = tuple(int(x) for x in ver.split("."))
        if family not in highest or key > highest[family][0]:
            highest[family] = (key, name)
    machine = re.search(r"Machine:\s+(.*)", run(["readelf", "-h", path]).stdout).group(1).strip()
    machine = {"Advanced Micro Devices X86-64": "x86_64", "AArch64": "aarch64"}.get(machine, machine)
    return {"needed": needed, "soname": soname[0] if soname else "", "floor": {f: n for f, (_, n) in highest.items()},
            "machine": machine}


def objdump_imports(path):
    out = run(["llvm-objdump-14", "-p", path]).stdout
    imports, delay, part = [], [], None
    for line in out.splitlines():
        if line.startswith("The Import Tables"):
            part = imports
        elif "Delay Import Tables" in line or line.startswith("The Delay Import"):
            part = delay
        elif part is not None and line.strip().startswith("DLL Name:"):
            part.append(line.split("DLL Name:", 1)[1].strip())
        elif line.startswith("The ") and "Import" not in line:
            part = None
    machine = {"coff-x86-64": "x64", "coff-arm64": "arm64", "COFF-x86-64": "x64", "COFF-ARM64": "arm64"}
    fmt = re.search(r"file format (\S+)", run(["llvm-objdump-14", "-f", path]).stdout)
    return imports, delay, machine.get(fmt.group(1) if fmt else "", fmt.group(1) if fmt else "?")


def library_facts(facts_exe, path):
    r = run([facts_exe, path])
    if r.returncode != 0:
        return {"error": (r.stderr or r.stdout).strip()}
    return json.loads(r.stdout)


# ------------------------------------------------------------------ the checks
def check_gpu_code(c, args, wheel, root, tmp):
    cuobjdump = os.path.join(args.cache, "real", "cuobjdump", "cuobjdump")
    if not os.access(cuobjdump, os.X_OK):
        skip("cuobjdump is not in the corpus cache (%s): tests/real/fetch_corpus.py" % cuobjdump)
    with_code = 0
    for lib in libraries(root, wheel):
        name = os.path.basename(lib)
        r = run([args.cudnnctl, "gpu-code", "--json", lib])
        if r.returncode != 0:
            c.require(False, "%s: cudnnctl gpu-code failed (exit %d): %s" % (name, r.returncode, (r.stdout + r.stderr).strip()[:600]))
            continue
        entries = json.loads(r.stdout)["libraries"][0]["entries"]
        with_code += 1 if entries else 0
        target = lib
        if wheel["os"] == "windows":
            sec = pe_section(lib, ".nv_fatb")
            if sec is None:
                c.same("%s: GPU code (no .nv_fatb section)" % name, len(entries), 0)
                continue
            target = os.path.join(tmp, name + ".nv_fatb")
            with open(lib, "rb") as f, open(target, "wb") as out:
                f.seek(sec[0])
                out.write(f.read(sec[1]))
        for what, kind in (("elf", "sass"), ("ptx", "ptx")):
            theirs, err = cuobjdump_names(cuobjdump, what, target)
            if theirs is None:
                c.require(False, "%s: cuobjdump --list-%s failed: %s" % (name, what, err))
                continue
            if args.plant and what == "elf" and theirs:
                theirs = theirs[:-1]  # planted: cuobjdump's list one entry short
            mine = []
            for e in entries:
                if e["kind"] == kind:
                    a = e["arch"].replace("compute_", "sm_")
                    # cuobjdump 13.5 prints no `f` for SASS (sm_100f reads sm_100) but keeps it for PTX (sm_120f)
                    mine.append(a[:-1] if a.endswith("f") and kind == "sass" else a)
            if c.same("%s --list-%s (%d entries)" % (name, what, len(theirs)), summarize(mine), summarize(theirs)):
                print("  agree: %s --list-%s: %d entries (%s)" % (name, what, len(mine), " ".join(sorted(set(mine)))))
    c.require(with_code > 0 or wheel["version"].startswith("8."), "no library of the wheel carries GPU code for cudnnctl")


def summarize(names):
    """A list of architectures compared in order: its length, its distinct names and a digest of the order."""
    return "%d entries: %s; order %x" % (len(names), " ".join(sorted(set(names))), hash(tuple(names)) & 0xFFFFFFFF)


def check_binary(c, args, wheel, root, _tmp):
    libs = libraries(root, wheel)
    names = {os.path.basename(x).lower() for x in libs}
    expected_machine = MACHINES[(wheel["os"], wheel["arch"])]
    if args.plant:
        expected_machine = "arm64" if expected_machine != "arm64" else "x64"
    versioned = 0
    for lib in libs:
        name = os.path.basename(lib)
        f = library_facts(args.facts, lib)
        if not c.require("error" not in f, "%s: cudnnctl's reader failed: %s" % (name, f.get("error"))):
            continue
        c.same("%s: machine (against the wheel's platform %s)" % (name, wheel["platform"]), f["machine"], expected_machine)
        needs_cudnn = [n for n in f["needed"] + f.get("delay_imports", []) if n.lower().startswith(("cudnn", "libcudnn"))]
        missing = [n for n in needs_cudnn if n.lower() not in names]
        c.require(not missing, "%s needs %s, which the wheel does not have" % (name, missing))
        if wheel["os"] == "linux":
            r = readelf_facts(lib)
            c.same("%s: machine (GNU readelf)" % name, f["machine"], r["machine"])
            c.same("%s: DT_NEEDED (GNU readelf)" % name, f["needed"], r["needed"])
            c.same("%s: SONAME (GNU readelf)" % name, f["soname"], r["soname"])
            c.same("%s: glibc/libstdc++ floor (GNU readelf -V)" % name, f["floor"], r["floor"])
        else:
            imports, delay, machine = objdump_imports(lib)
            c.same("%s: machine (llvm-objdump)" % name, f["machine"], machine)
            c.same("%s: imports (llvm-objdump)" % name, f["needed"], imports)
            c.same("%s: delay imports (llvm-objdump)" % name, f["delay_imports"], delay)
            if f["file_version"]:
                versioned += 1
                c.same("%s: version resource (against the wheel's version)" % name, f["file_version"], wheel["version"])
    if wheel["os"] == "windows":
        c.require(versioned >= 1, "no DLL of the wheel carries a version resource that cudnnctl read")


def archive_name(wheel):
    plat = {"x86_64": "x86_64", "aarch64": "sbsa", "arm64": "arm64"}[wheel["arch"]]
    ext = "zip" if wheel["os"] == "windows" else "tar.xz"
    return "cudnn-%s-%s-%s_cuda%d-archive.%s" % (wheel["os"], plat, wheel["version"], wheel["cuda_major"], ext)


def lay_out_archive(wheel, root, path, top):
    """The wheel's libraries and headers laid out as NVIDIA's archive of that name (docs/development.md: the real-files corpus)."""
    libs = libraries(root, wheel)
    v = [int(x) for x in wheel["version"].split(".")]
    headers = sorted(os.listdir(os.path.join(root, "include"))) if os.path.isdir(os.path.join(root, "include")) else []
    if wheel["os"] == "windows":
        machine = "arm64" if wheel["arch"] == "arm64" else "x64"
        bindir = "bin/%s" % machine if (machine == "arm64" or tuple(v[:2]) >= (9, 18)) else "bin"
        # stored, not deflated: a gigabyte compressed per wheel costs minutes and tests nothing the scanner
        # does not see in stored members (it reads the bytes as they come, in any chunking)
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as z:
            z.writestr(top + "/LICENSE", "test material laid out from NVIDIA's wheel\n")
            for h in headers:
                z.write(os.path.join(root, "include", h), "%s/include/%s" % (top, h))
            for lib in libs:
                z.write(lib, "%s/%s/%s" % (top, bindir, os.path.basename(lib)))
        return
    xyz = ".".join(str(x) for x in v[:3])
    # stored chunks, not compressed: see stored_xz.py (the zip above is stored for the same reason)
    out = StoredXzWriter(open(path, "wb"))
    with tarfile.open(fileobj=out, mode="w|", format=tarfile.GNU_FORMAT) as tar:
        def link(name, target):
            info = tarfile.TarInfo(name)
            info.type, info.linkname, info.mode = tarfile.SYMTYPE, target, 0o777
            tar.addfile(info)
        lic = b"test material laid out from NVIDIA's wheel\n"
        info = tarfile.TarInfo(top + "/LICENSE")
        info.size = len(lic)
        tar.addfile(info, __import__("io").BytesIO(lic))
        for h in headers:
            tar.add(os.path.join(root, "include", h), "%s/include/%s" % (top, h))
        for lib in libs:
            base = os.path.basename(lib)  # libcudnn_ops.so.9
            stem = base.rsplit(".so.", 1)[0]
            tar.add(lib, "%s/lib/%s.so.%s" % (top, stem, xyz))
            link("%s/lib/%s" % (top, base), "%s.so.%s" % (stem, xyz))
            link("%s/lib/%s.so" % (top, stem), base)
    out.close()


def check_layout(c, args, wheel, root, tmp):
    name = archive_name(wheel)
    r = run([args.cudnnctl, "inspect", "--json", name])
    doc = json.loads(r.stdout)
    layout = doc["layout"]
    known = sorted(layout["sub_libraries"])
    have = sorted(sub_library(x) for x in libraries(root, wheel))
    if args.plant:
        have = have[:-1]
    c.same("sub-libraries of %s (cudnnctl's knowledge of that release / the wheel's files)" % wheel["version"], known, have)
    include = os.path.join(root, "include")
    if os.path.isdir(include):
        headers = sorted(n for n in os.listdir(include) if re.fullmatch(r"cudnn[a-z_]*\.h", n))
        c.same("headers of %s (cudnnctl's expected layout / the wheel's include folder)" % wheel["version"], sorted(layout["headers"]), headers)
    # the archive laid out from the wheel (made once per wheel, kept beside its files), inspected
    path = os.path.join(root, "archive", name)
    if not os.path.isfile(path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp_path = "%s.tmp-%d" % (path, os.getpid())  # two runs at once each write their own, the last rename wins
        lay_out_archive(wheel, root, tmp_path, name.rsplit(".", 2 if name.endswith(".tar.xz") else 1)[0])
        os.replace(tmp_path, path)
    r = run([args.cudnnctl, "inspect", "--json", path])
    try:
        doc = json.loads(r.stdout)
    except ValueError:
        c.require(False, "inspect %s: no JSON (exit %d): %s" % (name, r.returncode, r.stderr[:600]))
        return
    gpu = {x["library"]: x for x in doc.get("gpu_code") or []}
    for lib in libraries(root, wheel):
        base = os.path.basename(lib)
        f = library_facts(args.facts, lib)
        # a Linux archive holds libcudnn_ops.so.9.28.1 (links .so.9 and .so to it)
        key = next((k for k in gpu if k == base or k.startswith(base.rsplit(".so.", 1)[0] + ".so.")), None)
        if not c.require(key is not None, "inspect %s does not name the GPU code of %s (it names %s)" % (name, base, sorted(gpu))):
            continue
        g = gpu[key]
        theirs = (f["gpu_code"].get("error"), sorted(f["gpu_code"].get("sass", [])), sorted(f["gpu_code"].get("ptx", [])))
        if args.plant and theirs[1]:
            theirs = (theirs[0], theirs[1][:-1], theirs[2])
        if c.same("inspect %s: %s GPU code (streaming scanner / random-access reader: error, SASS, PTX)" % (name, base),
                  (g.get("error"), sorted(g.get("sass", [])), sorted(g.get("ptx", []))), theirs):
            print("  agree: inspect %s: %s: %s" % (name, key, " ".join(g.get("sass", []) + g.get("ptx", [])) or "no GPU code"))
    if wheel["os"] == "linux":
        floor = {}
        for lib in libraries(root, wheel):
            for fam, ver in library_facts(args.facts, lib).get("floor", {}).items():
                key = tuple(int(x) for x in ver.split("_", 1)[1].split("."))
                if fam not in floor or key > floor[fam][0]:
                    floor[fam] = (key, ver)
        lf = doc.get("library_floor") or {}
        ours = sorted(v["needs"] for v in (lf.get("floor") or {}).values())
        unreadable = sorted(x.split(":", 1)[0].split(".so", 1)[0] for x in lf.get("unreadable") or [])  # "libX.so.8.9.6: why"
        known = sorted(KNOWN_FLOOR_GAPS.get(wheel["id"], []))
        # a known gap is listed exactly: when it is fixed, this fails until the entry is removed
        c.same("inspect %s: libraries whose floor the streaming reader could not read (known gaps: KNOWN_FLOOR_GAPS)" % name,
               unreadable, known)
        if known:
            print("  known gap: %s: %s" % (", ".join(known), lf.get("unreadable")))
        c.same("inspect %s: the machines of its libraries" % name, lf.get("machines"), [wheel["arch"]])
        c.same("inspect %s: the glibc/libstdc++ floor of the archive (streamed / each library read)" % name,
               ours, sorted(v for _, v in floor.values()))


def linux_toolkit(wheel, root, tk):
    """A CUDA 13 toolkit as this image lays it out (its small files), holding the wheel's cuDNN (links into the
    cache): include/cuda.h, bin/nvcc, lib64 -> targets/<arch>-linux/lib with cudart, and the cuDNN headers."""
    arch = "sbsa" if wheel["arch"] == "aarch64" else "x86_64"
    lib = os.path.join(tk, "targets", "%s-linux" % arch, "lib")
    os.makedirs(lib)
    os.makedirs(os.path.join(tk, "bin"))
    os.symlink(os.path.join("targets", "%s-linux" % arch, "lib"), os.path.join(tk, "lib64"))
    shutil.copytree(os.path.join(root, "include"), os.path.join(tk, "include"))
    shutil.copy("/usr/local/cuda/include/cuda.h", os.path.join(tk, "include", "cuda.h"))
    for n in ("nvcc",):
        if os.path.exists("/usr/local/cuda/bin/" + n):
            shutil.copy("/usr/local/cuda/bin/" + n, os.path.join(tk, "bin", n))
    for lib_path in libraries(root, wheel):
        base = os.path.basename(lib_path)
        os.symlink(lib_path, os.path.join(lib, base))
        os.symlink(base, os.path.join(lib, base.rsplit(".", 1)[0]))  # libcudnn_ops.so -> libcudnn_ops.so.9
    return tk


def windows_toolkit(wheel, root, c_drive, imports_of):
    """A Windows CUDA toolkit of the wheel's CUDA major on a mounted C: drive, holding the wheel's DLLs (links into
    the cache) where that toolkit keeps DLLs (bin\\x64 for CUDA 13, bin before), the cuDNN headers, stand-ins for
    the toolkit's own DLLs, and a System32 with a KERNEL32.dll."""
    cuda = {11: "11.8", 12: "12.4", 13: "13.0"}[wheel["cuda_major"]]
    tk = os.path.join(c_drive, "Program Files", "NVIDIA GPU Computing Toolkit", "CUDA", "v" + cuda)
    machine = "arm64" if wheel["arch"] == "arm64" else "x64"
    bindir = os.path.join(tk, "bin", machine) if wheel["cuda_major"] >= 13 else os.path.join(tk, "bin")
    os.makedirs(bindir)
    os.makedirs(os.path.join(tk, "lib", machine))
    include = os.path.join(root, "include")
    if os.path.isdir(include):
        shutil.copytree(include, os.path.join(tk, "include"))
    else:
        os.makedirs(os.path.join(tk, "include"))
    with open(os.path.join(tk, "include", "cuda.h"), "w") as f:
        f.write("#define CUDA_VERSION %d\n" % (int(cuda.split(".")[0]) * 1000 + int(cuda.split(".")[1]) * 10))
    with open(os.path.join(tk, "version.json"), "w") as f:
        f.write('{"cuda": {"name": "CUDA SDK", "version": "%s.0"}}\n' % cuda)
    for lib in libraries(root, wheel):
        os.symlink(lib, os.path.join(bindir, os.path.basename(lib)))
    m = wheel["cuda_major"]
    for n in ("cublasLt64_%d.dll" % m, "nvrtc64_%d0_0.dll" % m if m < 13 else "nvrtc64_130_0.dll", "cudart64_%d.dll" % m):
        with open(os.path.join(bindir, n), "w") as f:
            f.write("toolkit DLL stand-in\n")
    sys32 = os.path.join(c_drive, "Windows", "System32")
    os.makedirs(sys32)
    # the system DLLs the cuDNN DLLs import (KERNEL32.dll, ADVAPI32.dll, bcrypt.dll, ...), as Windows has them in
    # System32: stand-ins that are PE files of the same machine (copies of the wheel's main DLL)
    main_dll = next(x for x in libraries(root, wheel) if os.path.basename(x).startswith("cudnn64_"))
    ours = {os.path.basename(x).lower() for x in libraries(root, wheel)} | {n.lower() for n in os.listdir(bindir)}
    for dll in sorted(set(imports_of)):
        if dll.lower() not in ours:
            shutil.copy(main_dll, os.path.join(sys32, dll.lower()))
    path_value = "C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v%s\\%s;%%SystemRoot%%\\system32" % (
        cuda, "bin\\" + machine if m >= 13 else "bin")
    return tk, sys32, path_value


def check_doctor(c, args, wheel, root, tmp):
    libs = libraries(root, wheel)
    facts = {os.path.basename(x): library_facts(args.facts, x) for x in libs}
    if wheel["os"] == "windows":
        imports = [d for f in facts.values() for d in f.get("needed", []) + f.get("delay_imports", [])]
        tk, sys32, path_value = windows_toolkit(wheel, root, os.path.join(tmp, "c"), imports)
        cmd = [args.cudnnctl, "doctor", "--json", "--offline", "--cuda-path", tk, "--path-value", path_value, "--system32", sys32]
    else:
        tk = linux_toolkit(wheel, root, os.path.join(tmp, "cuda-13.0"))
        cmd = [args.cudnnctl, "doctor", "--json", "--no-gpu", "--cuda-path", tk]
    # the doctor reads the CUDA variables of its environment: none of this machine's
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CUDA_", "CUDNN_")) and k not in ("LD_LIBRARY_PATH",)}
    if wheel["os"] == "linux":  # the toolkit's libraries first on the loader's path, as a user of this toolkit sets it
        env["LD_LIBRARY_PATH"] = os.path.join(tk, "lib64")
    r = run(cmd, env=env)
    try:
        report = json.loads(r.stdout)
    except ValueError:
        c.require(False, "doctor gave no JSON (exit %d): %s" % (r.returncode, r.stderr[:800]))
        return
    checks = report["checks"]
    for x in checks:
        print("  %-5s %-24s %s" % (x["status"], x["id"], x["finding"][:220]))
    # the GPU code is judged: files.gpu_code passes and names every architecture the libraries carry
    sass = sorted({a for f in facts.values() if "gpu_code" in f for a in f["gpu_code"].get("sass", [])})
    if args.plant:
        sass.append("sm_999")  # planted: an architecture no library has
    gpu = [x for x in checks if x["id"] == "files.gpu_code"]
    if sass:
        c.require(len(gpu) == 1 and gpu[0]["status"] == "pass",
                  "files.gpu_code does not pass: %s" % [(x["status"], x["finding"][:300]) for x in gpu])
        named = set(re.findall(r"sm_\d+[af]?", " ".join(x["finding"] for x in gpu)))
        c.same("files.gpu_code: the SASS architectures named", sorted(named & set(sass)), sass)
    # no FAIL or WARN the files do not deserve
    expected = deserved(wheel, report)
    for x in checks:
        if x["status"] in ("fail", "warn"):
            reason = expected.get(x["id"])
            c.require(reason is not None, "doctor %s %s without a cause in the files: %s" % (x["status"].upper(), x["id"], x["finding"][:400]))
            if reason:
                print("  deserved: %s %s (%s)" % (x["status"], x["id"], reason))


def deserved(wheel, report):
    """check id -> why these files deserve that check's FAIL or WARN in the tree check_doctor builds."""
    out = {}
    version = tuple(int(x) for x in wheel["version"].split(".")[:3])
    with open(os.path.join(HERE, "..", "..", "data", "cudnn-advisories.json")) as f:
        for a in json.load(f)["advisories"]:
            lo, hi = (tuple(int(x) for x in a[k].split(".")) for k in ("from", "before"))
            if lo <= version < hi:
                out["files.advisories"] = "the release is in the known-bad range %s (data/cudnn-advisories.json)" % a["id"]
    host_machine = os.uname().machine
    if wheel["os"] == "linux" and wheel["arch"] != host_machine:
        for cid in ("loader.load", "loader.elf", "loader.needed", "loader.winner", "loader.symbols", "files.elf", "files.arch", "files.search_path"):
            out[cid] = "%s libraries on a %s host cannot be loaded here" % (wheel["arch"], host_machine)
    if wheel["os"] == "linux" and wheel["cuda_major"] != 13:
        for cid in ("stack.cuda_major", "files.cuda_major", "loader.load", "release.support", "files.release"):
            out.setdefault(cid, "a cuDNN built for CUDA %d in a CUDA 13 toolkit" % wheel["cuda_major"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check", choices=("gpu_code", "binary", "layout", "doctor"))
    ap.add_argument("id")
    ap.add_argument("--cudnnctl", required=True)
    ap.add_argument("--facts", required=True)
    ap.add_argument("--cache", default=os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cudnnctl"))
    ap.add_argument("--plant", action="store_true")
    args = ap.parse_args()
    with open(os.path.join(HERE, "corpus.json")) as f:
        wheel = next((w for w in json.load(f)["wheels"] if w["id"] == args.id), None)
    if wheel is None:
        sys.exit("no wheel %s in tests/real/corpus.json" % args.id)
    root = os.path.join(args.cache, "real", args.id)
    stamp = os.path.join(root, ".complete")
    if not os.path.isfile(stamp) or open(stamp).read().strip() != wheel["sha256"]:
        skip("%s is not in the corpus cache %s: tests/real/fetch_corpus.py fetches it" % (args.id, root))
    c = Check(args.check)
    tmp = tempfile.mkdtemp(prefix="cudnnctl-real-")
    try:
        {"gpu_code": check_gpu_code, "binary": check_binary, "layout": check_layout, "doctor": check_doctor}[args.check](c, args, wheel, root, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    c.require(c.agreed > 0 or c.failures, "nothing was compared")
    for f in c.failures:
        print("DISAGREE: " + f)
    print("%s %s%s: %d agreed, %d disagreed" % (args.check, args.id, " (planted)" if args.plant else "", c.agreed, len(c.failures)))
    if args.plant:  # the check must have seen the planted disagreement
        print("the planted disagreement was %s" % ("reported: the check can fail" if c.failures else "NOT reported"))
        sys.exit(0 if c.failures else 1)
    sys.exit(1 if c.failures else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""bundle unbundle and bundle swap of a Windows bundle (torch\\lib: real PE DLLs built with mingw-w64, with
version resources and a RECORD as pip writes it) run on Linux, where a Windows DLL cannot be loaded:
  - without --no-load-check: exit 13, the message says the load check cannot run on this OS and names
    cudnnctl.exe on Windows; nothing changed (the folder byte for byte, no receipt);
  - with --no-load-check: done; the output (human and --json), the receipt and `bundle list --json` say the
    check was skipped; `bundle restore` puts the folder back byte-identical;
  - --no-load-check is refused by the commands that run no load check (restore, list, install).
    cross_os_bundle_test.py CUDNNCTL"""
import base64, glob, hashlib, json, os, shutil, subprocess, sys, tempfile, zipfile

CTL = sys.argv[1]
HERE = os.path.dirname(os.path.abspath(__file__))
RC = os.path.join(HERE, "..", "loader", "pe", "version.rc")
GCC, WINDRES = shutil.which("x86_64-w64-mingw32-gcc"), shutil.which("x86_64-w64-mingw32-windres")
if sys.platform != "linux":
    print("SKIP: the cross-OS case is a Windows bundle seen from Linux"); sys.exit(0)
if not GCC or not WINDRES:
    if os.environ.get("CUDNNCTL_REQUIRE_MINGW"): print("FAIL: mingw-w64 is required here"); sys.exit(1)
    print("SKIP: no mingw-w64 (x86_64-w64-mingw32-gcc, -windres) to build the DLLs"); sys.exit(0)

fails = 0
def check(ok, what, detail=""):
    global fails
    print(("ok: " if ok else "FAIL: ") + what + ("" if ok else f"\n  {detail}"))
    fails += 0 if ok else 1

tmp = tempfile.mkdtemp(prefix="cudnnctl-cross-os-")
SUBS = ["graph", "ops", "cnn", "adv", "engines_precompiled", "engines_runtime_compiled", "heuristic"]

def dll(path, version, main=False):
    """A PE DLL with a version resource (a.b.c.d); the main one exports cudnnGetVersion."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    src, res = path + ".c", path + ".res.o"
    a, b, c, d = version.split(".")
    open(src, "w").write("__declspec(dllexport) unsigned long long cudnnGetVersion(void) { return %s%02d%02d; }\n" % (a, int(b), int(c))
                         if main else "__declspec(dllexport) int sub(void) { return 1; }\n")
    subprocess.run([WINDRES, f"-DVMAJ={a}", f"-DVMIN={b}", f"-DVPAT={c}", f"-DVBLD={d}", RC, "-O", "coff", "-o", res], check=True)
    subprocess.run([GCC, "-shared", "-o", path, src, res], check=True)
    os.remove(src); os.remove(res)

def cudnn_dlls(folder, version):
    dll(os.path.join(folder, "cudnn64_9.dll"), version, main=True)
    for s in SUBS: dll(os.path.join(folder, f"cudnn_{s}64_9.dll"), version)

def run(*args):
    r = subprocess.run([CTL, *args], capture_output=True, text=True, env=ENV)
    return r.returncode, r.stdout + r.stderr

def tree(folder):
    """Every file of the folder with its SHA-256."""
    return {f: hashlib.sha256(open(os.path.join(folder, f), "rb").read()).hexdigest() for f in sorted(os.listdir(folder))}

def receipts():
    return glob.glob(os.path.join(ENV["CUDNNCTL_BUNDLE_STATE"], "*", "receipt.json"))

def listed():
    rc, out = run("bundle", "list", "--site", site, "--json")
    rows = [b for b in json.loads(out[: out.rindex("}") + 1])["bundles"] if b["dir"].endswith("torch/lib")] if rc == 0 else []
    return rows[0] if rows else {"rc": rc, "out": out}

try:
    ENV = dict(os.environ, CUDNNCTL_BUNDLE_STATE=os.path.join(tmp, "state"))
    for v in ("VIRTUAL_ENV", "CONDA_PREFIX", "CUDNNCTL_LOG"): ENV.pop(v, None)
    # the Windows environment, as WSL sees it under /mnt/c: torch\lib with cuDNN 9.1.0.70 and cudart64_12.dll
    site = os.path.join(tmp, "c", "Python311", "Lib", "site-packages")
    lib = os.path.join(site, "torch", "lib")
    cudnn_dlls(lib, "9.1.0.70")
    dll(os.path.join(lib, "cudart64_12.dll"), "6.14.11.12040")
    di = os.path.join(site, "torch-2.5.1+cu121.dist-info")
    os.makedirs(di)
    open(os.path.join(di, "METADATA"), "w", newline="").write("Metadata-Version: 2.1\r\nName: torch\r\nVersion: 2.5.1+cu121\r\n\r\n")
    rows = []
    for f in sorted(os.listdir(lib)):
        data = open(os.path.join(lib, f), "rb").read()
        rows.append(f"torch/lib/{f},sha256={base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b'=').decode()},{len(data)}")
    rows.append("torch-2.5.1+cu121.dist-info/RECORD,,")
    open(os.path.join(di, "RECORD"), "w", newline="").write("\r\n".join(rows) + "\r\n")
    original = tree(lib)
    # a Windows CUDA 12.4 toolkit holding a matching cuDNN 9 (bin\)
    tk = os.path.join(tmp, "c", "CUDA", "v12.4")
    os.makedirs(os.path.join(tk, "include"))
    open(os.path.join(tk, "include", "cuda.h"), "w").write("#define CUDA_VERSION 12040\n")
    cudnn_dlls(os.path.join(tk, "bin"), "9.1.0.70")
    # a Windows archive of a newer cuDNN 9 for CUDA 12
    name = "cudnn-windows-x86_64-9.10.2.21_cuda12-archive"
    cudnn_dlls(os.path.join(tmp, "arch", name, "bin"), "9.10.2.21")
    os.makedirs(os.path.join(tmp, "arch", name, "include"))
    open(os.path.join(tmp, "arch", name, "include", "cudnn_version.h"), "w").write(
        "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 10\n#define CUDNN_PATCHLEVEL 2\n")
    archive = os.path.join(tmp, name + ".zip")
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for root, _, files in os.walk(os.path.join(tmp, "arch")):
            for f in sorted(files): z.write(os.path.join(root, f), os.path.relpath(os.path.join(root, f), os.path.join(tmp, "arch")))
    sha = hashlib.sha256(open(archive, "rb").read()).hexdigest()

    b = listed()
    check(b.get("state") == "original" and b.get("version") == "9.1.0.70" and b.get("cuda_major") == 12 and b.get("load_check_skipped") is None,
          "list: the Windows bundle, original, 9.1.0.70, CUDA 12, no receipt", b)

    # ---- without --no-load-check: refused, exit 13, nothing changed
    for verb, args in (("unbundle", ["bundle", "unbundle", lib, "--cuda-path", tk]), ("swap", ["bundle", "swap", lib, archive, "--sha256", sha])):
        rc, out = run(*args)
        check(rc == 13, f"{verb} without --no-load-check: exit 13", f"exit {rc}: {out}")
        check("cannot run on this OS" in out and "Linux cannot load a Windows DLL" in out, f"{verb}: says the load check cannot run on this OS", out)
        check("cudnnctl.exe bundle " + verb in out and "--no-load-check" in out and (verb != "swap" or "--sha256 " + sha in out),
              f"{verb}: names cudnnctl.exe on Windows (the same arguments) and --no-load-check", out)
        check("does not load" not in out and "missing beside it" not in out, f"{verb}: not the loader-failure message", out)
        check(tree(lib) == original and not receipts(), f"{verb}: nothing changed (the folder byte for byte, no receipt)")

    # ---- what the files prove is refused first (issue 51 item 6): a cuDNN 8 archive, an ARM64 one, each refused
    # for that reason without --no-load-check, not for the load check this OS cannot run
    def windows_archive(name, files):
        top = os.path.join(tmp, "other", name)
        for f, version, main in files: dll(os.path.join(top, "bin", f), version, main)
        path = os.path.join(tmp, name + ".zip")
        with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
            for root, _, fs in os.walk(top):
                for f in sorted(fs): z.write(os.path.join(root, f), os.path.relpath(os.path.join(root, f), os.path.join(tmp, "other")))
        return path, hashlib.sha256(open(path, "rb").read()).hexdigest()
    v8, v8_sha = windows_archive("cudnn-windows-x86_64-8.9.7.29_cuda12-archive",
                                 [("cudnn64_8.dll", "8.9.7.29", True), ("cudnn_ops_infer64_8.dll", "8.9.7.29", False)])
    rc, out = run("bundle", "swap", lib, v8, "--sha256", v8_sha)
    check(rc == 13 and "the archive is cuDNN 8 and the bundle cuDNN 9" in out, "swap of a cuDNN 8 archive: refused for the major", f"exit {rc}: {out}")
    check("Linux cannot load a Windows DLL" not in out, "swap of a cuDNN 8 archive: not refused for the load check first", out)
    check(tree(lib) == original and not receipts(), "swap of a cuDNN 8 archive: nothing changed")
    def to_arm64(path):  # mingw-w64 here builds x64 only: the COFF header's machine field says ARM64 (0xAA64)
        data = bytearray(open(path, "rb").read())
        pe = int.from_bytes(data[0x3C:0x40], "little")
        data[pe + 4:pe + 6] = (0xAA64).to_bytes(2, "little")
        open(path, "wb").write(bytes(data))
    arm_name = "cudnn-windows-arm64-9.10.2.21_cuda12-archive"
    arm_top = os.path.join(tmp, "arm", arm_name)
    cudnn_dlls(os.path.join(arm_top, "bin"), "9.10.2.21")
    for f in os.listdir(os.path.join(arm_top, "bin")): to_arm64(os.path.join(arm_top, "bin", f))
    arm = os.path.join(tmp, arm_name + ".zip")
    with zipfile.ZipFile(arm, "w", zipfile.ZIP_DEFLATED) as z:
        for root, _, fs in os.walk(arm_top):
            for f in sorted(fs): z.write(os.path.join(root, f), os.path.relpath(os.path.join(root, f), os.path.join(tmp, "arm")))
    rc, out = run("bundle", "swap", lib, arm, "--sha256", hashlib.sha256(open(arm, "rb").read()).hexdigest())
    check(rc == 13 and "arm64" in out.lower() and "x64" in out.lower(), "swap of an ARM64 archive into an x64 bundle: refused for the architecture",
          f"exit {rc}: {out}")
    check("Linux cannot load a Windows DLL" not in out, "swap of an ARM64 archive: not refused for the load check first", out)
    check(tree(lib) == original and not receipts(), "swap of an ARM64 archive: nothing changed")

    # ---- with --no-load-check: done, recorded, restorable byte-identical
    for verb, args, state in (("unbundle", ["bundle", "unbundle", lib, "--cuda-path", tk], "unbundled"),
                              ("swap", ["bundle", "swap", lib, archive, "--sha256", sha], "swapped")):
        rc, out = run(*args, "--no-load-check", "--json")
        doc = json.loads(out[: out.rindex("}") + 1]) if rc == 0 else {}
        check(rc == 0 and doc.get("bundle", {}).get("state") == state, f"{verb} --no-load-check: done ({state})", f"exit {rc}: {out}")
        check(doc.get("load_check") == "skipped" and doc.get("loaded_version") is None and
              "Linux cannot load a Windows DLL" in doc.get("load_check_note", ""), f"{verb} --json: load_check skipped, with why", doc)
        r = receipts()
        rec = json.load(open(r[0])) if len(r) == 1 else {}
        check(rec.get("load_check_skipped") is True and "--no-load-check" in rec.get("load_check_note", ""), f"{verb}: the receipt says the check was skipped", rec)
        b = listed()
        check(b.get("state") == state and b.get("load_check_skipped") is True, f"{verb}: bundle list --json says {state}, load check skipped", b)
        rc, out = run("bundle", "list", "--site", site)
        check("not load-checked" in out, f"{verb}: bundle list says it was not load-checked", out)
        rc, out = run("bundle", "restore", lib)
        check(rc == 0 and tree(lib) == original and not receipts(), f"{verb}: restore puts the folder back byte-identical", f"exit {rc}: {out}")
    rc, out = run("bundle", "swap", lib, archive, "--sha256", sha, "--no-load-check")
    check(rc == 0 and "the load check was skipped (--no-load-check): Linux cannot load a Windows DLL" in out, "swap: the human output says so", out)
    run("bundle", "restore", lib)
    check(tree(lib) == original, "restored again")

    # ---- refused by every other command
    for args in (["bundle", "restore", lib], ["bundle", "list", "--site", site], ["install", archive, "--cuda-path", tk, "--dry-run"]):
        rc, out = run(*args, "--no-load-check")
        check(rc == 2 and "--no-load-check" in out, f"{args[0]} {args[1]}: --no-load-check is refused (usage, exit 2)", f"exit {rc}: {out}")
finally:
    shutil.rmtree(tmp, ignore_errors=True)
print(f"{fails} failure(s)")
sys.exit(1 if fails else 0)

"""What the windows_exe scenarios share: finding wine, skipping (or failing under
CUDNNCTL_REQUIRE_WINDOWS_EXE=1) when something is missing, counting checks, the environment a
Windows program runs in, running it, and making the wine prefix before anything else runs."""
import json
import os
import shutil
import subprocess
import sys
import time

WINE = shutil.which("wine64", path="/usr/lib/wine:" + os.environ.get("PATH", "")) or shutil.which("wine")
WINESERVER = (shutil.which("wineserver", path=os.path.dirname(WINE) + ":/usr/lib/wine:" + os.environ.get("PATH", ""))
              if WINE else None) or "wineserver"

failures = []


def skip_or_fail(why):
    if os.environ.get("CUDNNCTL_REQUIRE_WINDOWS_EXE") == "1":
        print(f"FAIL: CUDNNCTL_REQUIRE_WINDOWS_EXE=1 but {why}")
        sys.exit(1)
    print(f"SKIP: {why}")
    sys.exit(0)


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what, flush=True)
    if not cond:
        failures.append(what)
    return cond


def wine_env(prefix):
    """This process's environment without the CUDA variables of this machine, for a program in `prefix`."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CUDA_HOME", "CUDA_PATH", "CUDNN_PATH", "LD_LIBRARY_PATH", "LIBRARY_PATH", "CPATH", "DISPLAY")}
    env.update(WINEPREFIX=prefix, WINEDEBUG="-all", WINEDLLOVERRIDES="mscoree,mshtml=", LANG="C.UTF-8")
    return env


def run_wine(env, *args, timeout=600):
    """Runs a Windows program; returns (exit code, stdout, stderr) and prints one line about it."""
    t = time.time()
    p = subprocess.run([WINE, *args], capture_output=True, env=env, timeout=timeout)
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    print(f"  $ {' '.join(args[:4])}{' ...' if len(args) > 4 else ''}  -> rc {p.returncode} in {time.time() - t:.1f} s", flush=True)
    return p.returncode, out, err


def make_prefix(env):
    """A new prefix is made, and wine's first-run set-up finished, before anything is timed or run: a first
    program otherwise races wineboot (on a fresh machine trace wrote no --output file)."""
    if os.path.isdir(os.path.join(env["WINEPREFIX"], "drive_c")):
        return
    t = time.time()
    run_wine(env, "wineboot", "-i", timeout=900)
    subprocess.run([WINESERVER, "-w"], env=env, timeout=300)
    print(f"wine prefix made in {time.time() - t:.0f} s")


def drive_c_path(prefix, win_path):
    """C:\\x\\y -> that file in the wine prefix `prefix`."""
    assert win_path[:3].upper() == "C:\\", win_path
    return os.path.join(prefix, "drive_c", *[p for p in win_path[3:].split("\\") if p])


def make_cuda_toolkit(root, dll_sources, version="12.4.1"):
    """A Windows CUDA toolkit at the local folder `root` (made anew): bin (the DLLs of each wheel folder in
    `dll_sources`, linked), include\\cuda.h, lib\\x64\\cudart.lib and version.json saying `version`."""
    import json
    import shutil
    shutil.rmtree(root, ignore_errors=True)
    for d in ("bin", "include", "lib/x64"):
        os.makedirs(os.path.join(root, d))
    for src in dll_sources:
        for dll in os.listdir(os.path.join(src, "bin")):
            os.symlink(os.path.join(src, "bin", dll), os.path.join(root, "bin", dll))
    with open(os.path.join(root, "version.json"), "w") as f:
        json.dump({"cuda": {"name": "CUDA SDK", "version": version}}, f)
    major, minor = version.split(".")[:2]
    with open(os.path.join(root, "include", "cuda.h"), "w") as f:
        f.write("#define CUDA_VERSION %d%03d\n" % (int(major), int(minor) * 10))
    with open(os.path.join(root, "lib", "x64", "cudart.lib"), "wb") as f:
        f.write(b"!<arch>\n")
    return root


def finish(env, work, summary):
    """Stops the prefix's wineserver, prints `summary` and exits 1 on any failure. A passing scenario removes its
    work folder (a prefix with copies of NVIDIA's DLLs, archives and toolkits: gigabytes, and CI's disk is shared);
    a failing one keeps it to be looked at. CUDNNCTL_KEEP_TEST_WORK=1 keeps it always."""
    subprocess.run([WINESERVER, "-k"], env=env)
    subprocess.run([WINESERVER, "-w"], env=env, timeout=120)
    print(f"{len(failures)} failure(s){summary}", flush=True)
    if failures:
        print(f"the work folder is kept: {work}")
        sys.exit(1)
    if os.environ.get("CUDNNCTL_KEEP_TEST_WORK") != "1":
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0)


def run_wine_json(env, *args, timeout=600):
    """run_wine for a command that prints JSON: (exit code, the document or None, stderr); what did not parse is printed."""
    rc, out, err = run_wine(env, *args, timeout=timeout)
    try:
        return rc, json.loads(out), err
    except json.JSONDecodeError:
        print(out[-2000:], err[-2000:])
        return rc, None, err


def registry_user_path(env):
    """HKCU\\Environment's PATH value as reg.exe prints it ("" when there is none)."""
    _, out, _ = run_wine(env, "reg", "query", "HKCU\\Environment", "/v", "PATH")
    line = next((ln for ln in out.splitlines() if "PATH" in ln and "REG_" in ln), "")
    return line.split("REG_EXPAND_SZ")[-1].split("REG_SZ")[-1].strip() if line else ""

#!/usr/bin/env python3
"""What a person sees in a terminal: runs cudnnctl in a pseudo-terminal and checks the progress lines.

    terminal_progress_test.py CUDNNCTL small
        archives made here (a few MiB): extract and install of a zip and a tar.xz, verify; the
        percentage never goes back and ends at 100% of the right total, with the final line; nothing
        drawn into a pipe, with --json or TERM=dumb; NO_COLOR.
    terminal_progress_test.py CUDNNCTL realistic FIXTURES_DIR
        the realistic archives (this machine's cuDNN 9.19 in NVIDIA's layouts, made and cached in
        FIXTURES_DIR by tests/fixtures/make_realistic_archives.py): install of the tar.xz and extract of
        the zip show a rising percentage with rate and time left that reaches 100%.
    terminal_progress_test.py CUDNNCTL capture FIXTURES_DIR OUTDIR
        writes the final screens (docs/terminal/*.txt) of install, extract, verify and fetch.

The final screen is what a terminal shows once every '\\r' redraw has landed (screen() below);
the frames are the raw redraws, in order.
"""
import errno
import fcntl
import hashlib
import http.server
import io
import json
import os
import pty
import re
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import termios
import threading
import zipfile

CUDNNCTL = os.path.abspath(sys.argv[1])
FAILURES = []
L = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive"
W = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive"
ESC = re.compile(r"\x1b\[[0-9;]*m")
FRAME = re.compile(r"^(\w+)\s+(\d+)% \[[#-]+\] (\S+ \S+)(?: / (\S+ \S+))?")
FINAL = re.compile(r"^(\w+)\s+100% \[#+\] (\S+ \S+) in \S+ \((\S+ \S+)/s\)$")


def check(cond, what):
    print(("ok    " if cond else "FAIL  ") + what)
    if not cond:
        FAILURES.append(what)


def run_pty(args, env=None, cwd=None, cols=100):
    """Runs with stdin, stdout and stderr on one pseudo-terminal; returns (exit code, raw text)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, cols, 0, 0))
    e = dict(os.environ, TERM="xterm-256color")
    e.pop("NO_COLOR", None)
    e.update(env or {})
    p = subprocess.Popen([CUDNNCTL] + args, stdin=slave, stdout=slave, stderr=slave, env=e, cwd=cwd, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError as err:  # EIO: the child closed the terminal
            if err.errno != errno.EIO:
                raise
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return p.wait(), b"".join(chunks).decode("utf-8")


def run_pipe(args, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([CUDNNCTL] + args, capture_output=True, env=e)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def screen(raw):
    """The lines a terminal shows: each '\\r' goes back to the start of the line, escapes take no room."""
    lines, line, col = [], [], 0
    for ch in ESC.sub("", raw):
        if ch == "\r":
            col = 0
        elif ch == "\n":
            lines.append("".join(line).rstrip())
            line, col = [], 0
        else:
            if col < len(line):
                line[col] = ch
            else:
                line.append(ch)
            col += 1
    if line:
        lines.append("".join(line).rstrip())
    return lines


def frames(raw, label):
    """Each drawn state of the progress line of `label`: (percent, done, total)."""
    out = []
    for piece in re.split(r"[\r\n]", ESC.sub("", raw)):
        m = FRAME.match(piece.strip())
        if m and m.group(1) == label:
            out.append((int(m.group(2)), m.group(3), m.group(4)))
    return out


def human(n):
    if n < 1024:
        return f"{n} B"
    if n < 1 << 20:
        return f"{n / 1024:.1f} KiB"
    if n < 1 << 30:
        return f"{n / 1048576:.1f} MiB"
    return f"{n / 1073741824:.2f} GiB"


def check_progress(raw, label, total, what, want_rising=False):
    """The percentage never goes back, ends at 100% of `total` (bytes), and the final line is there."""
    fs = frames(raw, label)
    pcts = [f[0] for f in fs]
    check(len(fs) >= 1, f"{what}: progress drawn ({len(fs)} frames)")
    check(all(a <= b for a, b in zip(pcts, pcts[1:])), f"{what}: the percentage never goes back {pcts[:40]}")
    check(all(f[2] == human(total) for f in fs if f[2]), f"{what}: every frame shows the total {human(total)}")
    if want_rising:
        check(len(set(pcts)) >= 3 and pcts[0] < 100, f"{what}: the percentage rises over several redraws {sorted(set(pcts))[:20]}")
        check(any(re.search(r"/s  \S+ left", p) for p in re.split(r"[\r\n]", ESC.sub("", raw))), f"{what}: rate and time left are shown")
    finals = [ln for ln in screen(raw) if FINAL.match(ln) and ln.startswith(label)]
    check(len(finals) == 1, f"{what}: one final line: {finals}")
    if finals:
        check(FINAL.match(finals[0]).group(2) == human(total), f"{what}: the final line names the total {human(total)}: {finals[0]}")
    check("\x1b[K" not in raw and "\x1b[2K" not in raw, f"{what}: the line is erased with spaces, not escapes")


# ---------------------------------------------------------------- small archives made here

def payload(size, seed):
    """Bytes that compress a little (like a library): a stream of pseudo-random words."""
    words = [hashlib.sha256(f"{seed}-{i}".encode()).hexdigest()[: 3 + i % 9].encode() for i in range(4096)]
    out, x = bytearray(), seed
    while len(out) < size:
        x = (x * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        out += words[x >> 52] + b" "
    return bytes(out[:size])


def linux_members(top):
    header = b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n"
    m = {f"{top}/include/cudnn_version.h": header, f"{top}/include/cudnn.h": b"// cudnn\n", f"{top}/LICENSE": b"license\n"}
    for i, lib in enumerate(("cudnn", "cudnn_ops", "cudnn_cnn", "cudnn_engines_precompiled")):
        m[f"{top}/lib/lib{lib}.so.9.1.0"] = payload((6 << 20) + i * 4099, i + 1)
    return m


def make_tar_xz(path, members):
    with tarfile.open(path, "w:xz", preset=1) as t:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), 0o644, 1700000000
            t.addfile(info, io.BytesIO(data))


def make_zip(path, members):
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for name, data in members.items():
            z.writestr(name, data)


def linux_toolkit(base):
    root = os.path.join(base, "linux-12.4")
    for d in ("include", "bin", "targets/x86_64-linux/lib"):
        os.makedirs(os.path.join(root, d))
    open(os.path.join(root, "include/cuda.h"), "w").write("#define CUDA_VERSION 12040\n")
    open(os.path.join(root, "bin/nvcc"), "w").write("nvcc")
    open(os.path.join(root, "targets/x86_64-linux/lib/libcudart.so.12"), "w").write("cudart")
    os.symlink("targets/x86_64-linux/lib", os.path.join(root, "lib64"))
    return root


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def small(tmp):
    members = linux_members(L)
    inflated = sum(len(d) for d in members.values())
    txz, zp = os.path.join(tmp, L + ".tar.xz"), os.path.join(tmp, L + ".zip")
    make_tar_xz(txz, members)
    make_zip(zp, members)
    txz_hash, zip_hash = sha256(txz), sha256(zp)

    code, raw = run_pty(["extract", zp, "--sha256", zip_hash, "--to", os.path.join(tmp, "x-zip")])
    check(code == 0, f"extract zip in a terminal exits 0 ({code})")
    check_progress(raw, "extracting", inflated, "extract zip (total: the central directory's inflated sizes)")
    check(any(ln.startswith("extracted ") for ln in screen(raw)), "extract zip: the summary follows the final line")

    code, raw = run_pty(["extract", txz, "--sha256", txz_hash, "--to", os.path.join(tmp, "x-txz")])
    check(code == 0, f"extract tar.xz in a terminal exits 0 ({code})")
    check_progress(raw, "extracting", os.path.getsize(txz), "extract tar.xz (total: the archive's size)")

    code, raw = run_pty(["verify", txz, "--sha256", txz_hash])
    check(code == 0, f"verify in a terminal exits 0 ({code})")
    check_progress(raw, "verifying", os.path.getsize(txz), "verify")

    tk = linux_toolkit(tmp)
    code, raw = run_pty(["install", txz, "--sha256", txz_hash, "--cuda-path", tk, "--no-path"])
    check(code == 0, f"install tar.xz in a terminal exits 0 ({code}): {raw[-400:]}")
    check_progress(raw, "installing", os.path.getsize(txz), "install tar.xz")
    lines = screen(raw)
    summary = [ln for ln in lines if ln.startswith("installed ")]
    check(len(summary) == 1 and "backup" not in summary[0] and "kept in" not in summary[0],
          f"install into a fresh toolkit names no backup: {summary}")
    check(len(summary) == 1 and re.search(r": 7 files placed \(7 new, 0 replaced\)$", summary[0]) is not None,
          f"install into a fresh toolkit: the counts add up: {summary}")

    # colour only without NO_COLOR; the same text either way
    code, raw_color = run_pty(["verify", txz, "--sha256", txz_hash])
    code, raw_plain = run_pty(["verify", txz, "--sha256", txz_hash], env={"NO_COLOR": "1"})
    check("\x1b[" in raw_color, "without NO_COLOR the bar is coloured")
    check("\x1b" not in raw_plain, "with NO_COLOR not one escape is written")
    check_progress(raw_plain, "verifying", os.path.getsize(txz), "verify with NO_COLOR")

    # nothing drawn where nobody watches: a pipe, --json, TERM=dumb
    code, out, err = run_pipe(["extract", zp, "--sha256", zip_hash, "--to", os.path.join(tmp, "x-pipe")])
    check(code == 0 and "\r" not in err + out and "%" not in err and "\x1b" not in err + out, f"into a pipe: nothing drawn ({err!r})")
    code, raw = run_pty(["extract", zp, "--sha256", zip_hash, "--to", os.path.join(tmp, "x-json"), "--json"])
    check(code == 0 and "\r\n" in raw and not frames(raw, "extracting") and json.loads(raw.replace("\r\n", "\n"))["ok"],
          "with --json in a terminal: no progress, one JSON document")
    code, raw = run_pty(["verify", txz, "--sha256", txz_hash], env={"TERM": "dumb"})
    check(code == 0 and not frames(raw, "verifying") and "\x1b" not in raw, "TERM=dumb: nothing drawn")
    # stdout redirected to a file, stderr still the terminal: the run is recorded, so no redraws either
    master, slave = pty.openpty()
    with open(os.path.join(tmp, "out.txt"), "w") as f:
        p = subprocess.run([CUDNNCTL, "verify", txz, "--sha256", txz_hash], stdout=f, stderr=slave, env=dict(os.environ, TERM="xterm"))
    os.close(slave)
    os.set_blocking(master, False)
    try:
        err = os.read(master, 65536).decode()
    except OSError:  # nothing was written (EAGAIN), or the terminal is already closed (EIO)
        err = ""
    os.close(master)
    check(p.returncode == 0 and "%" not in err, f"stdout into a file: nothing drawn on the terminal ({err!r})")

    # an error clears the line instead of leaving half a bar before the message
    bad = os.path.join(tmp, "bad-" + L + ".zip")
    data = bytearray(open(zp, "rb").read())
    data[len(data) // 2] ^= 0xFF
    open(bad, "wb").write(data)
    code, raw = run_pty(["extract", bad, "--allow-unverified", "--to", os.path.join(tmp, "x-bad")])
    err_lines = [ln for ln in screen(raw) if "error" in ln.lower()]
    check(code != 0 and err_lines and all("%" not in ln for ln in err_lines), f"a failed extract: the error is on a clean line {err_lines}")


# ---------------------------------------------------------------- the realistic archives

def fixtures(where):
    """The realistic archives, made (or kept) by tests/fixtures/make_realistic_archives.py in where."""
    make = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures", "make_realistic_archives.py")
    p = subprocess.run([sys.executable, make, where], stdout=subprocess.PIPE, text=True)
    if p.returncode == 77:
        print(next(ln for ln in p.stdout.splitlines() if ln.startswith("SKIP:")))
        sys.exit(0)
    if p.returncode != 0:
        sys.exit(f"{p.stdout}FAIL: {make} exited {p.returncode}")
    if not os.path.isfile("/usr/local/cuda/include/cuda.h") or not os.path.isfile("/usr/local/cuda/bin/nvcc"):
        print("SKIP: needs this image's CUDA toolkit (/usr/local/cuda/include/cuda.h and bin/nvcc) to copy its layout")
        sys.exit(0)
    with open(os.path.join(where, "fixtures.json")) as f:
        made = json.load(f)
    return os.path.join(where, made["linux"]["file"]), os.path.join(where, made["windows"]["file"])


def cuda13_toolkit(base):
    tk = os.path.join(base, "cuda-13.0")
    os.makedirs(os.path.join(tk, "bin"))
    os.makedirs(os.path.join(tk, "targets/x86_64-linux/lib"))
    os.makedirs(os.path.join(tk, "include"))
    shutil.copy("/usr/local/cuda/include/cuda.h", os.path.join(tk, "include"))
    shutil.copy("/usr/local/cuda/bin/nvcc", os.path.join(tk, "bin"))
    os.symlink("targets/x86_64-linux/lib", os.path.join(tk, "lib64"))
    return tk


def zip_inflated(path):
    with zipfile.ZipFile(path) as z:
        return sum(i.file_size for i in z.infolist() if not i.is_dir())


def realistic(tmp, where):
    txz, zp = fixtures(where)
    tk = cuda13_toolkit(tmp)
    code, raw = run_pty(["install", txz, "--sha256-file", txz + ".sha256", "--cuda-path", tk, "--no-path"])
    check(code == 0, f"install of the realistic tar.xz exits 0 ({code})")
    check_progress(raw, "installing", os.path.getsize(txz), "install realistic tar.xz", want_rising=True)
    code, raw = run_pty(["extract", zp, "--sha256-file", zp + ".sha256", "--to", os.path.join(tmp, "zip")])
    check(code == 0, f"extract of the realistic zip exits 0 ({code})")
    check_progress(raw, "extracting", zip_inflated(zp), "extract realistic zip", want_rising=True)


# ---------------------------------------------------------------- terminal captures for docs/

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def midway(raw):
    """The line as it was drawn near the middle of the run (a real redraw), then what stays on screen."""
    drawn = [p.strip() for p in re.split(r"[\r\n]", ESC.sub("", raw)) if FRAME.match(p.strip()) and " left" in p]
    near = [p for p in drawn if int(FRAME.match(p).group(2)) >= 40]
    if not drawn:
        return ""
    return "# while it runs (one of the redraws, in place):\n" + (near or drawn)[0] + "\n# when it is done:\n"


def capture(tmp, where, outdir):
    txz, zp = fixtures(where)
    os.makedirs(outdir, exist_ok=True)
    tk = cuda13_toolkit(tmp)
    home = os.path.join(tmp, "home")
    os.makedirs(os.path.join(home, "Downloads"))
    for p in (txz, zp):
        os.symlink(p, os.path.join(home, "Downloads", os.path.basename(p)))
        os.symlink(p + ".sha256", os.path.join(home, "Downloads", os.path.basename(p) + ".sha256"))
    shutil.move(tk, os.path.join(home, "cuda-13.0"))
    dl = lambda p: "Downloads/" + os.path.basename(p)
    runs = {  # run in the home folder, the archives in Downloads/, as a person would
        "verify": ["verify", dl(txz), "--sha256-file", dl(txz) + ".sha256"],
        "extract": ["extract", dl(zp), "--sha256-file", dl(zp) + ".sha256", "--to", "cudnn-9.19"],
        "install": ["install", dl(txz), "--sha256-file", dl(txz) + ".sha256", "--cuda-path", "cuda-13.0"],
    }
    for name, args in runs.items():
        code, raw = run_pty(args, cwd=home, env={"NO_COLOR": "1"})
        text = "~$ cudnnctl " + " ".join(args) + "\n" + midway(raw) + "\n".join(screen(raw)).replace(home + "/", "~/").replace(home, "~") + "\n"
        open(os.path.join(outdir, name + ".txt"), "w").write(text)
        print(text)
    # fetch from a mirror on 127.0.0.1: the same paths as NVIDIA's server, the archive's hash in a catalog
    mirror = os.path.join(tmp, "mirror")
    rel = "compute/cudnn/redist/cudnn/linux-x86_64/" + os.path.basename(txz)
    os.makedirs(os.path.dirname(os.path.join(mirror, rel)))
    os.symlink(txz, os.path.join(mirror, rel))
    handler = lambda *a, **k: Quiet(*a, directory=mirror, **k)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    catalog = os.path.join(tmp, "catalog.json")
    version = re.search(r"x86_64-([0-9.]+)_cuda", txz).group(1)
    json.dump({"schema_version": 1, "archives": [{
        "filename": os.path.basename(txz), "version": version, "platform": "linux-x86_64", "cuda_variant": "13",
        "url": "https://developer.download.nvidia.com/" + rel,
        "hashes": [{"sha256": sha256(txz), "size": os.path.getsize(txz), "confidence": "A", "sources": ["a test mirror"]}]}]},
        open(catalog, "w"))
    shutil.move(catalog, os.path.join(home, "catalog.json"))
    args = ["fetch", version, "--platform", "linux-x86_64", "--cuda", "13", "--mirror", f"http://127.0.0.1:{port}", "--catalog", "catalog.json"]
    code, raw = run_pty(args, cwd=home, env={"NO_COLOR": "1", "XDG_CACHE_HOME": os.path.join(home, ".cache")})
    server.shutdown()
    text = ("~$ cudnnctl " + " ".join(args) + "\n" + midway(raw) + "\n".join(screen(raw)) + "\n").replace(home, "~").replace(f"127.0.0.1:{port}", "127.0.0.1:8000")
    open(os.path.join(outdir, "fetch.txt"), "w").write(text)
    print(text)
    check(code == 0, f"fetch from the local mirror exits 0 ({code})")


def main():
    mode = sys.argv[2]
    tmp = tempfile.mkdtemp(prefix="cudnnctl-pty-")
    try:
        if mode == "small":
            small(tmp)
        elif mode == "realistic":
            realistic(tmp, sys.argv[3])
        elif mode == "capture":
            capture(tmp, sys.argv[3], sys.argv[4])
        else:
            sys.exit(f"unknown mode {mode}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} check(s) failed")
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()

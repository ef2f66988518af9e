#!/usr/bin/env python3
"""`doctor --html` rendered in headless Chromium (Debian's package): the page Chromium builds has a row for
every check the JSON lists, the search order drawn with one box per folder, the loaded copy marked and a
planted earlier copy marked as shadowing; the screenshot is a real picture, not a blank page.

    html_in_chromium.py CUDNNCTL OUTDIR     (writes OUTDIR/doctor-real-toolkit.png and doctor-shadowed.png)
"""
import html.parser
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

CUDNNCTL, OUT = sys.argv[1], sys.argv[2]
TOOLKIT = "/usr/local/cuda"
chromium = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
if not chromium:
    if os.environ.get("CI") == "true":
        print("FAIL: no chromium on this CI machine (scripts/setup.sh installs Debian's chromium)")
        sys.exit(1)
    print("SKIP: headless Chromium is not installed (apt-get install chromium)")
    sys.exit(0)
if not os.path.isfile(os.path.join(TOOLKIT, "include", "cudnn_version.h")):
    print("SKIP: needs this image's CUDA toolkit with cuDNN")
    sys.exit(0)
os.makedirs(OUT, exist_ok=True)
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


class Dom(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.elements = []  # (tag, attrs)

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, dict(attrs)))

    def having(self, tag, cls=None, **attrs):
        out = []
        for t, a in self.elements:
            if t != tag:
                continue
            if cls and not set(cls.split()) <= set((a.get("class") or "").split()):
                continue
            if all(a.get(k.replace("_", "-")) == v for k, v in attrs.items()):
                out.append(a)
        return out


def png_colors(path):
    """Distinct colours of an 8-bit RGB/RGBA PNG (what Chromium writes), sampled every 7th pixel."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"unexpected PNG type {depth}/{ctype}"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    colors = set()
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 7 == 0:
            for x in range(0, w, 7):
                colors.add(bytes(line[x * bpp:x * bpp + 3]))
        prev = line
    return w, h, colors


def render(case, env):
    page = os.path.join(OUT, f"doctor-{case}.html")
    png = os.path.join(OUT, f"doctor-{case}.png")
    args = [CUDNNCTL, "doctor", "--cuda-path", TOOLKIT, "--driver-library", "libcudnnctl-no-such-driver.so.1"]
    report = json.loads(subprocess.run(args + ["--json", "--html", page], capture_output=True, text=True, env=env).stdout)
    profile = tempfile.mkdtemp(prefix="chromium-")  # Chromium's own profile, removed after the two renders
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
             f"--user-data-dir={profile}"]
    try:
        dom_text = subprocess.run([chromium, *flags, "--dump-dom", "file://" + page], capture_output=True, text=True, timeout=120).stdout
        subprocess.run([chromium, *flags, "--window-size=1240,1700", f"--screenshot={png}", "file://" + page],
                       capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    dom = Dom()
    dom.feed(dom_text)
    return report, dom, png


base_env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}

# 1. this image's real toolkit, as it is
report, dom, png = render("real-toolkit", base_env)
check(len(dom.having("table", None, id="checks")) == 1, "Chromium built the checks table")
rows = dom.having("tr", "check")
check(len(rows) == len(report["checks"]), f"one row per check ({len(rows)} rows, {len(report['checks'])} checks)")
check([r["data-id"] for r in rows] == [c["id"] for c in report["checks"]], "rows in the doctor's order, by check id")
for c in report["checks"]:
    check(any(r["data-id"] == c["id"] and c["status"] in r["class"].split() for r in rows), f"row {c['id']} has status {c['status']}")
summary = dom.having("div", "summary")
check(len(summary) == 1 and summary[0].get("data-exit-code") == str(report["exit_code"]), "the summary carries the exit code")
check(len(dom.having("svg", None, id="search-order")) == 1, "the search order is drawn (inline SVG)")
folders = dom.having("g", "folder")
check(len(folders) == len(report["shadow_scan"]["order"]), f"one box per folder on the search order ({len(folders)})")
winners = dom.having("g", "copy winner")
check(len(winners) == 1 and winners[0].get("data-version", "").startswith("9.19"), "exactly one copy is marked loaded: cuDNN 9.19")
check(not dom.having("script") and not dom.having("link"), "no scripts and no external resources")
w, h, colors = png_colors(png)
check(w == 1240 and h == 1700, f"screenshot is 1240x1700 ({w}x{h})")
check(len(colors) > 20, f"the screenshot is a picture, not a blank page ({len(colors)} colours sampled)")

# 2. an older copy planted first on LD_LIBRARY_PATH shadows the toolkit's
tmp = tempfile.mkdtemp(prefix="cudnnctl-shadow-")
try:
    lib = os.path.join(tmp, "old", "lib")
    os.makedirs(lib)
    open(os.path.join(lib, "libcudnn.so.9.1.0"), "w").write("stand-in")
    os.symlink("libcudnn.so.9.1.0", os.path.join(lib, "libcudnn.so.9"))
    env = dict(base_env, LD_LIBRARY_PATH=lib)
    report, dom, png = render("shadowed", env)
    shadowing = dom.having("g", "copy shadowing")
    check(len(shadowing) == 1 and shadowing[0].get("data-version") == "9.1.0", "the planted 9.1.0 copy is marked as shadowing")
    check(any("winner" in s["class"].split() for s in shadowing), "and as the one programs load")
    check(len(dom.having("g", "copy installed")) == 1, "the toolkit's own copy is marked installed")
    check(any(r["data-id"] == "files.search_path" and "fail" in r["class"].split() for r in dom.having("tr", "check")),
          "the files.search_path row fails")
    check(len(dom.having("div", "fix")) >= 1, "its fix is shown")
    check(len(png_colors(png)[2]) > 20, "the shadowed report renders")
finally:
    shutil.rmtree(tmp, ignore_errors=True)

print(f"html in chromium: {len(failures)} failed")
sys.exit(1 if failures else 0)

#!/usr/bin/env python3
"""Fetches the real-files corpus (tests/real/corpus.json): NVIDIA's cuDNN wheels from PyPI, pinned by name,
version, platform and SHA-256, and NVIDIA's cuobjdump, into a cache; unpacks each wheel's libraries and headers
to CACHE/real/<id>/{lib,bin,include}. A second run downloads and unpacks nothing. A wheel whose SHA-256 is not
the pinned one is deleted and the run fails (pip also checks PyPI's own hashes).

    fetch_corpus.py [--cache DIR] [--only ID ...]     (default ${XDG_CACHE_HOME:-~/.cache}/cudnnctl)

Prints what it downloaded (bytes, seconds) and the corpus's total size.
"""
import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))


def default_cache():
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cudnnctl")


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            b = f.read(1 << 22)
            if not b:
                return h.hexdigest()
            h.update(b)


def download(w, wheels_dir):
    """The pinned wheel in wheels_dir (downloaded once, its SHA-256 checked); returns bytes downloaded."""
    path = os.path.join(wheels_dir, w["file"])
    got = 0
    if not os.path.isfile(path):
        tmp = os.path.join(wheels_dir, ".download-" + w["id"])
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        req = os.path.join(tmp, "requirements.txt")
        with open(req, "w") as f:  # hash-checking mode: pip refuses any other file
            f.write("%s==%s --hash=sha256:%s\n" % (w["project"], w["version"], w["sha256"]))
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                        "--platform", w["platform"], "--python-version", "3.11", "--implementation", "py",
                        "-r", req, "-d", tmp], check=True)
        if not os.path.isfile(os.path.join(tmp, w["file"])):
            sys.exit("pip did not download %s (got %s)" % (w["file"], os.listdir(tmp)))
        os.replace(os.path.join(tmp, w["file"]), path)
        shutil.rmtree(tmp, ignore_errors=True)
        got = os.path.getsize(path)
    if os.path.getsize(path) != w["size"] or sha256_of(path) != w["sha256"]:
        os.remove(path)
        sys.exit("%s: not the pinned wheel (size or SHA-256 differs from tests/real/corpus.json): deleted" % path)
    return got


def unpack(w, wheel, out):
    """The wheel's libraries (nvidia/.../lib or bin), headers and dist-info METADATA into out/."""
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with zipfile.ZipFile(wheel) as z:
        for m in z.infolist():
            parts = m.filename.split("/")
            if m.filename.endswith("/") or parts[-1] == "__init__.py":
                continue
            if parts[-1] == "cuobjdump" and "bin" in parts:
                dst = os.path.join(tmp, "cuobjdump")
            elif len(parts) >= 4 and parts[0] == "nvidia" and parts[2] in ("lib", "bin", "include"):
                sub = parts[2]
                name = parts[-1]
                if sub == "lib" and (name.endswith(".lib") or len(parts) > 4):
                    sub, name = "implib", parts[-1]  # lib/x64/*.lib in some Windows wheels
                dst = os.path.join(tmp, sub, name)
            elif parts[0].endswith(".dist-info") and parts[-1] in ("METADATA", "WHEEL", "RECORD"):
                dst = os.path.join(tmp, "dist-info", parts[-1])
            else:
                continue
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with z.open(m) as src, open(dst, "wb") as f:
                shutil.copyfileobj(src, f, 1 << 20)
            if dst.endswith("cuobjdump"):
                os.chmod(dst, 0o755)
    with open(os.path.join(tmp, ".complete"), "w") as f:
        f.write(w["sha256"] + "\n")
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache", default=default_cache())
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    with open(os.path.join(HERE, "corpus.json")) as f:
        corpus = json.load(f)
    wheels_dir = os.path.join(args.cache, "wheels")
    real_dir = os.path.join(args.cache, "real")
    os.makedirs(wheels_dir, exist_ok=True)
    os.makedirs(real_dir, exist_ok=True)
    start, downloaded, total = time.time(), 0, 0
    for w in corpus["wheels"] + corpus["tools"]:
        if args.only and w["id"] not in args.only:
            continue
        total += w["size"]
        out = os.path.join(real_dir, w["id"])
        stamp = os.path.join(out, ".complete")
        if os.path.isfile(stamp) and open(stamp).read().strip() == w["sha256"]:
            print("cached: %s" % out)
            continue
        downloaded += download(w, wheels_dir)
        unpack(w, os.path.join(wheels_dir, w["file"]), out)
        print("unpacked: %s" % out)
    print("corpus: %d wheels, %.2f GB in all; downloaded %.2f GB; %.0f s" %
          (len(corpus["wheels"]) + len(corpus["tools"]), total / 1e9, downloaded / 1e9, time.time() - start))


if __name__ == "__main__":
    main()

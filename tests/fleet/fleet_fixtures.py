"""Toolkits for the fleet tests: this image's real CUDA toolkit (/usr/local/cuda, cuDNN 9.19) seen through a
tree in a temporary folder (its headers copied, its libraries linked, never written), optionally with a
planted failure: the cuDNN version header says another minor than the libraries (a half-upgraded node)."""
import os
import re
import shutil
import socket
import sys

REAL = os.environ.get("CUDNNCTL_FIXTURE_CUDA_ROOT", "/usr/local/cuda")


def skip(why):
    """Reports skipped (CTest SKIP_REGULAR_EXPRESSION "SKIP:"), or fails where CI requires the engines."""
    if os.environ.get("CUDNNCTL_REQUIRE_FLEET"):
        sys.exit(f"FAIL: CUDNNCTL_REQUIRE_FLEET is set but: {why}")
    print(f"SKIP: {why}")
    sys.exit(0)


def make_toolkit(root, cudnn_minor=None):
    """A toolkit tree at `root` over the real one; `cudnn_minor` plants a header that disagrees with the libraries."""
    if not os.path.isfile(os.path.join(REAL, "include", "cudnn_version.h")):
        skip(f"no real cuDNN toolkit at {REAL} (set CUDNNCTL_FIXTURE_CUDA_ROOT)")
    os.makedirs(os.path.join(root, "include"))
    os.makedirs(os.path.join(root, "lib64"))
    for name in os.listdir(os.path.join(REAL, "include")):
        if name.startswith("cudnn") or name in ("cuda.h",):
            shutil.copy(os.path.join(REAL, "include", name), os.path.join(root, "include", name))
    for name in ("version.json", "version.txt"):
        if os.path.isfile(os.path.join(REAL, name)):
            shutil.copy(os.path.join(REAL, name), os.path.join(root, name))
    real_lib = os.path.realpath(os.path.join(REAL, "lib64"))
    for name in os.listdir(real_lib):
        src = os.path.join(real_lib, name)
        if os.path.isfile(src) and ".so" in name:
            os.symlink(src, os.path.join(root, "lib64", name))
    if cudnn_minor is not None:
        header = os.path.join(root, "include", "cudnn_version.h")
        with open(header, encoding="utf-8") as f:
            text = f.read()
        text = re.sub(r"#define CUDNN_MINOR\s+\d+", f"#define CUDNN_MINOR {cudnn_minor}", text)
        with open(header, "w", encoding="utf-8") as f:
            f.write(text)
    return root


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def doctor_env(tk):
    """The environment of a node whose loader path and CUDA_HOME name its toolkit `tk` (as a configured node's
    would): only the planted failure fails, not the fact that a temporary tree is on no search path."""
    env = {k: v for k, v in os.environ.items() if k not in ("CUDA_PATH", "CUDA_ROOT", "CUDNN_PATH")}
    env["CUDA_HOME"] = tk
    env["LD_LIBRARY_PATH"] = os.path.join(tk, "lib64")
    return env

#!/usr/bin/env bash
# Fetches NVIDIA's real Windows cuDNN DLLs for the `windows_dlls` tests: the nvidia-cudnn-cu12 9.1.0.70
# win_amd64 wheel from PyPI (680 MB, the same DLLs as cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip),
# cached, unpacked to $CACHE/nvidia-cudnn-cu12-9.1.0.70/{bin,include}. The default test run never calls this;
# CI does, then runs `ctest -L windows_dlls`. A second call downloads nothing.
#   fetch_windows_wheel.sh [CACHE]   (default ${XDG_CACHE_HOME:-~/.cache}/cudnnctl/wheels)
set -euo pipefail
CACHE=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl/wheels}
VERSION=9.1.0.70
WHEEL=nvidia_cudnn_cu12-$VERSION-py3-none-win_amd64.whl
# PyPI's published SHA-256 of that wheel is checked by pip from the index; we keep our own record too
OUT=$CACHE/nvidia-cudnn-cu12-$VERSION
mkdir -p "$CACHE"
if [[ -f $OUT/.complete ]]; then echo "cached: $OUT"; exit 0; fi
if [[ ! -f $CACHE/$WHEEL ]]; then
  python3 -m pip download --quiet --no-deps --only-binary=:all: --platform win_amd64 --python-version 3.11 \
    "nvidia-cudnn-cu12==$VERSION" -d "$CACHE"
fi
rm -rf "$OUT.tmp"
mkdir -p "$OUT.tmp"
python3 - "$CACHE/$WHEEL" "$OUT.tmp" <<'PY'
import sys, zipfile, os
wheel, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(wheel) as z:
    for m in z.infolist():
        for sub in ("bin/", "include/"):
            pre = "nvidia/cudnn/" + sub
            if m.filename.startswith(pre) and not m.filename.endswith("/") and not m.filename.endswith("__init__.py"):
                dst = os.path.join(out, sub, m.filename[len(pre):])
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                with z.open(m) as src, open(dst, "wb") as f:
                    while True:
                        b = src.read(1 << 20)
                        if not b:
                            break
                        f.write(b)
PY
touch "$OUT.tmp/.complete"
rm -rf "$OUT"
mv "$OUT.tmp" "$OUT"
ls -l "$OUT/bin"

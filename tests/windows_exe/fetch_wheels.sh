#!/usr/bin/env bash
# Fetches NVIDIA's real Windows DLLs for the `windows_exe` tests, cached outside the repo:
#   nvidia-cudnn-cu12 9.1.0.70 (via tests/doctor/fetch_windows_wheel.sh: cuDNN's 8 DLLs and headers),
#   nvidia-cublas-cu12 12.4.5.8 (cublasLt64_12.dll, which cuDNN opens by name at run time),
#   nvidia-cuda-nvrtc-cu12 12.4.127 (nvrtc64_120_0.dll and its builtins, likewise),
# all win_amd64 wheels from PyPI (pip checks PyPI's hashes). The default test run never calls this; CI does,
# then runs `ctest -L windows_exe`. A second call downloads nothing.
#   fetch_wheels.sh [CACHE]   (default ${XDG_CACHE_HOME:-~/.cache}/cudnnctl/wheels)
set -euo pipefail
CACHE=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl/wheels}
"$(dirname "$0")/../doctor/fetch_windows_wheel.sh" "$CACHE"

fetch() {  # fetch PROJECT VERSION WHEEL-DIR-IN-ARCHIVE
  local project=$1 version=$2 inner=$3 out=$CACHE/$1-$2
  if [[ -f $out/.complete ]]; then echo "cached: $out"; return; fi
  local wheel=${project//-/_}-$version-py3-none-win_amd64.whl
  if [[ ! -f $CACHE/$wheel ]]; then
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform win_amd64 --python-version 3.11 \
      "$project==$version" -d "$CACHE"
  fi
  rm -rf "$out.tmp"
  mkdir -p "$out.tmp/bin"
  python3 - "$CACHE/$wheel" "$out.tmp/bin" "$inner" <<'PY'
import sys, zipfile, os, shutil
wheel, out, inner = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    for m in z.infolist():
        if m.filename.startswith(inner) and m.filename.lower().endswith(".dll"):
            with z.open(m) as src, open(os.path.join(out, os.path.basename(m.filename)), "wb") as f:
                shutil.copyfileobj(src, f, 1 << 20)
PY
  touch "$out.tmp/.complete"
  rm -rf "$out"
  mv "$out.tmp" "$out"
  ls -l "$out/bin"
}
fetch nvidia-cublas-cu12 12.4.5.8 nvidia/cublas/bin/
fetch nvidia-cuda-nvrtc-cu12 12.4.127 nvidia/cuda_nvrtc/bin/

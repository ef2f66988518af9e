#!/usr/bin/env bash
# Fetches NVIDIA's real Windows DLLs for the `windows_exe` tests, cached outside the repo:
#   nvidia-cudnn-cu12 9.1.0.70 (via tests/doctor/fetch_windows_wheel.sh: cuDNN's 8 DLLs and headers),
#   nvidia-cublas-cu12 12.4.5.8 (cublasLt64_12.dll, which cuDNN opens by name at run time),
#   nvidia-cuda-nvrtc-cu12 12.4.127 (nvrtc64_120_0.dll and its builtins, likewise),
#   nvidia-cudnn-cu12 9.10.2.21 (the DLLs and headers `bundle swap` puts in; windows_exe.bundle),
#   nvidia-cuda-runtime-cu12 12.4.127 (cudart64_12.dll, the cudart PyTorch ships beside its cuDNN),
# and keeps the dist-info (RECORD, METADATA) of the 9.1.0.70, 9.10.2.21 and cuda-runtime wheels in
# $CACHE/dist-info/<name>.dist-info/ (RECORD's hashes are what `bundle restore` must give back).
# all win_amd64 wheels from PyPI (pip checks PyPI's hashes). The default test run never calls this; CI does,
# then runs `ctest -L windows_exe`. A second call downloads nothing.
#   fetch_wheels.sh [CACHE]   (default ${XDG_CACHE_HOME:-~/.cache}/cudnnctl/wheels)
set -euo pipefail
CACHE=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl/wheels}
"$(dirname "$0")/../doctor/fetch_windows_wheel.sh" "$CACHE"

download() {  # download PROJECT VERSION: the win_amd64 wheel into $CACHE, once
  local wheel=${1//-/_}-$2-py3-none-win_amd64.whl
  if [[ ! -f $CACHE/$wheel ]]; then
    python3 -m pip download --quiet --no-deps --only-binary=:all: --platform win_amd64 --python-version 3.11 \
      "$1==$2" -d "$CACHE"
  fi
}

fetch() {  # fetch PROJECT VERSION WHEEL-DIR-IN-ARCHIVE
  local project=$1 version=$2 inner=$3 out=$CACHE/$1-$2
  if [[ -f $out/.complete ]]; then echo "cached: $out"; return; fi
  local wheel=${project//-/_}-$version-py3-none-win_amd64.whl
  download "$project" "$version"
  rm -rf "$out.tmp"
  mkdir -p "$out.tmp/bin"
  # the DLLs of INNER into bin/; a headers folder beside INNER (nvidia/cudnn/include/) into include/
  python3 - "$CACHE/$wheel" "$out.tmp" "$inner" <<'PY'
import sys, zipfile, os, shutil
wheel, out, inner = sys.argv[1:]
include = inner.rstrip("/").rsplit("/", 1)[0] + "/include/"
with zipfile.ZipFile(wheel) as z:
    for m in z.infolist():
        name = m.filename
        if name.startswith(inner) and name.lower().endswith(".dll"):
            dst = os.path.join(out, "bin", os.path.basename(name))
        elif name.startswith(include) and name.endswith(".h"):
            dst = os.path.join(out, "include", name[len(include):])
        else:
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with z.open(m) as src, open(dst, "wb") as f:
            shutil.copyfileobj(src, f, 1 << 20)
PY
  touch "$out.tmp/.complete"
  rm -rf "$out"
  mv "$out.tmp" "$out"
  ls -l "$out/bin"
}
fetch nvidia-cublas-cu12 12.4.5.8 nvidia/cublas/bin/
fetch nvidia-cuda-nvrtc-cu12 12.4.127 nvidia/cuda_nvrtc/bin/

dist_info() {  # dist_info PROJECT VERSION: the wheel's *.dist-info/ into $CACHE/dist-info/
  local project=$1 version=$2 name=${1//-/_}-$2.dist-info
  local out=$CACHE/dist-info/$name
  if [[ -f $out/RECORD ]]; then echo "cached: $out"; return; fi
  download "$project" "$version"
  mkdir -p "$CACHE/dist-info"
  rm -rf "$out.tmp"
  python3 - "$CACHE/${project//-/_}-$version-py3-none-win_amd64.whl" "$out.tmp" "$name/" <<'PY'
import sys, zipfile, os, shutil
wheel, out, inner = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    for m in z.infolist():
        if m.filename.startswith(inner) and not m.filename.endswith("/"):
            dst = os.path.join(out, m.filename[len(inner):])
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with z.open(m) as src, open(dst, "wb") as f:
                shutil.copyfileobj(src, f)
PY
  mv "$out.tmp" "$out"
  echo "kept: $out"
}
# windows_exe.bundle: swapped from 9.1.0.70 to 9.10.2.21 and back, next to a real cudart
fetch nvidia-cudnn-cu12 9.10.2.21 nvidia/cudnn/bin/
fetch nvidia-cuda-runtime-cu12 12.4.127 nvidia/cuda_runtime/bin/
dist_info nvidia-cudnn-cu12 9.1.0.70
dist_info nvidia-cudnn-cu12 9.10.2.21
dist_info nvidia-cuda-runtime-cu12 12.4.127

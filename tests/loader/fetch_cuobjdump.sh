#!/usr/bin/env bash
# Fetches NVIDIA's cuobjdump for the fat-binary agreement tests (loader.cuobjdump_agreement): the
# nvidia-cuda-cuobjdump manylinux wheel from PyPI (about 300 KB, nvidia/cu13/bin/cuobjdump), cached and
# unpacked to $CACHE/cuobjdump. The default test run never calls this; CI does (.ci/run), and the tests
# find the binary here or through $CUDNNCTL_CUOBJDUMP. A second call downloads nothing.
#   fetch_cuobjdump.sh [CACHE]   (default ${XDG_CACHE_HOME:-~/.cache}/cudnnctl/tools)
set -euo pipefail
CACHE=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl/tools}
OUT=$CACHE/cuobjdump
mkdir -p "$CACHE"
if [[ -x $OUT/cuobjdump ]]; then echo "cached: $OUT/cuobjdump"; exit 0; fi
rm -rf "$CACHE/wheel.tmp" "$OUT.tmp"
mkdir -p "$CACHE/wheel.tmp" "$OUT.tmp"
python3 -m pip download --quiet --no-deps --only-binary=:all: --platform manylinux2014_x86_64 --python-version 3.11 \
  nvidia-cuda-cuobjdump -d "$CACHE/wheel.tmp"
python3 - "$CACHE/wheel.tmp" "$OUT.tmp" <<'PY'
import sys, zipfile, os, glob
wheels = glob.glob(os.path.join(sys.argv[1], "nvidia_cuda_cuobjdump-*.whl"))
if len(wheels) != 1:
    sys.exit("expected one nvidia-cuda-cuobjdump wheel, found %d" % len(wheels))
with zipfile.ZipFile(wheels[0]) as z:
    names = [n for n in z.namelist() if n.endswith("/bin/cuobjdump")]
    if len(names) != 1:
        sys.exit("the wheel holds no bin/cuobjdump")
    dst = os.path.join(sys.argv[2], "cuobjdump")
    with z.open(names[0]) as src, open(dst, "wb") as f:
        f.write(src.read(64 << 20))
    os.chmod(dst, 0o755)
    with open(os.path.join(sys.argv[2], "WHEEL"), "w") as f:
        f.write(os.path.basename(wheels[0]) + "\n")
PY
rm -rf "$OUT" "$CACHE/wheel.tmp"
mv "$OUT.tmp" "$OUT"
"$OUT/cuobjdump" --version | tail -n 2

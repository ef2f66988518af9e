#!/usr/bin/env bash
# bench/gpu_vs_pytorch.sh without a GPU: the scripts parse, the table code passes its self-test, the
# script's layer table matches cudnnctl's (by FLOPs, from a real `cudnnctl bench --json`), and the
# whole script runs end to end on the fake driver and cuDNN (no PyTorch), making the table and
# records; the bundle for a machine without the Debian libraries starts on its own.
#   gpu_script_test.sh CUDNNCTL FAKES_DIR
set -euo pipefail
CUDNNCTL=$1
FAKES=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

bash -n "$ROOT/bench/gpu_vs_pytorch.sh" && bash -n "$ROOT/bench/gpu_bundle.sh" || fail "a script does not parse"
python3 -m py_compile "$ROOT/bench/gpu_vs_pytorch.py" || fail "gpu_vs_pytorch.py does not compile"
python3 "$ROOT/bench/gpu_vs_pytorch.py" --self-test || fail "self-test"

# a toolkit holding the fake cuDNN
tk="$tmp/tk"
mkdir -p "$tk/include" "$tk/lib64" "$tk/bin"
echo "#define CUDA_VERSION 12040" >"$tk/include/cuda.h"
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n' >"$tk/include/cudnn_version.h"
printf '#!/bin/sh\n' >"$tk/bin/nvcc" && chmod +x "$tk/bin/nvcc"
cp "$FAKES"/libcudnn*.so.9 "$tk/lib64/"

out="$tmp/out"
CUDNNCTL=$CUDNNCTL CUDNNCTL_TOOLKIT=$tk CUDNNCTL_DRIVER_LIBRARY=$FAKES/libcuda.so.1 NO_PYTORCH=1 OUT=$out \
  FAKE_EVENT_MS=2.0 bash "$ROOT/bench/gpu_vs_pytorch.sh" || fail "the script failed: $(cat "$out/run.log" 2>/dev/null)"
for f in doctor.json bench.json table.md version.txt run.log; do [[ -s $out/$f ]] || fail "$f was not written"; done
python3 "$ROOT/bench/gpu_vs_pytorch.py" --check-shapes "$out/bench.json" || fail "the layer tables differ"
grep -q '| res4 1x1 reduce | fp32 NCHW | IMPLICIT_PRECOMP_GEMM |' "$out/table.md" || fail "no layer row: $(cat "$out/table.md")"
grep -q '| res2 3x3 | 0.1000 | 0.1000 | 1.00x | - | - |' "$out/table.md" || fail "no fused row: $(cat "$out/table.md")"
grep -q 'Fused correctness against the CPU reference: ok' "$out/table.md" || fail "fused correctness missing"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['layers']) == 14 and len(d['fused']['layers']) == 6" "$out/bench.json" ||
  fail "bench.json lacks layers"

# the bundle: stripped binary and its libraries, starting with only them beside it
XZ_OPT=-0 bash "$ROOT/bench/gpu_bundle.sh" "$CUDNNCTL" "$tmp/devbin" >/dev/null
mkdir "$tmp/unpacked" && tar -xJf "$tmp/devbin/cudnnctl-bundle.tar.xz" -C "$tmp/unpacked"
LD_LIBRARY_PATH=$tmp/unpacked/lib "$tmp/unpacked/cudnnctl" --version | grep -q cudnnctl || fail "the bundled cudnnctl does not start"
[[ -f $tmp/unpacked/lib/libzip.so.4 ]] || fail "libzip is not in the bundle"
[[ ! -e $tmp/unpacked/lib/libc.so.6 ]] || fail "glibc must stay the target's"
echo "ok"

#!/usr/bin/env bash
# The GPU proof, in one run on a machine with an NVIDIA GPU and PyTorch (the device tool's H200):
# `cudnnctl doctor --json`, `cudnnctl bench --json` (the ResNet-50 layers and the fused conv+bias+ReLU)
# on the very cuDNN PyTorch loads, then the same layers in PyTorch, and the side-by-side table.
#
#   here:   bench/gpu_bundle.sh                 # cudnnctl and its libraries, for a machine without them
#   there:  bash bench/gpu_vs_pytorch.sh        # (device run, carry [".devbin"]); writes $OUT or ./gpu-out
#
# The device image has no libzip, libarchive or CLI11 to build against, so cudnnctl comes from the
# bundle made here (its Debian libraries beside it). Overrides, for the test that runs this without a
# GPU: CUDNNCTL (the binary), CUDNNCTL_TOOLKIT (a toolkit tree), CUDNNCTL_DRIVER_LIBRARY (libcuda),
# NO_PYTORCH=1. Each step has a time limit; the whole run stays under five minutes on an H200.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
log() { echo "[gpu_vs_pytorch $(date +%T)] $*" | tee -a "$OUT/run.log" >&2; }

# ---- cudnnctl: given, or unpacked from the bundle
if [[ -z ${CUDNNCTL:-} ]]; then
  if [[ -f .devbin/cudnnctl-bundle.tar.xz ]]; then
    rm -rf /tmp/cudnnctl-gpu && mkdir -p /tmp/cudnnctl-gpu && tar -xJf .devbin/cudnnctl-bundle.tar.xz -C /tmp/cudnnctl-gpu || exit 2
    CUDNNCTL=/tmp/cudnnctl-gpu/cudnnctl
    export LD_LIBRARY_PATH=/tmp/cudnnctl-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  elif [[ -x build/cudnnctl ]]; then
    CUDNNCTL=$PWD/build/cudnnctl
  else
    log "no cudnnctl: run bench/gpu_bundle.sh on the build machine and carry .devbin"; exit 2
  fi
fi
"$CUDNNCTL" --version >"$OUT/version.txt" 2>&1 || { log "cudnnctl does not start here:"; cat "$OUT/version.txt" >&2; exit 2; }
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >"$OUT/device.txt" 2>&1

# ---- the toolkit: PyTorch's own cuDNN (the nvidia-cudnn wheel), so both sides run the same library
if [[ -z ${CUDNNCTL_TOOLKIT:-} ]]; then
  TK=/tmp/cudnnctl-gpu-toolkit
  rm -rf "$TK" && mkdir -p "$TK/include" "$TK/lib64" "$TK/bin"
  CUDNN_DIR=$(python3 -c 'import nvidia.cudnn, os; print(os.path.dirname(nvidia.cudnn.__file__))' 2>/dev/null) ||
    { log "PyTorch's cuDNN wheel (nvidia.cudnn) is not importable"; exit 2; }
  ln -s "$CUDNN_DIR"/lib/libcudnn*.so* "$TK/lib64/"
  ln -s "$CUDNN_DIR"/include/cudnn*.h "$TK/include/"
  CUDA_H=$(ls /usr/local/cuda/include/cuda.h 2>/dev/null | head -1)
  if [[ -n $CUDA_H ]]; then ln -s "$CUDA_H" "$TK/include/cuda.h"; else echo "#define CUDA_VERSION 13000" >"$TK/include/cuda.h"; fi
  printf '#!/bin/sh\nexit 0\n' >"$TK/bin/nvcc" && chmod +x "$TK/bin/nvcc"
  # cuDNN opens cuBLASLt and NVRTC by name: every lib folder of the nvidia wheels, as PyTorch has them
  NV_LIBS=$(python3 - <<'PY'
import glob, os, nvidia
roots = list(getattr(nvidia, "__path__", []))
print(":".join(sorted({os.path.dirname(p) for r in roots for p in glob.glob(os.path.join(r, "**", "lib*.so*"), recursive=True)})))
PY
)
  export LD_LIBRARY_PATH=${NV_LIBS}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  CUDNNCTL_TOOLKIT=$TK
fi
DRIVER_ARGS=()
[[ -n ${CUDNNCTL_DRIVER_LIBRARY:-} ]] && DRIVER_ARGS=(--driver-library "$CUDNNCTL_DRIVER_LIBRARY")
log "cudnnctl $("$CUDNNCTL" --version | head -1); toolkit $CUDNNCTL_TOOLKIT"

# ---- 1. doctor (exit 0, 10 or 11 are all answers; the JSON is the record)
timeout 120 "$CUDNNCTL" doctor --json --cuda-path "$CUDNNCTL_TOOLKIT" "${DRIVER_ARGS[@]}" >"$OUT/doctor.json" 2>>"$OUT/run.log"
log "doctor exit $?"
"$CUDNNCTL" doctor --cuda-path "$CUDNNCTL_TOOLKIT" --html "$OUT/doctor.html" "${DRIVER_ARGS[@]}" --no-gpu >/dev/null 2>&1

# ---- 2. bench: the full layer set, fp16 NHWC and fp32 NCHW, and the fused conv+bias+ReLU
timeout 240 "$CUDNNCTL" bench --json --cuda-path "$CUDNNCTL_TOOLKIT" "${DRIVER_ARGS[@]}" >"$OUT/bench.json" 2>>"$OUT/run.log"
rc=$?
log "bench exit $rc"
[[ -s $OUT/bench.json ]] || { log "bench printed nothing"; exit 1; }
"$CUDNNCTL" bench --cuda-path "$CUDNNCTL_TOOLKIT" "${DRIVER_ARGS[@]}" --quick >"$OUT/bench-quick.txt" 2>&1

# ---- 3. PyTorch on the same layers, then the table
PY_ARGS=(--ours "$OUT/bench.json" --doctor "$OUT/doctor.json" --markdown "$OUT/table.md" --out-json "$OUT/pytorch.json")
[[ ${NO_PYTORCH:-0} == 1 ]] && PY_ARGS+=(--no-pytorch)
PYTHONUNBUFFERED=1 timeout 240 python3 bench/gpu_vs_pytorch.py "${PY_ARGS[@]}" 2>>"$OUT/run.log"
rc_py=$?
log "table exit $rc_py"
exit $((rc_py != 0))

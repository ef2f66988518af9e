#!/usr/bin/env bash
# The GPU proof, in one run on a machine with an NVIDIA GPU and PyTorch (the device tool's H200): the
# environment, the GPU's properties as cuDNN reads them, `cudnnctl doctor --json`, a 20-second smoke
# run, the full ResNet-50 layer set and the fused conv+bias+ReLU on the very cuDNN PyTorch loads, the same
# layers in PyTorch (run even when cudnnctl's side fails), and the side-by-side table.
#
#   here:   bench/gpu_bundle.sh                 # cudnnctl and its libraries, for a machine without them
#   there:  bash bench/gpu_vs_pytorch.sh        # device run: carry [".devbin"], timeout_s 480
#
# Results go to $OUT (or ./gpu-out) as they come, at most 8 files (the device tool brings back 8):
#   env.txt  run.log  device.json  doctor.json  smoke.jsonl  bench.jsonl  pytorch.jsonl  table.md
# Every step has a time limit (STEP_LIMITS below, their sum with the kill grace under 480 s) and writes
# its lines straight into its file, so a step that is killed keeps what it printed.
#
# Only cudnnctl sees the bundle's Debian libraries and the wheels' library folders (through `env` on
# its own command line); python3 and torch run with the environment they came with.
# Overrides, for the test that runs this without a GPU: CUDNNCTL (the binary), CUDNNCTL_BUNDLE (a
# bundle), CUDNNCTL_DRIVER_LIBRARY (libcuda), NO_PYTORCH=1, PYTHON (default python3), GPU_WORK (default
# /tmp/cudnnctl-gpu), GPU_STEP_LIMITS ("bench=2 smoke=2": shorter limits).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/gpu-out}
mkdir -p "$OUT"
PYTHON=${PYTHON:-python3}
T0=$SECONDS
log() { echo "[gpu_vs_pytorch +$((SECONDS - T0))s] $*" | tee -a "$OUT/run.log" >&2; }

# step NAME LIMIT_S OUTFILE CMD...: CMD under a time limit (then 2 s to die), its stdout appended to OUTFILE
# as it is written, its stderr to run.log.
declare -A STEP_LIMITS=([env]=30 [device]=20 [doctor]=60 [smoke]=20 [bench]=150 [pytorch]=160 [table]=15)
KILL_GRACE=2
for kv in ${GPU_STEP_LIMITS:-}; do STEP_LIMITS[${kv%%=*}]=${kv#*=}; done  # tests shorten a step: "bench=2"
WORK=${GPU_WORK:-/tmp/cudnnctl-gpu}  # the unpacked bundle and the toolkit made from the wheel
step() {
  local name=$1 out=$2 limit=${STEP_LIMITS[$1]}
  shift 2
  log "$name: start (limit ${limit} s)"
  timeout -k "$KILL_GRACE" "$limit" "$@" >>"$out" 2>>"$OUT/run.log"
  local rc=$?
  log "$name: exit $rc$( ((rc == 124 || rc == 137)) && echo ' (time limit)')"
  return $rc
}

# ---- cudnnctl: given, or unpacked from the bundle (its libraries for cudnnctl only)
CUDNNCTL_LD=${LD_LIBRARY_PATH:-}
BUNDLE=${CUDNNCTL_BUNDLE:-.devbin/cudnnctl-bundle.tar.xz}
if [[ -z ${CUDNNCTL:-} && -f $BUNDLE ]]; then
  rm -rf "$WORK/bundle" && mkdir -p "$WORK/bundle"
  if command -v xz >/dev/null; then tar -xJf "$BUNDLE" -C "$WORK/bundle"
  else "$PYTHON" -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$BUNDLE" "$WORK/bundle"; fi ||
    { log "the bundle does not unpack"; exit 2; }
  CUDNNCTL=$WORK/bundle/cudnnctl
  CUDNNCTL_LD=$WORK/bundle/lib${CUDNNCTL_LD:+:$CUDNNCTL_LD}
elif [[ -z ${CUDNNCTL:-} && -x build/cudnnctl ]]; then
  CUDNNCTL=$PWD/build/cudnnctl
elif [[ -z ${CUDNNCTL:-} ]]; then
  log "no cudnnctl: run bench/gpu_bundle.sh on the build machine and carry .devbin"; exit 2
fi

# ---- the toolkit: PyTorch's own cuDNN wheel (nvidia.cudnn, a namespace package in the cu13 wheels:
# no __file__, so its __path__), so both sides run the same library
TK=$WORK/toolkit
rm -rf "$TK" && mkdir -p "$TK/include" "$TK/lib64" "$TK/bin"
CUDNN_DIR=$("$PYTHON" -c 'import nvidia.cudnn as m; print(list(m.__path__)[0])' 2>>"$OUT/run.log")
if [[ -z $CUDNN_DIR || ! -d $CUDNN_DIR/lib ]]; then
  log "PyTorch's cuDNN wheel (nvidia.cudnn) is not importable or has no lib folder: cudnnctl's side cannot run"
  CUDNN_DIR=""
else
  ln -s "$CUDNN_DIR"/lib/libcudnn*.so* "$TK/lib64/"
  ln -s "$CUDNN_DIR"/include/cudnn*.h "$TK/include/"
  if [[ -f /usr/local/cuda/include/cuda.h ]]; then ln -s /usr/local/cuda/include/cuda.h "$TK/include/cuda.h"
  else echo "#define CUDA_VERSION 13000" >"$TK/include/cuda.h"; fi
  printf '#!/bin/sh\nexit 0\n' >"$TK/bin/nvcc" && chmod +x "$TK/bin/nvcc"
  # cuDNN opens cuBLASLt and NVRTC by name: every lib folder of the nvidia wheels (nvidia/cu13/lib,
  # nvidia/cuda_nvrtc/lib, ...), for cudnnctl only
  NV_LIBS=$("$PYTHON" - <<'PY' 2>>"$OUT/run.log"
import glob, os, nvidia
roots = list(getattr(nvidia, "__path__", []))
print(":".join(sorted({os.path.dirname(p) for r in roots for p in glob.glob(os.path.join(r, "**", "lib*.so*"), recursive=True)})))
PY
)
  CUDNNCTL_LD=${NV_LIBS}${CUDNNCTL_LD:+:$CUDNNCTL_LD}
fi
RUN_CUDNNCTL=(env "LD_LIBRARY_PATH=$CUDNNCTL_LD" "$CUDNNCTL")
DRIVER=${CUDNNCTL_DRIVER_LIBRARY:-libcuda.so.1}
CUDNN_LIB=$TK/lib64/libcudnn.so.9

# ---- 0. the environment, first
env_report() {
  echo "date: $(date -u +%FT%TZ)"
  echo "os: $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME") ($(uname -srm))"
  echo "glibc: $(getconf GNU_LIBC_VERSION 2>/dev/null || ldd --version 2>&1 | head -1)"
  echo "xz: $(command -v xz || echo 'absent (the bundle unpacks through python3 tarfile)')"
  echo "nvidia-smi: $(timeout 10 nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv,noheader 2>&1 | head -3)"
  echo "cudnnctl: $("${RUN_CUDNNCTL[@]}" --version 2>&1 | head -1)"
  echo "cudnnctl's libraries not found: $(env "LD_LIBRARY_PATH=$CUDNNCTL_LD" ldd "$CUDNNCTL" 2>&1 | grep -c 'not found')"
  echo "cudnnctl's LD_LIBRARY_PATH: $CUDNNCTL_LD"
  echo "cuDNN wheel: ${CUDNN_DIR:-none} ($(grep -hE '#define CUDNN_(MAJOR|MINOR|PATCHLEVEL) ' "$CUDNN_DIR"/include/cudnn_version*.h 2>/dev/null | awk '{printf "%s ", $3}'))"
  echo "python3: $("$PYTHON" --version 2>&1)"
  "$PYTHON" - <<'PY' 2>&1
import os
print("python3's LD_LIBRARY_PATH:", os.environ.get("LD_LIBRARY_PATH", ""))
try:
    import torch
    print("torch:", torch.__version__, "CUDA", torch.version.cuda, "cuDNN", torch.backends.cudnn.version())
    print("torch device:", torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no CUDA device")
except Exception as e:  # the record says why, the run goes on
    print("torch: not usable:", type(e).__name__, e)
PY
}
step env "$OUT/env.txt" bash -c "$(declare -f env_report); $(declare -p CUDNNCTL CUDNNCTL_LD CUDNN_DIR PYTHON RUN_CUDNNCTL); env_report"

# ---- 1. the GPU's properties as cuDNN reads them (for the real_cudnn CTest: data/devices/)
[[ -n $CUDNN_DIR ]] && step device "$OUT/run.log" "$PYTHON" bench/dump_devprop.py "$CUDNN_LIB" "$OUT/device.json"

ours_ok=0
if [[ -n $CUDNN_DIR ]]; then
  # ---- 2. doctor (exit 0, 10 or 11 are all answers; the JSON is the record)
  step doctor "$OUT/doctor.json" "${RUN_CUDNNCTL[@]}" doctor --json --cuda-path "$TK" --driver-library "$DRIVER"
  # ---- 3. smoke: the quick layers and the fused check, a short warm-up; JSON lines as they come
  step smoke "$OUT/smoke.jsonl" "${RUN_CUDNNCTL[@]}" __workload --cudnn-library "$CUDNN_LIB" --major 9 --driver-library "$DRIVER" \
    --fused --warmup-ms 100
  grep -q '"step":"done"' "$OUT/smoke.jsonl" 2>/dev/null && ours_ok=1
  # ---- 4. the full set (cudnnFindEx on every layer, four engine configs a fused layer), warmed up for 300 ms
  if ((ours_ok)); then
    step bench "$OUT/bench.jsonl" "${RUN_CUDNNCTL[@]}" __workload --cudnn-library "$CUDNN_LIB" --major 9 --driver-library "$DRIVER" \
      --full --fused --warmup-ms 300
  else
    log "bench: skipped (the smoke run did not finish: see smoke.jsonl and run.log); PyTorch still runs"
  fi
fi

# ---- 5. PyTorch on the same layers, whatever happened to cudnnctl's side, one line a layer
if [[ ${NO_PYTORCH:-0} != 1 ]]; then
  step pytorch "$OUT/pytorch.jsonl" env PYTHONUNBUFFERED=1 "$PYTHON" bench/gpu_vs_pytorch.py --pytorch
fi

# ---- 6. the table, from whatever the steps left
ours=$OUT/bench.jsonl
[[ -s $ours ]] || ours=$OUT/smoke.jsonl
step table "$OUT/table.md" "$PYTHON" bench/gpu_vs_pytorch.py --ours "$ours" --theirs "$OUT/pytorch.jsonl" --doctor "$OUT/doctor.json"
rc_table=$?
log "done in $((SECONDS - T0)) s; $(ls "$OUT" | wc -l) files in $OUT"
((ours_ok && rc_table == 0)) || exit 1

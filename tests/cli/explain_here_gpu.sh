#!/usr/bin/env bash
# explain --here on GPU messages: the fake driver's GPU (FAKE_CC_MAJOR/MINOR, FAKE_GPU_NAME; it runs CUDA up to
# 12.4) and the image's real cuDNN 9.19 for CUDA 13, which the loader finds through LD_LIBRARY_PATH.
#   explain_here_gpu.sh CUDNNCTL FAKE_LIBCUDA CUDNN_LIBDIR
set -u
C=$(realpath "$1"); FAKE=$(realpath "$2"); LIBDIR=$3
if [ ! -e "$LIBDIR/libcudnn.so.9" ]; then echo "SKIP: no cuDNN 9 in $LIBDIR"; exit 0; fi
W=$(mktemp -d "${TMPDIR:-/tmp}/cudnnctl-explain-here.XXXXXX"); trap 'rm -rf "$W"' EXIT
failures=0
check() { local what=$1; shift; if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi; }
printf 'RuntimeError: CUDA error: no kernel image is available for execution on the device\n' > "$W/kernel.log"
printf 'cudnn error: CUDNN_STATUS_ARCH_MISMATCH\n' > "$W/arch.log"
printf 'RuntimeError: The NVIDIA driver on your system is too old (found version 12040)\n' > "$W/driver.log"
ex() { env LD_LIBRARY_PATH="$LIBDIR" "$@"; }

out=$(ex FAKE_CC_MAJOR=6 FAKE_CC_MINOR=1 FAKE_GPU_NAME="NVIDIA GeForce GTX 1080" "$C" explain "$W/kernel.log" --here --driver-library "$FAKE" 2>&1)
echo "$out"
check "sm_61: the GPU, its architecture, a cuDNN library and what it carries, no kernel, the fix" \
  bash -c 'grep -q "here: GPU 0 NVIDIA GeForce GTX 1080 is sm_61 (compute 6.1); the libcudnn_[a-z_]*.so.9 at .* carries SASS sm_75.*: no kernel for it; fix: install a cuDNN built for sm_61" <<< "$1"' _ "$out"

out=$(ex FAKE_CC_MAJOR=6 FAKE_CC_MINOR=1 "$C" explain "$W/arch.log" --here --driver-library "$FAKE" --json 2>&1)
check "ARCH_MISMATCH, JSON: here.gpu names sm_61 and no kernel" \
  python3 -c 'import json,sys; d=json.loads(sys.argv[1]); g=d["matches"][0]["here"]["gpu"]; sys.exit(0 if "sm_61" in g[0] and "no kernel for it" in g[0] else 1)' "$out"

out=$(ex FAKE_CC_MAJOR=9 FAKE_CC_MINOR=0 FAKE_GPU_NAME=H100 "$C" explain "$W/kernel.log" --here --driver-library "$FAKE" 2>&1)
check "sm_90: cuDNN has code for it, so the kernel missing is the program's own" \
  bash -c 'grep -q "here: GPU 0 H100 is sm_90 (compute 9.0); the cuDNN at .* has code for it in every library (sm_90.*device.arch.program-build" <<< "$1"' _ "$out"

out=$(ex FAKE_CC_MAJOR=9 FAKE_CC_MINOR=0 "$C" explain "$W/driver.log" --here --driver-library "$FAKE" 2>&1)
echo "$out"
check "driver too old: the driver's CUDA, the cuDNN's CUDA 13, NVIDIA's floor and the fix" \
  bash -c 'grep -q "here: .*runs CUDA up to 12.4; the cuDNN at .* is for CUDA 13 (NVIDIA.s floor: 580[0-9.]*): update the driver to 580" <<< "$1"' _ "$out"

out=$(ex FAKE_CU_INIT=100 "$C" explain "$W/kernel.log" --here --driver-library "$FAKE" 2>&1)
check "no driver answering: said so, no GPU invented" bash -c 'grep -q "here: no NVIDIA driver answered here" <<< "$1"' _ "$out"

out=$(ex "$C" explain "$W/kernel.log" 2>&1)
check "without --here nothing is probed" bash -c '! grep -q "here:" <<< "$1"' _ "$out"
if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi
echo "all checks passed"

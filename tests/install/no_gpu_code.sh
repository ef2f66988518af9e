#!/usr/bin/env bash
# install refuses an archive whose libraries carry no code for a GPU of this machine (install.no-gpu-code,
# exit 15), before anything is placed; --force installs it anyway; a GPU it has code for installs; a driver
# older than the archive's CUDA warns. The GPU is the fake driver's (FAKE_CC_MAJOR/MINOR), the library is
# built here by nvcc for sm_75..sm_90 only.   no_gpu_code.sh CUDNNCTL FAKE_LIBCUDA
FAKE_CUDA=$(realpath "$2")
. "$(dirname "$0")/hostile/common.sh" "$1"
NVCC=${CUDNNCTL_NVCC:-/usr/local/cuda/bin/nvcc}
if [ ! -x "$NVCC" ]; then echo "SKIP: no nvcc at $NVCC"; exit 0; fi
printf '__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\nextern "C" void launch(float* x) { k<<<1, 32>>>(x); }\n' > k.cu
"$NVCC" -shared -Xcompiler -fPIC -o libk.so k.cu -gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 \
  -gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90 || { echo "FAIL: nvcc"; exit 1; }
rm -f $N/lib/libcudnn_ops.so.9.19.0; cp libk.so $N/lib/libcudnn_ops.so.9.19.0
rm -f $N.tar.xz; tar -cJf $N.tar.xz $N; H=$(sha256sum $N.tar.xz | cut -d' ' -f1)
mk_tk tk; before=$(snap tk)
run() { "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path --driver-library "$FAKE_CUDA" "$@"; }

out=$(FAKE_CC_MAJOR=12 FAKE_CC_MINOR=0 FAKE_GPU_NAME="NVIDIA GeForce RTX 5090" run --json 2>&1); rc=$?
echo "$out" | head -c 1500; echo
check "sm_120: refused with exit 15" [ $rc -eq 15 ]
if [ $rc -ne 15 ]; then  # say why: the driver-only probe child's answer, from the developer log of the same run
  echo "--- warnings of that run:"; echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("warnings"))' 2>&1
  "$C" uninstall --cuda-path tk > /dev/null 2>&1
  FAKE_CC_MAJOR=12 FAKE_CC_MINOR=0 run -vv --log-file diag.log > /dev/null 2>&1
  echo "--- the same run at -vv, its probe lines:"; grep -iE "probe|driver|run .*__probe|exit code|timed out" diag.log | tail -n 40
  "$C" uninstall --cuda-path tk > /dev/null 2>&1
fi
check "sm_120: the error id, the GPU, the library and the code it carries" \
  bash -c 'grep -q "install.no-gpu-code" <<< "$1" && grep -q "RTX 5090 (compute 12.0)" <<< "$1" && grep -q "libcudnn_ops.so.9.19.0" <<< "$1" && grep -q "sm_75 sm_80 sm_86 sm_90" <<< "$1" && grep -q "sm_120" <<< "$1"' _ "$out"
check "sm_120: nothing placed" [ "$(snap tk)" = "$before" ]

out=$(FAKE_CC_MAJOR=12 FAKE_CC_MINOR=0 run --force 2>&1); rc=$?
check "sm_120 with --force: installed, with the refusal as a warning" bash -c '[ $0 -eq 0 ] && grep -q "installing anyway: --force" <<< "$1"' $rc "$out"
check "the CUDA 13 archive on a driver that runs CUDA 12.4 warns" grep -q "warning: .*runs CUDA up to 12.4" <<< "$out"
"$C" uninstall --cuda-path tk > /dev/null
check "uninstall after --force restores the toolkit" [ "$(snap tk)" = "$before" ]

out=$(FAKE_CC_MAJOR=9 FAKE_CC_MINOR=0 run 2>&1); rc=$?
check "sm_90: installed (exit 0)" [ $rc -eq 0 ]
check "sm_90: no refusal" bash -c '! grep -q "no GPU code" <<< "$1"' _ "$out"
"$C" uninstall --cuda-path tk > /dev/null

out=$(FAKE_CU_INIT=100 run 2>&1); rc=$?
check "no GPU seen by the driver: installed, nothing to compare" [ $rc -eq 0 ]
finish

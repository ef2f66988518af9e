#!/usr/bin/env bash
# bench/gpu_vs_pytorch.sh without a GPU, on the fake driver and cuDNN: the scripts parse; the table code
# passes its self-test; the step limits add up to less than the device call's 480 s; and the whole
# script runs end to end on each real layout of PyTorch's cuDNN wheel, as namespace packages (no
# __init__.py, so nvidia.cudnn has no __file__): cu13 (nvidia/cudnn/lib beside nvidia/cu13/lib, as the
# RECORD of nvidia_cudnn_cu13 9.19 lists it), cu12 the same way (nvidia/cuda_nvrtc/lib), and cu12 9.1's
# regular package (nvidia/cudnn/__init__.py). Then: the bundle, seen by cudnnctl only; PyTorch's side
# when cudnnctl's fails; a step cut short by its limit keeps the lines it printed. No wheel is downloaded.
#   gpu_script_test.sh CUDNNCTL FAKES_DIR
set -euo pipefail
CUDNNCTL=$1
FAKES=$2
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SCRIPT=$ROOT/bench/gpu_vs_pytorch.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

bash -n "$SCRIPT" && bash -n "$ROOT/bench/gpu_bundle.sh" || fail "a script does not parse"
python3 -m py_compile "$ROOT/bench/gpu_vs_pytorch.py" "$ROOT/bench/dump_devprop.py" || fail "a Python script does not compile"
python3 "$ROOT/bench/gpu_vs_pytorch.py" --self-test || fail "self-test"

# every step named has a limit, and the limits with their kill grace stay under the device call's 480 s
eval "$(grep -E '^declare -A STEP_LIMITS=|^KILL_GRACE=' "$SCRIPT")"
total=0
for name in "${!STEP_LIMITS[@]}"; do total=$((total + STEP_LIMITS[$name] + KILL_GRACE)); done
((total < 480)) || fail "the step limits add up to $total s, over 480"
for name in $(grep -oE '^\s*(\[\[.*\]\] && )?step [a-z]+' "$SCRIPT" | awk '{print $NF}'); do
  [[ -n ${STEP_LIMITS[$name]:-} ]] || fail "step $name has no limit"
done
echo "step limits: $total s in all"

# site-packages trees with a wheel's layout (file names as in its RECORD), holding the fake cuDNN
make_site() {  # make_site DIR cu13|cu12|cu12-regular
  local site=$1
  mkdir -p "$site/nvidia/cudnn/lib" "$site/nvidia/cudnn/include"
  cp "$FAKES"/libcudnn*.so.9 "$site/nvidia/cudnn/lib/"
  printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n' >"$site/nvidia/cudnn/include/cudnn_version.h"
  case $2 in
  cu13) mkdir -p "$site/nvidia/cu13/lib" && : >"$site/nvidia/cu13/lib/libnvrtc.so.13" ;;
  cu12) mkdir -p "$site/nvidia/cuda_nvrtc/lib" && : >"$site/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" ;;
  cu12-regular)
    mkdir -p "$site/nvidia/cuda_nvrtc/lib" && : >"$site/nvidia/cuda_nvrtc/lib/libnvrtc.so.12"
    : >"$site/nvidia/cudnn/__init__.py" ;;
  esac
}

run_script() {  # run_script LAYOUT OUT [VAR=VALUE...]: the script on that layout, with the fake driver
  local layout=$1 out=$2
  shift 2
  [[ -d $tmp/site-$layout ]] || make_site "$tmp/site-$layout" "$layout"
  env PYTHONPATH="$tmp/site-$layout" CUDNNCTL_DRIVER_LIBRARY="$FAKES/libcuda.so.1" NO_PYTORCH=1 OUT="$out" GPU_WORK="$tmp/gpu-work" \
    FAKE_EVENT_MS=2.0 "$@" bash "$SCRIPT" >"$out.console" 2>&1
}

for layout in cu13 cu12 cu12-regular; do
  out="$tmp/out-$layout"
  run_script "$layout" "$out" CUDNNCTL="$CUDNNCTL" || fail "$layout: the script failed: $(cat "$out.console")"
  for f in env.txt run.log device.json doctor.json smoke.jsonl bench.jsonl table.md; do
    [[ -s $out/$f ]] || fail "$layout: $f was not written: $(cat "$out.console")"
  done
  (($(ls "$out" | wc -l) <= 8)) || fail "$layout: more than 8 files: $(ls "$out")"
  grep -q "cuDNN wheel: $tmp/site-$layout/nvidia/cudnn (9 19 0 )" "$out/env.txt" || fail "$layout: wheel not found by __path__: $(cat "$out/env.txt")"
  for key in '^os: ' '^glibc: ' '^nvidia-smi: ' '^torch: ' '^python3: ' '^cudnnctl: cudnnctl'; do
    grep -q "$key" "$out/env.txt" || fail "$layout: env.txt lacks $key: $(cat "$out/env.txt")"
  done
  nvrtc_dir=$tmp/site-$layout/nvidia/$([[ $layout == cu13 ]] && echo cu13 || echo cuda_nvrtc)/lib
  grep -q "^cudnnctl's LD_LIBRARY_PATH: .*$nvrtc_dir" "$out/env.txt" || fail "$layout: $nvrtc_dir is not on cudnnctl's path"
  [[ $(head -1 "$out/env.txt") == date:* ]] || fail "$layout: the environment is not printed first"
  grep -q '"step":"done"' "$out/bench.jsonl" || fail "$layout: bench.jsonl has no done line"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['cudnn_device_properties']['deviceName'] == 'NVIDIA Fake GPU'" \
    "$out/device.json" || fail "$layout: device.json is not in the real_cudnn test's form: $(cat "$out/device.json")"
done
out=$tmp/out-cu13
python3 "$ROOT/bench/gpu_vs_pytorch.py" --check-shapes "$out/bench.jsonl" || fail "the layer tables differ"
grep -q '| res4 1x1 reduce | fp32 NCHW | IMPLICIT_PRECOMP_GEMM |' "$out/table.md" || fail "no layer row: $(cat "$out/table.md")"
grep -q '| res2 3x3 | 0.1000 | 0.1000 | 1.00x | - | - |' "$out/table.md" || fail "no fused row: $(cat "$out/table.md")"
grep -q 'Fused correctness against the CPU reference: ok' "$out/table.md" || fail "fused correctness missing"
python3 -c "
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
layers = [l for l in lines if l['step'] == 'layer']
fused = [l for l in lines if l['step'] == 'fused']
assert len(layers) == 14 and len(fused) == 1 and len(fused[0]['result']['layers']) == 6, (len(layers), len(fused))
" "$out/bench.jsonl" || fail "bench.jsonl lacks layers"

# the bundle: stripped binary and its libraries; cudnnctl sees them, python3 does not
XZ_OPT=-0 bash "$ROOT/bench/gpu_bundle.sh" "$CUDNNCTL" "$tmp/devbin" >/dev/null
mkdir "$tmp/unpacked" && tar -xJf "$tmp/devbin/cudnnctl-bundle.tar.xz" -C "$tmp/unpacked"
LD_LIBRARY_PATH=$tmp/unpacked/lib "$tmp/unpacked/cudnnctl" --version | grep -q cudnnctl || fail "the bundled cudnnctl does not start"
[[ -f $tmp/unpacked/lib/libzip.so.4 ]] || fail "libzip is not in the bundle"
[[ ! -e $tmp/unpacked/lib/libc.so.6 ]] || fail "glibc must stay the target's"
out=$tmp/out-bundle
run_script cu13 "$out" CUDNNCTL_BUNDLE="$tmp/devbin/cudnnctl-bundle.tar.xz" || fail "bundle: the script failed: $(cat "$out.console")"
grep -q "^cudnnctl's LD_LIBRARY_PATH: .*$tmp/gpu-work/bundle/lib" "$out/env.txt" || fail "bundle: cudnnctl does not get the bundle's libraries"
grep "^python3's LD_LIBRARY_PATH" "$out/env.txt" | grep -q "$tmp/gpu-work/bundle/lib" && fail "bundle: python3 sees the bundle's libraries"
grep -q '^cudnnctl: cudnnctl' "$out/env.txt" || fail "bundle: the bundled cudnnctl did not start: $(cat "$out/env.txt")"

# cudnnctl's side fails (no GPU for cuInit): PyTorch's side still runs, and the table says both
cat >"$tmp/python3-stub" <<EOF
#!/usr/bin/env bash
# python3, except that --pytorch prints two layers as PyTorch would (no torch here)
if [[ " \$* " == *" --pytorch "* ]]; then
  echo '{"kind": "meta", "torch": "stub", "cudnn": 91900, "device": "NVIDIA H200"}'
  echo '{"kind": "layer", "layer": "res2 3x3", "precision": "fp16 NHWC", "median_ms": 0.1, "min_ms": 0.1, "tflops": 148.0}'
  exit 0
fi
exec python3 "\$@"
EOF
chmod +x "$tmp/python3-stub"
out=$tmp/out-nogpu
if run_script cu13 "$out" CUDNNCTL="$CUDNNCTL" NO_PYTORCH=0 PYTHON="$tmp/python3-stub" FAKE_CU_INIT=100; then
  fail "the script succeeded without a GPU"
fi
grep -q '"torch": "stub"' "$out/pytorch.jsonl" || fail "PyTorch's side did not run when cudnnctl's failed: $(cat "$out/run.log")"
grep -q "cudnnctl's side stopped: cuInit failed: CUDA_ERROR_NO_DEVICE" "$out/table.md" || fail "the table hides cudnnctl's failure: $(cat "$out/table.md")"
grep -q 'PyTorch stub with cuDNN 91900' "$out/table.md" || fail "the table lacks PyTorch's side: $(cat "$out/table.md")"

# a step cut short by its limit keeps the lines it printed, and the table is made from them
out=$tmp/out-slow
run_script cu13 "$out" CUDNNCTL="$CUDNNCTL" FAKE_EVENT_SLEEP_MS=300 GPU_STEP_LIMITS="smoke=6 doctor=3" && fail "a killed smoke run passed"
grep -q 'smoke: exit 124 (time limit)' "$out/run.log" || fail "the smoke step was not cut short: $(cat "$out/run.log")"
grep -q '"step":"layer"' "$out/smoke.jsonl" || fail "the smoke step's lines were lost: $(cat "$out/smoke.jsonl")"
grep -q 'did not finish' "$out/table.md" || fail "the table does not say the run was cut short: $(cat "$out/table.md")"
grep -q 'bench: skipped' "$out/run.log" || fail "the full run was not skipped after a failed smoke run"
echo "ok"

#!/usr/bin/env bash
# packaging/nhc/cudnnctl.nhc as NHC runs it: sourced into bash, its check_cudnnctl called, NHC's die() recording
# what it is given (NHC itself is not packaged in Debian). A toolkit copy with a truncated libcudnn.so.9 dies
# with cudnnctl's one-line reason; the healthy copy passes; a doctor that cannot run dies saying so. And
# doctor --slurm-health without scontrol on PATH: exit 19 (slurm.scontrol-failed).
#   nhc_check_test.sh CUDNNCTL SOURCE_DIR
set -euo pipefail
skip() {  # CI sets CUDNNCTL_REQUIRE_FLEET=1 (.ci/run): there a missing engine fails the test
  [[ -z ${CUDNNCTL_REQUIRE_FLEET:-} ]] || { echo "FAIL (CUDNNCTL_REQUIRE_FLEET is set): $*"; exit 1; }
  echo "SKIP: $*"; exit 0
}
CUDNNCTL=$(realpath "$1") SRC=$2
CUDA=${CUDNNCTL_SLURM_CUDA:-/usr/local/cuda}
[[ -f $CUDA/lib64/libcudnn.so.9 ]] || skip "needs a toolkit with cuDNN 9 to copy ($CUDA)"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
source "$(dirname "$0")/toolkit_copy.sh"
make_toolkit_copy "$CUDA" "$T/cuda"
died=()
die() { died+=("$1|$2"); }
export CUDNNCTL_NHC=$CUDNNCTL LD_LIBRARY_PATH=$T/cuda/lib64
source "$SRC/packaging/nhc/cudnnctl.nhc"

check_cudnnctl --cuda-path "$T/cuda" || { echo "FAIL: the healthy toolkit failed: ${died[*]}"; exit 1; }
[[ ${#died[@]} == 0 ]] || { echo "FAIL: die called for a healthy toolkit: ${died[*]}"; exit 1; }

damage_toolkit_copy "$T/cuda"
if check_cudnnctl --cuda-path "$T/cuda"; then echo "FAIL: a truncated libcudnn.so.9 passed"; exit 1; fi
[[ ${#died[@]} == 1 && ${died[0]} == "1|cudnnctl: "*": "* && ${died[0]} != *$'\n'* ]] ||
  { echo "FAIL: die was not called once with cudnnctl's reason: ${died[*]}"; exit 1; }
echo "died with: ${died[0]#1|}"

died=()
if check_cudnnctl --cuda-path "$T/no-such-toolkit"; then echo "FAIL: a missing toolkit passed"; exit 1; fi
[[ ${died[0]} == "1|cudnnctl: doctor could not run (exit code 2): "* ]] || { echo "FAIL: ${died[*]}"; exit 1; }

# doctor --slurm-health where scontrol cannot be run: exit 19 with slurm.scontrol-failed, the doctor's document kept
mkdir -p "$T/bin"; ln -s "$(command -v hostname)" "$T/bin/hostname"
rc=0; PATH=$T/bin "$CUDNNCTL" doctor --slurm-health --cuda-path "$T/cuda" --json > "$T/noslurm.json" || rc=$?
python3 - "$T/noslurm.json" "$rc" <<'PY'
import json, sys
doc, rc = json.load(open(sys.argv[1])), int(sys.argv[2])
assert rc == 19 and doc["exit_code"] == 19, (rc, doc.get("exit_code"))
assert doc["error"]["code"] == "slurm.scontrol-failed", doc["error"]
assert "not on PATH" in doc["error"]["message"], doc["error"]["message"]
assert doc["checks"], "the doctor's checks are not in the document"
PY
echo "no scontrol: exit 19, slurm.scontrol-failed"
echo "nhc: 4 passed, 0 failed"

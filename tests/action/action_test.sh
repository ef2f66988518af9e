#!/usr/bin/env bash
# Runs the GitHub Action's script as a runner would: INPUT_* variables, GITHUB_OUTPUT/ENV/PATH files.
#   action_test.sh CUDNNCTL SOURCE_DIR TEST_ARCHIVES
set -euo pipefail
CUDNNCTL=$1 SRC=$2 ARCHIVES=$3
source "$SRC/tests/action/fake_toolkit.sh"
export GITHUB_ACTIONS=true GITHUB_OUTPUT=$TMP/output GITHUB_ENV=$TMP/env GITHUB_PATH=$TMP/path
export INPUT_ARCHIVE=$archive INPUT_CUDA_PATH=$tk INPUT_SHA256=$(sha256sum "$archive" | cut -d' ' -f1) CUDNNCTL ACTION_DIR=$SRC
bash "$SRC/scripts/action.sh" > /dev/null
grep -qx "cudnn-version=9.1.0.70" "$GITHUB_OUTPUT"
grep -qx "cuda-path=$tk" "$GITHUB_OUTPUT"
grep -qx "changed=true" "$GITHUB_OUTPUT"
grep -q "^CUDA_PATH<<ghadelimiter_" "$GITHUB_ENV"
grep -qx "$tk/bin" "$GITHUB_PATH"
[[ -L $tk/lib64/libcudnn.so.9 ]]
# a second run of the same step changes nothing
: > "$GITHUB_OUTPUT"
bash "$SRC/scripts/action.sh" > /dev/null
grep -qx "changed=false" "$GITHUB_OUTPUT"
# no input at all is an error for the workflow log
if INPUT_ARCHIVE= bash "$SRC/scripts/action.sh" > "$TMP/err" 2>&1; then echo "FAIL: no input accepted"; exit 1; fi
grep -q "::error::" "$TMP/err"
echo "action: 1 passed, 0 failed"

#!/usr/bin/env bash
# The GitHub Action's step (action.yml): install cuDNN with cudnnctl and write the step's outputs.
# Inputs come as INPUT_* variables; CUDNNCTL names the binary (default: cudnnctl on PATH, else built
# from the action's own checkout with scripts/setup.sh).
set -euo pipefail
ACTION_DIR=${ACTION_DIR:-$(cd "$(dirname "$0")/.." && pwd)}
if [[ -z ${CUDNNCTL:-} ]]; then
  if command -v cudnnctl >/dev/null; then
    CUDNNCTL=cudnnctl
  else
    "$ACTION_DIR/scripts/setup.sh" >&2
    CUDNNCTL=$ACTION_DIR/build/cudnnctl
  fi
fi
target=${INPUT_ARCHIVE:-${INPUT_VERSION:-}}
if [[ -z $target ]]; then
  echo "::error::give the action an archive or a version"
  exit 2
fi
args=(install "$target" --json)
[[ -n ${INPUT_CUDA_PATH:-} ]] && args+=(--cuda-path "$INPUT_CUDA_PATH")
[[ -n ${INPUT_SHA256:-} ]] && args+=(--sha256 "$INPUT_SHA256")
[[ -n ${INPUT_MIRROR:-} ]] && args+=(--mirror "$INPUT_MIRROR")
[[ -n ${INPUT_CACHE_DIR:-} ]] && args+=(--cache "${INPUT_CACHE_DIR/#\~/$HOME}")
run=("$CUDNNCTL")
# a system toolkit needs root on Linux runners (sudo keeps GITHUB_* so the path step still writes them)
if [[ $(uname -s) == Linux && $(id -u) -ne 0 ]] && command -v sudo >/dev/null; then run=(sudo -E "$CUDNNCTL"); fi
json=$("${run[@]}" "${args[@]}")
read -r version cuda_path changed < <(python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
print(j["receipt"]["version"], j["toolkit"]["root"], "true" if j["changed"] else "false")' <<<"$json")
{
  echo "cudnn-version=$version"
  echo "cuda-path=$cuda_path"
  echo "changed=$changed"
} >> "${GITHUB_OUTPUT:-/dev/stdout}"
echo "cudnnctl: cuDNN $version in $cuda_path (changed: $changed)"

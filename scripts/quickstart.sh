#!/usr/bin/env bash
# Quick start: install what building and running cudnnctl needs (no test-only package), build cudnnctl
# without the tests, and run its main jobs on this machine: read the seed archive's name as a version
# contract, then diagnose this machine's CUDA toolkit. scripts/test.sh adds the tests on top.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh -DCUDNNCTL_TESTS=OFF >&2
build/cudnnctl inspect cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip
echo
rc=0
build/cudnnctl doctor || rc=$?
# 11: healthy up to the GPU layers, which were skipped (no GPU here) -- a success for this machine
[[ $rc -eq 0 || $rc -eq 11 ]] || exit "$rc"

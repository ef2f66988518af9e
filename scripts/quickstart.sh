#!/usr/bin/env bash
# Quick start: install what is needed, build, and run cudnnctl's main job on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >&2
build/cudnnctl inspect cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip

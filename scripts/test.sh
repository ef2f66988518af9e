#!/usr/bin/env bash
# Installs what is needed, builds (warnings are errors) and runs the whole test suite through CTest.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >&2
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"

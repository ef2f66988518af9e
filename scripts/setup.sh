#!/usr/bin/env bash
# Installs what building and running cudnnctl needs (Debian packages, about 120 MB) and builds it into build/.
# Test-only packages (wine, Chromium, mingw-w64, clang, ...) are scripts/test.sh's, not this script's.
# Idempotent: installs only what is missing and rebuilds only what changed.
#   scripts/setup.sh [extra cmake -D options]     (given options re-configure an existing build folder)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh

BUILD_PACKAGES=(cmake ninja-build g++ pkg-config python3 ccache
                libzip-dev libarchive-dev liblzma-dev zlib1g-dev libdeflate-dev libisal-dev
                libcli11-dev nlohmann-json3-dev libspdlog-dev libfmt-dev libssl-dev libcurl4-openssl-dev)
ensure_packages build "${BUILD_PACKAGES[@]}"

BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f $BUILD_DIR/build.ninja || $# -gt 0 ]]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUDNNCTL_WERROR=ON "$@" >/dev/null
fi
cmake --build "$BUILD_DIR"

#!/usr/bin/env bash
# Installs what cudnnctl needs to build (Debian packages) and builds it into build/.
# Idempotent: installs only what is missing and rebuilds only what changed.
#   scripts/setup.sh [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(cmake ninja-build g++ clang libclang-rt-14-dev pkg-config python3
          libzip-dev zipcmp zipmerge ziptool libarchive-dev libcli11-dev nlohmann-json3-dev
          libssl-dev libspdlog-dev libfmt-dev catch2 zlib1g-dev libdeflate-dev
          liblzma-dev libcurl4-openssl-dev zip unzip xz-utils p7zip-full g++-mingw-w64-x86-64-posix ansible-core wine64
          chromium fonts-dejavu-core libarchive-tools ccache libisal-dev)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

BUILD_DIR=${BUILD_DIR:-build}
if [[ ! -f $BUILD_DIR/build.ninja ]]; then
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCUDNNCTL_WERROR=ON "$@" >/dev/null
fi
cmake --build "$BUILD_DIR"

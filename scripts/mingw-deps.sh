#!/usr/bin/env bash
# Builds the third-party libraries cudnnctl.exe links, statically, with mingw-w64, from Debian's
# source packages (binary packages for zlib and the header-only libraries), into a cache outside the
# repo keyed by their Debian versions. A second run with the same versions builds nothing.
#   scripts/mingw-deps.sh            prints the prefix (last line of stdout)
# Environment: CUDNNCTL_MINGW_DEPS_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/cudnnctl-mingw-deps)
# apt is used with a private sources list, lists and cache: the system's apt configuration is untouched.
# Installs what it needs when missing (mingw-w64, make, cmake, dpkg-dev for apt-get source).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/scripts/packages.sh"
ensure_packages "mingw-w64 libraries" g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64 make cmake ninja-build \
  dpkg-dev xz-utils ca-certificates
CACHE=${CUDNNCTL_MINGW_DEPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-mingw-deps}
RECIPE=2   # bump when the build recipe below changes
SUITE=${CUDNNCTL_DEBIAN_SUITE:-bookworm}
MIRROR=${CUDNNCTL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
TRIPLE=x86_64-w64-mingw32
CC=$TRIPLE-gcc-posix
JOBS=$(nproc)
# zip only: the Windows build reads no tar archives (CUDNNCTL_TAR=OFF), so no libarchive or liblzma (docs/windows.md)
SRC_PKGS=(libdeflate libzip)
BIN_PKGS=(libz-mingw-w64-dev libfmt-dev nlohmann-json3-dev libcli11-dev libspdlog-dev)
log() { echo "mingw-deps: $*" >&2; }

source "$ROOT/scripts/debian-deps.sh"
debian_apt "$CACHE" "$SUITE" "$MIRROR"
# the versions decide the cache key
debian_cache_key "$CACHE" "r$RECIPE-" ""
PREFIX=$CACHE/$KEY

shims() { header_packages; }
if [[ -f $PREFIX/.complete ]]; then
  shims
  log "cached: $PREFIX ($(cat "$PREFIX/versions"))"
  echo "$PREFIX"
  exit 0
fi

log "building into $PREFIX: $versions"
start=$SECONDS
WORK=$CACHE/work-$KEY
rm -rf "$WORK" "$PREFIX"
mkdir -p "$WORK" "$PREFIX/include" "$PREFIX/lib/cmake"
cd "$WORK"
apt-get "${APT[@]}" -qq source "${SRC_PKGS[@]}" >/dev/null 2>&1 ||
  apt-get "${APT[@]}" source "${SRC_PKGS[@]}"
apt-get "${APT[@]}" -qq download "${BIN_PKGS[@]}"
for deb in ./*.deb; do dpkg-deb -x "$deb" bin; done
srcdir() { find "$WORK" -maxdepth 1 -type d -name "$1-*" | head -n1; }

# zlib (Debian's mingw build; only the static library, so nothing links zlib1.dll)
cp bin/usr/$TRIPLE/include/zlib.h bin/usr/$TRIPLE/include/zconf.h "$PREFIX/include/"
cp bin/usr/$TRIPLE/lib/libz.a "$PREFIX/lib/"

# header-only libraries (their CMake packages are written by shims, on every run)
cp -r bin/usr/include/fmt bin/usr/include/nlohmann bin/usr/include/CLI bin/usr/include/spdlog "$PREFIX/include/"

# libdeflate (1.14 has a Makefile only)
t=$SECONDS
make -s -C "$(srcdir libdeflate)" -j"$JOBS" CC=$CC AR=$TRIPLE-ar libdeflatestatic.lib
cp "$(srcdir libdeflate)/libdeflatestatic.lib" "$PREFIX/lib/libdeflate.a"
cp "$(srcdir libdeflate)/libdeflate.h" "$PREFIX/include/"
mkdir -p "$PREFIX/lib/cmake/libdeflate"
cat >"$PREFIX/lib/cmake/libdeflate/libdeflateConfig.cmake" <<'EOF'
if(NOT TARGET libdeflate::libdeflate_static)
  add_library(libdeflate::libdeflate_static STATIC IMPORTED)
  set_target_properties(libdeflate::libdeflate_static PROPERTIES
    IMPORTED_LOCATION "${CMAKE_CURRENT_LIST_DIR}/../../libdeflate.a"
    INTERFACE_INCLUDE_DIRECTORIES "${CMAKE_CURRENT_LIST_DIR}/../../../include")
endif()
EOF
log "libdeflate: $((SECONDS - t)) s"

CROSS=(-G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/mingw-w64.cmake" -DCUDNNCTL_MINGW_DEPS="$PREFIX"
       -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DCMAKE_C_COMPILER_LAUNCHER= -Wno-dev)

# libzip: zlib only, Windows CNG for its (unused) encryption
t=$SECONDS
cmake -S "$(srcdir libzip)" -B build-zip "${CROSS[@]}" -DCMAKE_INSTALL_PREFIX="$PREFIX" \
  -DENABLE_BZIP2=OFF -DENABLE_LZMA=OFF -DENABLE_ZSTD=OFF -DENABLE_GNUTLS=OFF -DENABLE_OPENSSL=OFF \
  -DENABLE_MBEDTLS=OFF -DENABLE_COMMONCRYPTO=OFF -DENABLE_WINDOWS_CRYPTO=ON \
  -DBUILD_TOOLS=OFF -DBUILD_REGRESS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_DOC=OFF >/dev/null
cmake --build build-zip -j"$JOBS" >/dev/null
cmake --install build-zip >/dev/null
log "libzip: $((SECONDS - t)) s"

echo "$versions" >"$PREFIX/versions"
shims
touch "$PREFIX/.complete"
cd "$CACHE" && rm -rf "$WORK"
log "built in $((SECONDS - start)) s: $PREFIX"
echo "$PREFIX"

#!/usr/bin/env bash
# Builds the portable Linux cudnnctl for x86_64 or aarch64: one file, every third-party library and libc++ linked
# statically, dynamic only against glibc (libc, libm, libdl, libpthread, librt, the loader) with no symbol version
# above GLIBC_2.17, the trace audit module carried inside (platform/audit_cache.hpp). Zig cross-compiles both
# from this machine (cmake/zig-linux.cmake); the libraries come from scripts/portable-deps.sh (built once, cached).
#   scripts/build-portable.sh <x86_64|aarch64> [OUTDIR]      (OUTDIR default dist/linux-<arch>)
# Writes OUTDIR/cudnnctl; the last line of stdout is its absolute path. The build folder is build-portable-<arch>
# (BUILD_DIR overrides); a second run rebuilds only what changed. CUDNNCTL_JOBS: parallel jobs (default 2).
set -euo pipefail
ARCH=${1:?usage: build-portable.sh <x86_64|aarch64> [OUTDIR]}
case $ARCH in x86_64|aarch64) ;; *) echo "build-portable: unknown arch $ARCH (x86_64 or aarch64)" >&2; exit 2 ;; esac
OUTDIR=${2:-}
[[ -z $OUTDIR || $OUTDIR == /* ]] || OUTDIR=$PWD/$OUTDIR  # relative to the caller's folder
cd "$(dirname "$0")/.."
OUTDIR=${OUTDIR:-$PWD/dist/linux-$ARCH}
BUILD_DIR=${BUILD_DIR:-build-portable-$ARCH}
JOBS=${CUDNNCTL_JOBS:-2}
start=$SECONDS
PREFIX=$(scripts/portable-deps.sh "$ARCH" | tail -n1)
echo "build-portable: third-party libraries in $PREFIX ($((SECONDS - start)) s)" >&2

if [[ ! -f $BUILD_DIR/build.ninja ]] || ! grep -q "^CUDNNCTL_PORTABLE_DEPS:.*=$PREFIX\$" "$BUILD_DIR/CMakeCache.txt"; then
  rm -rf "$BUILD_DIR"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/zig-linux.cmake" \
    -DCUDNNCTL_PORTABLE_DEPS="$PREFIX" -DCUDNNCTL_PORTABLE=ON -DCMAKE_BUILD_TYPE=Release -DCUDNNCTL_TESTS=OFF \
    -DCUDNNCTL_ISAL=OFF >/dev/null
fi
# cudnnctl only (its audit module is built first and embedded); not the docs, which run the binary
cmake --build "$BUILD_DIR" -j"$JOBS" --target cudnnctl >&2
mkdir -p "$OUTDIR"
cp "$BUILD_DIR/cudnnctl" "$OUTDIR/cudnnctl.tmp"
mv -f "$OUTDIR/cudnnctl.tmp" "$OUTDIR/cudnnctl"
echo "build-portable: $OUTDIR/cudnnctl ($(stat -c %s "$OUTDIR/cudnnctl") bytes) in $((SECONDS - start)) s" >&2
echo "$OUTDIR/cudnnctl"

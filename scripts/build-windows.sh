#!/usr/bin/env bash
# Builds cudnnctl.exe for Windows x86_64 with mingw-w64, statically (one file, no DLL beside it), and the
# release archive build-windows/cudnnctl-<version>-windows-x86_64.zip (exe, LICENSE, README, docs).
# scripts/release.sh puts both into dist/ and writes the zip's Scoop and winget manifests (the release's URL).
# Third-party libraries come from Debian's packages, built once by scripts/mingw-deps.sh into a cache
# outside the repo; a second run rebuilds only cudnnctl. Zip archives only (CUDNNCTL_TAR=OFF: Windows cuDNN
# archives are zips; no libarchive/liblzma keeps a cold build short, see docs/windows.md).
#   scripts/build-windows.sh [extra cmake -D options]      (BUILD_DIR=build-windows by default)
# On a fresh Debian/Ubuntu machine it installs what it needs first (mingw-w64, CMake, Ninja, zip, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh
ensure_packages "Windows build" cmake ninja-build python3 zip g++-mingw-w64-x86-64-posix binutils-mingw-w64-x86-64
BUILD_DIR=${BUILD_DIR:-build-windows}
start=$SECONDS
PREFIX=$(scripts/mingw-deps.sh | tail -n1)
echo "build-windows: third-party libraries in $PREFIX ($((SECONDS - start)) s)" >&2

if [[ ! -f $BUILD_DIR/build.ninja ]] || ! grep -q "^CUDNNCTL_MINGW_DEPS:.*=$PREFIX\$" "$BUILD_DIR/CMakeCache.txt"; then
  rm -rf "$BUILD_DIR"
  cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$PWD/cmake/mingw-w64.cmake" \
    -DCUDNNCTL_MINGW_DEPS="$PREFIX" -DCMAKE_BUILD_TYPE=Release -DCUDNNCTL_TESTS=OFF -DCUDNNCTL_TAR=OFF \
    -DCUDNNCTL_ISAL=OFF "$@" >/dev/null  # pkg-config would find the host's libisal; zlib inflates
fi
# cudnnctl only: commands/ and app/ included, so a POSIX-only include there fails here
cmake --build "$BUILD_DIR" --target cudnnctl
EXE=$BUILD_DIR/cudnnctl.exe

# static: it may import only DLLs every Windows has
imports=$(x86_64-w64-mingw32-objdump -p "$EXE" | awk '/DLL Name:/{print tolower($3)}' | sort -u)
for dll in $imports; do
  case $dll in
    kernel32.dll|user32.dll|advapi32.dll|shell32.dll|bcrypt.dll|winhttp.dll|msvcrt.dll|ole32.dll|ws2_32.dll|api-ms-win-*) ;;
    *) echo "build-windows: $EXE imports $dll, which Windows does not ship: link it statically" >&2; exit 1 ;;
  esac
done
grep -aq "activeCodePage" "$EXE" ||
  { echo "build-windows: $EXE has no UTF-8 application manifest" >&2; exit 1; }

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$BUILD_DIR/CMakeCache.txt")
name=cudnnctl-$version-windows-x86_64
stage=$BUILD_DIR/release/$name
rm -rf "$BUILD_DIR/release" "$BUILD_DIR/$name.zip"
mkdir -p "$stage"
cp "$EXE" LICENSE README.md "$stage/"
cp -r docs "$stage/docs"
(cd "$BUILD_DIR/release" && zip -X -q -r "../$name.zip" "$name")
echo "build-windows: $EXE ($(stat -c %s "$EXE") bytes; imports: $(echo $imports))" >&2
echo "build-windows: $BUILD_DIR/$name.zip ($(stat -c %s "$BUILD_DIR/$name.zip") bytes) in $((SECONDS - start)) s" >&2

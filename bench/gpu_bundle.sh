#!/usr/bin/env bash
# Packs build/cudnnctl (debug info stripped) with the shared libraries it needs beyond glibc and
# libstdc++ into .devbin/cudnnctl-bundle.tar.xz, for bench/gpu_vs_pytorch.sh on a machine that has
# none of the Debian packages cudnnctl links (the device tool's GPU machine). ~15 MB.
#   bench/gpu_bundle.sh [BINARY] [OUT_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-build/cudnnctl}
DEST=${2:-.devbin}
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/lib" "$DEST"
objcopy --strip-debug "$BIN" "$stage/cudnnctl"
# the loader's own libraries stay the target's (newer there); everything else travels
ldd "$BIN" | awk '$3 ~ /^\// {print $3}' |
  grep -v -E '/(libc|libm|libresolv|libgcc_s|libstdc\+\+|libpthread|libdl|librt)\.so' |
  while read -r lib; do cp -L "$lib" "$stage/lib/"; done
tar -cJf "$DEST/cudnnctl-bundle.tar.xz" -C "$stage" .
echo "$DEST/cudnnctl-bundle.tar.xz: $(du -h "$DEST/cudnnctl-bundle.tar.xz" | cut -f1) ($(ls "$stage/lib" | wc -l) libraries)"

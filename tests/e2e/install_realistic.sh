#!/usr/bin/env bash
# End to end on realistic archives (the real cuDNN 9.19 files of this image in NVIDIA's layouts, built
# by ../shared/bench/make-fixtures.sh and cached): install the tar.xz into a copy of this image's
# /usr/local/cuda layout (lib64 -> targets/x86_64-linux/lib), load the installed libcudnn.so.9 and get
# cudnnGetVersion() == 91900; install the zip into a CUDA 13 Windows-layout tree (bin\x64); uninstall both
# and compare the trees with what they were.
#   install_realistic.sh CUDNNCTL PROBE SOURCE_DIR
set -euo pipefail
CUDNNCTL=$1 PROBE=$2 SRC=$3
FIX=${CUDNNCTL_FIXTURES:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-fixtures}
MAKE_FIXTURES=$SRC/../shared/bench/make-fixtures.sh
if [[ ! -x $MAKE_FIXTURES || ! -f /usr/local/cuda/include/cudnn_version.h ]]; then
  echo "SKIP: needs ../shared/bench/make-fixtures.sh and this image's CUDA toolkit"; exit 0
fi
bash "$MAKE_FIXTURES" "$FIX" >/dev/null
TXZ=$(ls "$FIX"/cudnn-linux-x86_64-*_cuda13-archive.tar.xz | head -1)
ZIP=$(ls "$FIX"/cudnn-windows-x86_64-*_cuda13-archive.zip | head -1)
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
snapshot() { (cd "$1" && find . -path ./.cudnnctl -prune -o -print0 | sort -z | xargs -0 -I{} sh -c 'if [ -L "{}" ]; then echo "{} -> $(readlink "{}")"; elif [ -f "{}" ]; then sha256sum "{}"; else echo "{}/"; fi'); }

# a copy of the real toolkit's layout (the small files; the big libraries are not needed)
TK=$TMP/cuda-13.0
mkdir -p "$TK/bin" "$TK/targets/x86_64-linux/lib" "$TK/include"
cp /usr/local/cuda/include/cuda.h "$TK/include/"
cp /usr/local/cuda/bin/nvcc "$TK/bin/"
ln -s targets/x86_64-linux/lib "$TK/lib64"
before=$(snapshot "$TK")
"$CUDNNCTL" install "$TXZ" --sha256-file "$TXZ.sha256" --cuda-path "$TK" --json > "$TMP/install.json"
grep -q '"changed": true' "$TMP/install.json"
version=$("$PROBE" "$TK/lib64/libcudnn.so.9")
echo "cudnnGetVersion() of the installed copy: $version"
[[ $version == 91900 ]]
"$CUDNNCTL" install "$TXZ" --sha256-file "$TXZ.sha256" --cuda-path "$TK" --json > "$TMP/again.json"
grep -q '"changed": false' "$TMP/again.json"
"$CUDNNCTL" uninstall --cuda-path "$TK" > /dev/null
[[ $(snapshot "$TK") == "$before" ]] || { echo "FAIL: the Linux tree differs after uninstall"; exit 1; }

# the Windows zip into a CUDA 13 Windows-layout tree, prepared from Linux
WTK=$TMP/win-v13.0
mkdir -p "$WTK/bin/x64" "$WTK/include" "$WTK/lib/x64"
echo '{"cuda": {"name": "CUDA SDK", "version": "13.0.2"}}' > "$WTK/version.json"
echo cudart > "$WTK/bin/x64/cudart64_13.dll"; echo nvcc > "$WTK/bin/nvcc.exe"; echo h > "$WTK/include/cuda.h"
before=$(snapshot "$WTK")
"$CUDNNCTL" install "$ZIP" --sha256-file "$ZIP.sha256" --cuda-path "$WTK" > /dev/null
for f in cudnn64_9.dll cudnn_engines_precompiled64_9.dll cudnn_graph64_9.dll; do [[ -f $WTK/bin/x64/$f ]]; done
[[ -f $WTK/lib/x64/cudnn.lib && -f $WTK/include/cudnn.h && ! -e $WTK/bin/x64/x64 ]]
"$CUDNNCTL" uninstall --cuda-path "$WTK" > /dev/null
[[ $(snapshot "$WTK") == "$before" ]] || { echo "FAIL: the Windows tree differs after uninstall"; exit 1; }
echo "e2e: 1 passed, 0 failed"

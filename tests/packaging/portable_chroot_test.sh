#!/usr/bin/env bash
# The portable x86_64 cudnnctl (scripts/build-portable.sh) in a Debian 11 chroot (glibc 2.31, debootstrap
# --variant=minbase bullseye: none of the build's libraries present): inspect, verify, install and uninstall of
# the realistic tar.xz into a toolkit tree, doctor --no-gpu --json, bundle list --site of an nvidia-cudnn-cu13
# bundle, and trace of a program that dlopens a copy of the real libcudnn.so.9 (the audit module comes out of
# the binary itself), and fetch over HTTPS with the CA at each distribution's usual place (portable_chroot_fetch.py).
# Reports SKIP (CTest: skipped) when the binary is absent or the chroot cannot be made.
#   portable_chroot_test.sh CUDNNCTL_PORTABLE FIXTURES_DIR
# The root file system is made once and kept in ${CUDNNCTL_CHROOT_CACHE:-~/.cache/cudnnctl-chroot}.
set -uo pipefail
BIN=$1 FIX=$2
HERE=$(cd "$(dirname "$0")" && pwd)
# CUDNNCTL_REQUIRE_PORTABLE=1 (CI, the release workflow): a skip is a failure
skip() { if [[ ${CUDNNCTL_REQUIRE_PORTABLE:-} == 1 ]]; then echo "FAIL (CUDNNCTL_REQUIRE_PORTABLE=1): $*"; exit 1; fi; echo "SKIP: $*"; exit 0; }
[[ -x $BIN ]] || skip "$BIN is not built (scripts/build-portable.sh x86_64)"
[[ $(id -u) == 0 ]] || skip "chroot needs root"
command -v chroot >/dev/null || skip "no chroot"
command -v python3 >/dev/null || skip "no python3 (used to read the JSON outside the chroot)"
command -v openssl >/dev/null || skip "no openssl on the host (the HTTPS fetch check makes its throwaway CA with it)"
if ! command -v debootstrap >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1 || skip "debootstrap cannot be installed"
fi
[[ -f $FIX/fixtures.json ]] || skip "no realistic archives in $FIX (tests/fixtures/make_realistic_archives.py)"
[[ -e /usr/local/cuda/lib64/libcudnn.so.9 ]] || skip "no real libcudnn.so.9 in /usr/local/cuda/lib64 to trace"
ZIG=$(compgen -G "${CUDNNCTL_PORTABLE_DEPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-portable-deps}/zig-*/lib/python3*/site-packages/ziglang/zig" | head -n1)
[[ -n $ZIG ]] || skip "no zig (scripts/portable-deps.sh installs it) to build the traced program for glibc 2.17"

CACHE=${CUDNNCTL_CHROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-chroot}
ROOTFS=$CACHE/bullseye-minbase
if [[ ! -f $ROOTFS/.complete ]]; then
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
  mirror=${CUDNNCTL_DEBIAN_MIRROR:-${mirror:-http://deb.debian.org/debian}}
  rm -rf "$ROOTFS"; mkdir -p "$CACHE"
  echo "making the Debian 11 chroot in $ROOTFS from $mirror"
  debootstrap --variant=minbase bullseye "$ROOTFS" "$mirror" >"$CACHE/debootstrap.log" 2>&1 ||
    skip "debootstrap bullseye failed (see $CACHE/debootstrap.log)"
  touch "$ROOTFS/.complete"
fi

W=$(mktemp -d "$ROOTFS/tmp/cudnnctl-portable-XXXXXX"); IN=/tmp/$(basename "$W")
mounted=()
cleanup() {
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount "${mounted[i]}" 2>/dev/null || umount -l "${mounted[i]}"; done
  rm -rf "$W"
}
trap cleanup EXIT
mkdir -p "$W/fix" "$W/home"
mount --bind "$FIX" "$W/fix" && mount -o remount,bind,ro "$W/fix" && mounted+=("$W/fix") || skip "cannot bind-mount $FIX"
if ! mountpoint -q "$ROOTFS/proc"; then mount -t proc proc "$ROOTFS/proc" && mounted+=("$ROOTFS/proc"); fi
cp "$BIN" "$W/cudnnctl"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
# runs in the chroot, as root with HOME in the work folder, nothing of the host's environment
in_chroot() { chroot "$ROOTFS" /usr/bin/env -i HOME=$IN/home PATH=/usr/sbin:/usr/bin:/sbin:/bin "$@"; }
ctl() { in_chroot "$IN/cudnnctl" "$@"; }

glibc=$(in_chroot /usr/bin/ldd --version | head -n1)
echo "chroot: $glibc"
for lib in libzip.so.4 libarchive.so.13 libcurl.so.4 libfmt.so.9 libcrypto.so.3 libstdc++.so.6; do
  compgen -G "$ROOTFS/usr/lib/x86_64-linux-gnu/$lib*" >/dev/null && [[ $lib != libstdc++.so.6 ]] && bad "$lib is in the chroot"
done
ctl --version >/dev/null && ok "--version runs on $glibc" || bad "--version"

# inspect, verify, install, uninstall: the realistic tar.xz into a copy of the toolkit's layout
read -r TXZ VERSION < <(python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); print(m["linux"]["file"], m["version"])' "$FIX/fixtures.json")
ctl inspect "$IN/fix/$TXZ" --json >"$W/inspect.json" &&
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert sys.argv[2] in json.dumps(d)' "$W/inspect.json" "$VERSION" &&
  ok "inspect $TXZ" || bad "inspect"
ctl verify "$IN/fix/$TXZ" --sha256-file "$IN/fix/$TXZ.sha256" >/dev/null && ok "verify" || bad "verify"
TK=$W/cuda-13.0
mkdir -p "$TK/bin" "$TK/targets/x86_64-linux/lib" "$TK/include"
cp /usr/local/cuda/include/cuda.h "$TK/include/" 2>/dev/null || echo '#define CUDA_VERSION 13000' >"$TK/include/cuda.h"
printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0, V13.0.88"\n' >"$TK/bin/nvcc"; chmod +x "$TK/bin/nvcc"
ln -s targets/x86_64-linux/lib "$TK/lib64"
snap() { (cd "$TK" && find . -path ./.cudnnctl -prune -o -printf '%p %y %l\n' | sort); }
before=$(snap)
ctl install "$IN/fix/$TXZ" --sha256-file "$IN/fix/$TXZ.sha256" --cuda-path "$IN/cuda-13.0" --json >"$W/install.json" &&
  grep -q '"changed": true' "$W/install.json" && [[ -f $TK/lib64/libcudnn.so.9 ]] && ok "install" ||
  { bad "install"; cat "$W/install.json"; }
ctl uninstall --cuda-path "$IN/cuda-13.0" >/dev/null && [[ $(snap) == "$before" ]] && ok "uninstall" || bad "uninstall"

# doctor
ctl doctor --no-gpu --json >"$W/doctor.json"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$W/doctor.json" && ok "doctor --no-gpu --json" ||
  bad "doctor --no-gpu --json: $(head -c 400 "$W/doctor.json")"

# bundle list --site: the nvidia-cudnn-cu13 wheel's layout with a copy of the real libcudnn.so.9
site=$W/venv/lib/python3.9/site-packages
mkdir -p "$site/nvidia/cudnn/lib"
cp -L /usr/local/cuda/lib64/libcudnn.so.9 "$site/nvidia/cudnn/lib/"
di=$site/nvidia_cudnn_cu13-9.19.0.56.dist-info
mkdir -p "$di"
printf 'Metadata-Version: 2.1\r\nName: nvidia-cudnn-cu13\r\nVersion: 9.19.0.56\r\n\r\n' >"$di/METADATA"
. "$HERE/../bundle/common.sh"
record "$site" "$di"
ctl bundle list --site "${site#"$ROOTFS"}" --json >"$W/bundle.json"
python3 - "$W/bundle.json" <<'PY' && ok "bundle list --site" || bad "bundle list: $(cat "$W/bundle.json")"
import json, sys
b = [x for x in json.load(open(sys.argv[1]))["bundles"] if x["dir"].endswith("nvidia/cudnn/lib")]
assert len(b) == 1 and b[0]["owner"] == "nvidia-cudnn-cu13" and b[0]["version"] == "9.19.0.56", b
PY

# trace: a program built for glibc 2.17 that dlopens the copy of libcudnn.so.9
cat >"$W/dlopen_probe.c" <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char** argv) {
  void* h = argc > 1 ? dlopen(argv[1], RTLD_NOW) : 0;
  if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
  return 0;
}
EOF
"$ZIG" cc -target x86_64-linux-gnu.2.17 -O1 -o "$W/dlopen_probe" "$W/dlopen_probe.c" -ldl || bad "cannot build the traced program"
ctl trace --json --output "$IN/trace.json" -- "$IN/dlopen_probe" "$IN/venv/lib/python3.9/site-packages/nvidia/cudnn/lib/libcudnn.so.9"
python3 - "$W/trace.json" <<'PY' && ok "trace: libcudnn.so.9 loaded, seen through the embedded audit module" || bad "trace: $(head -c 600 "$W/trace.json")"
import json, sys
t = json.load(open(sys.argv[1]))
# a load the audit module recorded (the command line names the path too: not enough)
loaded = [x for x in t["libraries"] if x["path"].endswith("nvidia/cudnn/lib/libcudnn.so.9") and x["family"] == "cudnn"]
assert t["exit_code"] == 0 and len(loaded) == 1 and loaded[0]["major"] == 9, t
PY
compgen -G "$W/home/.cache/cudnnctl/audit-0/libcudnnctl_audit-*.so" >/dev/null && ok "audit module written to ~/.cache/cudnnctl/audit-0" ||
  bad "no audit module in the chroot's ~/.cache/cudnnctl"

# fetch over HTTPS from 127.0.0.1, the throwaway CA installed at one distribution's usual place at a time, then in
# SSL_CERT_DIR, then nowhere (issue 39 item 2: TLS CA discovery)
python3 "$HERE/portable_chroot_fetch.py" "$ROOTFS" "$W" "$IN" && ok "fetch over HTTPS" || bad "fetch over HTTPS"

((fails == 0)) && echo "portable x86_64 binary: all checks pass in the Debian 11 chroot" || echo "$fails check(s) failed"
((fails == 0))

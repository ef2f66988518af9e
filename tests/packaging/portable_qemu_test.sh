#!/usr/bin/env bash
# The portable aarch64 cudnnctl (scripts/build-portable.sh aarch64) under qemu-user (Debian's qemu-user-static):
# inspect, verify, extract and install of a Linux sbsa tar.xz into a toolkit tree, and doctor --no-gpu. The
# programs run on an arm64 Debian 11 root (glibc 2.31: debootstrap --foreign --arch=arm64 --variant=minbase
# bullseye, made once and kept in ${CUDNNCTL_CHROOT_CACHE:-~/.cache/cudnnctl-chroot}) with qemu-aarch64-static -L;
# where that root cannot be made, on Debian's cross root (libc6-arm64-cross, /usr/aarch64-linux-gnu). The
# archive is a small stand-in in NVIDIA's layout whose libraries are aarch64 ELF files (this machine has no
# aarch64 cuDNN). Reports SKIP (CTest: skipped) when the binary is absent or qemu cannot be installed.
#   portable_qemu_test.sh CUDNNCTL_PORTABLE_AARCH64
set -uo pipefail
BIN=$1
# CUDNNCTL_REQUIRE_PORTABLE=1 (CI, the release workflow): a skip is a failure
skip() { if [[ ${CUDNNCTL_REQUIRE_PORTABLE:-} == 1 ]]; then echo "FAIL (CUDNNCTL_REQUIRE_PORTABLE=1): $*"; exit 1; fi; echo "SKIP: $*"; exit 0; }
[[ -x $BIN ]] || skip "$BIN is not built (scripts/build-portable.sh aarch64)"
CROSS=/usr/aarch64-linux-gnu
if ! command -v qemu-aarch64-static >/dev/null || [[ ! -e $CROSS/lib/ld-linux-aarch64.so.1 ]]; then
  [[ $(id -u) == 0 ]] || skip "qemu-user-static and libc6-arm64-cross are missing and only root installs them"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static libc6-arm64-cross >/dev/null 2>&1 ||
    skip "qemu-user-static / libc6-arm64-cross cannot be installed"
fi
# the arm64 Debian 11 root: only debootstrap's first stage (it unpacks glibc; the second needs binfmt_misc)
CACHE=${CUDNNCTL_CHROOT_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-chroot}
ROOT=$CACHE/bullseye-arm64-minbase
if [[ ! -f $ROOT/.complete ]] && [[ $(id -u) == 0 ]]; then
  command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null 2>&1
  mirror=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null)
  mirror=${CUDNNCTL_DEBIAN_MIRROR:-${mirror:-http://deb.debian.org/debian}}
  rm -rf "$ROOT"; mkdir -p "$CACHE"
  echo "making the arm64 Debian 11 root in $ROOT from $mirror"
  if debootstrap --arch=arm64 --variant=minbase --foreign bullseye "$ROOT" "$mirror" >"$CACHE/arm64-debootstrap.log" 2>&1 &&
    [[ -e $ROOT/lib/ld-linux-aarch64.so.1 ]]; then
    touch "$ROOT/.complete"
  else
    echo "note: the arm64 Debian 11 root could not be made (see $CACHE/arm64-debootstrap.log)"
  fi
fi
[[ -f $ROOT/.complete ]] || ROOT=$CROSS
glibc=$(qemu-aarch64-static -L "$ROOT" "$ROOT/lib/aarch64-linux-gnu/libc.so.6" 2>/dev/null | head -n1)
echo "root: $ROOT (${glibc:-glibc version unknown})"
command -v python3 >/dev/null || skip "no python3 to make the stand-in archive"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }
ctl() { env -i HOME="$tmp/home" PATH=/usr/bin:/bin qemu-aarch64-static -L "$ROOT" "$BIN" "$@"; }
mkdir -p "$tmp/home"

ctl --version >/dev/null && ok "--version under qemu-aarch64" || bad "--version"

# a stand-in sbsa archive: NVIDIA's layout; its libraries are copies of an aarch64 ELF shared object
# (glibc's libm from the cross root) under cuDNN's names
name=cudnn-linux-sbsa-9.19.0.56_cuda13-archive
python3 - "$tmp" "$name" "$CROSS/lib/libm.so.6" <<'PY' || { echo "FAIL: cannot make the stand-in archive"; exit 1; }
import hashlib, io, lzma, os, sys, tarfile
tmp, name, elf = sys.argv[1], sys.argv[2], open(sys.argv[3], "rb").read()
members = {f"{name}/include/cudnn.h": b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n",
           f"{name}/include/cudnn_version.h": b"#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n",
           f"{name}/LICENSE": b"stand-in\n"}
for lib in ("libcudnn", "libcudnn_graph", "libcudnn_ops"):
    members[f"{name}/lib/{lib}.so.9.19.0"] = elf
path = os.path.join(tmp, name + ".tar.xz")
with tarfile.open(path, "w:xz") as t:
    for n, data in members.items():
        i = tarfile.TarInfo(n); i.size = len(data); i.mode = 0o644; t.addfile(i, io.BytesIO(data))
    for lib in ("libcudnn", "libcudnn_graph", "libcudnn_ops"):
        for link, target in ((f"{lib}.so.9", f"{lib}.so.9.19.0"), (f"{lib}.so", f"{lib}.so.9")):
            i = tarfile.TarInfo(f"{name}/lib/{link}"); i.type = tarfile.SYMTYPE; i.linkname = target; t.addfile(i)
h = hashlib.sha256(open(path, "rb").read()).hexdigest()
open(path + ".sha256", "w").write(f"{h}  {name}.tar.xz\n")
PY
A=$tmp/$name.tar.xz
ctl inspect "$A" --json >"$tmp/inspect.json" && grep -q '9.19.0' "$tmp/inspect.json" && ok "inspect" ||
  bad "inspect: $(head -c 400 "$tmp/inspect.json")"
ctl verify "$A" --sha256-file "$A.sha256" >/dev/null && ok "verify" || bad "verify"
ctl extract "$A" --sha256-file "$A.sha256" --to "$tmp/out" >/dev/null 2>"$tmp/extract.err" &&
  compgen -G "$tmp/out/*lib/libcudnn.so.9.19.0" >/dev/null || compgen -G "$tmp/out/*/lib/libcudnn.so.9.19.0" >/dev/null && ok "extract" ||
  bad "extract: $(cat "$tmp/extract.err")"
TK=$tmp/cuda-13.0
mkdir -p "$TK/bin" "$TK/targets/sbsa-linux/lib" "$TK/include"
echo '#define CUDA_VERSION 13000' >"$TK/include/cuda.h"
printf '#!/bin/sh\necho "Cuda compilation tools, release 13.0, V13.0.88"\n' >"$TK/bin/nvcc"; chmod +x "$TK/bin/nvcc"
ln -s targets/sbsa-linux/lib "$TK/lib64"
ctl install "$A" --sha256-file "$A.sha256" --cuda-path "$TK" --json >"$tmp/install.json" 2>"$tmp/install.err" &&
  [[ -e $TK/lib64/libcudnn.so.9 ]] && ok "install" || bad "install: $(cat "$tmp/install.json" "$tmp/install.err" | head -c 800)"
ctl doctor --no-gpu >"$tmp/doctor.txt" 2>&1; rc=$?
# doctor's exit code says what it found (findings are not failures here); a crash or a loader error is
((rc < 64)) && ! grep -q 'error while loading\|version `GLIBC' "$tmp/doctor.txt" && ok "doctor --no-gpu (exit $rc)" ||
  bad "doctor --no-gpu exit $rc: $(head -c 600 "$tmp/doctor.txt")"

((fails == 0)) && echo "portable aarch64 binary: all checks pass under qemu-user" || echo "$fails check(s) failed"
((fails == 0))

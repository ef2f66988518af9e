#!/usr/bin/env bash
# Builds every release file into dist/ (flat: each file there is one release asset), with SHA256SUMS:
#   cudnnctl-linux-x86_64, cudnnctl-linux-aarch64          the portable binaries (scripts/build-portable.sh)
#   cudnnctl-windows-x86_64.exe                            cudnnctl.exe (scripts/build-windows.sh)
#   cudnnctl-<ver>-linux-<arch>.tar.gz                     binary, LICENSE, README.md, docs/ (install.sh's files)
#   cudnnctl_<ver>_amd64.deb, cudnnctl_<ver>_arm64.deb     /usr/bin/cudnnctl (dpkg-deb)
#   cudnnctl-<ver>-windows-x86_64.zip                      exe, LICENSE, README.md, docs\ (Scoop, winget)
#   cudnnctl-<ver>-py3-none-<tag>.whl                      manylinux_2_17 x86_64 and aarch64, win_amd64 (make-wheel.py)
#   cudnnctl.json, Cudnnctl.Cudnnctl*.yaml                 the Scoop manifest and the winget manifest set
#   install.sh                                             the one-line installer, naming this repository
#   SHA256SUMS                                             every file above
#
#   scripts/release.sh [--base-url URL] [--out DIR]
# URL: the folder the files are published in (default: the GitHub release of this version,
# https://github.com/OWNER/REPO/releases/download/v<ver>/, OWNER/REPO from $GITHUB_REPOSITORY or the github.com
# origin remote). DIR: default dist (emptied first). Intermediate builds go to $CUDNNCTL_RELEASE_WORK
# (default build-release/); the third-party libraries are cached by build-portable.sh and mingw-deps.sh.
# CUDNNCTL_RELEASE_PREBUILT=DIR packages DIR/linux-x86_64/cudnnctl, DIR/linux-aarch64/cudnnctl and
# DIR/windows-x86_64/cudnnctl.exe instead of building them (binaries built elsewhere, and the tests).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh
ensure_packages release python3 dpkg zip tar gzip coreutils

OUT=dist
BASE_URL=""
while (($#)); do
  case $1 in
    --out) OUT=$2; shift 2 ;;
    --base-url) BASE_URL=$2; shift 2 ;;
    *) echo "release: unknown option '$1' (--base-url URL, --out DIR)" >&2; exit 2 ;;
  esac
done
WORK=${CUDNNCTL_RELEASE_WORK:-build-release}
PREBUILT=${CUDNNCTL_RELEASE_PREBUILT:-}
start=$SECONDS
log() { echo "release: $*" >&2; }

VERSION=$(sed -n 's/^project(cudnnctl VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ -n $VERSION ]] || { log "no project version in CMakeLists.txt"; exit 1; }
REPO=${GITHUB_REPOSITORY:-}
if [[ -z $REPO ]]; then
  REPO=$(git remote get-url origin 2>/dev/null | sed -nE 's#.*github\.com[:/]([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)$#\1#p' | sed 's/\.git$//' || true)
fi
if [[ -z $BASE_URL ]]; then
  [[ -n $REPO ]] || { log "cannot tell the GitHub repository (no \$GITHUB_REPOSITORY, no github.com origin): give --base-url"; exit 2; }
  BASE_URL=https://github.com/$REPO/releases/download/v$VERSION/
fi
BASE_URL=${BASE_URL%/}/
log "cudnnctl $VERSION into $OUT/, published at $BASE_URL"

rm -rf "$OUT" "$WORK/stage"
mkdir -p "$OUT" "$WORK/stage"
OUT=$(cd "$OUT" && pwd)

# ---- the binaries
linux_binary() {  # linux_binary ARCH -> path of the portable binary
  if [[ -n $PREBUILT ]]; then echo "$PREBUILT/linux-$1/cudnnctl"; return; fi
  [[ -x scripts/build-portable.sh ]] || { log "scripts/build-portable.sh is missing (the portable Linux build)"; exit 1; }
  scripts/build-portable.sh "$1" "$WORK/linux-$1" | tail -n1
}
windows_exe() {
  if [[ -n $PREBUILT ]]; then echo "$PREBUILT/windows-x86_64/cudnnctl.exe"; return; fi
  BUILD_DIR=$WORK/windows scripts/build-windows.sh >&2
  echo "$WORK/windows/cudnnctl.exe"
}
declare -A BIN
for arch in x86_64 aarch64; do
  t=$SECONDS
  BIN[$arch]=$(linux_binary $arch)
  [[ -f ${BIN[$arch]} ]] || { log "no linux-$arch binary at '${BIN[$arch]}'"; exit 1; }
  log "linux-$arch: ${BIN[$arch]} ($((SECONDS - t)) s)"
done
t=$SECONDS
EXE=$(windows_exe)
[[ -f $EXE ]] || { log "no cudnnctl.exe at '$EXE'"; exit 1; }
log "windows-x86_64: $EXE ($((SECONDS - t)) s)"

# ---- per Linux machine: the binary, a tar.gz, a .deb, a wheel
stage_folder() {  # stage_folder NAME PROGRAM PROGRAM_NAME: NAME/{PROGRAM_NAME, LICENSE, README.md, docs/}
  local dir=$WORK/stage/$1
  mkdir -p "$dir"
  install -m 755 "$2" "$dir/$3"
  cp LICENSE README.md "$dir/"
  cp -r docs "$dir/docs"
}
deb() {  # deb ARCH DEBARCH
  local root=$WORK/stage/deb-$2
  mkdir -p "$root/DEBIAN" "$root/usr/bin" "$root/usr/share/doc/cudnnctl"
  install -m 755 "${BIN[$1]}" "$root/usr/bin/cudnnctl"
  install -m 644 LICENSE "$root/usr/share/doc/cudnnctl/copyright"
  cat >"$root/DEBIAN/control" <<EOF
Package: cudnnctl
Version: $VERSION
Architecture: $2
Maintainer: The cudnnctl authors <cudnnctl@users.noreply.github.com>
Section: utils
Priority: optional
Installed-Size: $(du -sk "$root/usr" | cut -f1)
Homepage: ${REPO:+https://github.com/$REPO}
Description: install NVIDIA cuDNN archives and diagnose cuDNN set-ups
 cudnnctl installs NVIDIA cuDNN archives into CUDA toolkits as one transaction
 and diagnoses cuDNN set-ups layer by layer (doctor, bundle, trace, explain).
 One static binary: it needs glibc 2.17 or newer and nothing else.
EOF
  [[ -n $REPO ]] || sed -i '/^Homepage: $/d' "$root/DEBIAN/control"
  dpkg-deb --root-owner-group -Zxz --build "$root" "$OUT/cudnnctl_${VERSION}_$2.deb" >/dev/null
}
for arch in x86_64 aarch64; do
  install -m 755 "${BIN[$arch]}" "$OUT/cudnnctl-linux-$arch"
  name=cudnnctl-$VERSION-linux-$arch
  stage_folder "$name" "${BIN[$arch]}" cudnnctl
  tar -C "$WORK/stage" --owner=0 --group=0 --numeric-owner -czf "$OUT/$name.tar.gz" "$name"
  deb $arch "$([[ $arch == x86_64 ]] && echo amd64 || echo arm64)"
  python3 scripts/make-wheel.py "${BIN[$arch]}" "manylinux_2_17_$arch" "$OUT" --version "$VERSION" >/dev/null
done

# ---- Windows: the exe, the zip, its wheel and its package-manager manifests
install -m 755 "$EXE" "$OUT/cudnnctl-windows-x86_64.exe"
name=cudnnctl-$VERSION-windows-x86_64
stage_folder "$name" "$EXE" cudnnctl.exe
(cd "$WORK/stage" && zip -X -q -r "$OUT/$name.zip" "$name")
python3 scripts/make-wheel.py "$EXE" win_amd64 "$OUT" --version "$VERSION" >/dev/null
python3 scripts/release_manifests.py "$OUT/$name.zip" "$VERSION" "$WORK/manifests" --base-url "$BASE_URL"
cp "$WORK/manifests/cudnnctl.json" "$WORK"/manifests/winget/*.yaml "$OUT/"

# ---- the installer, naming this repository (its default download place)
if [[ -n $REPO ]]; then sed "s#@GITHUB_REPOSITORY@#$REPO#g" scripts/install.sh >"$OUT/install.sh"
else cp scripts/install.sh "$OUT/install.sh"; fi
chmod 755 "$OUT/install.sh"

# ---- checksums of everything
(cd "$OUT" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%f\n' | LC_ALL=C sort | xargs sha256sum >SHA256SUMS)
log "$(find "$OUT" -maxdepth 1 -type f | wc -l) files in $OUT ($(du -sh "$OUT" | cut -f1)) in $((SECONDS - start)) s"
echo "$OUT"

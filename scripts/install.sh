#!/bin/sh
# Installs the cudnnctl program from a release (POSIX sh; needs curl or wget, tar, gzip, and sha256sum,
# shasum or openssl). One line:
#   curl -fsSL https://github.com/@GITHUB_REPOSITORY@/releases/latest/download/install.sh | sh
#   curl -fsSL .../install.sh | sh -s -- --dir /opt/bin --version 1.2.3
# Options (or the environment variable beside each):
#   --dir DIR         where to put cudnnctl (CUDNNCTL_INSTALL_DIR; default ~/.local/bin)
#   --version V       that release instead of the latest (CUDNNCTL_VERSION)
#   --base-url URL    a mirror: the folder holding SHA256SUMS and the release files (CUDNNCTL_INSTALL_BASE_URL)
#   --force           install even when the same version is there already
# It picks cudnnctl-<version>-linux-<machine>.tar.gz for this machine (uname: x86_64, aarch64), checks its
# SHA-256 against the release's SHA256SUMS, checks that the program runs here, then moves it into place in
# one rename: a failure at any step leaves what was installed before untouched. The same version installed
# already: nothing is downloaded or changed.
# scripts/release.sh writes the GitHub repository into the copy it puts in dist/ (@GITHUB_REPOSITORY@ above).
set -eu

REPO="@GITHUB_REPOSITORY@"
DIR=${CUDNNCTL_INSTALL_DIR:-}
VERSION=${CUDNNCTL_VERSION:-}
BASE_URL=${CUDNNCTL_INSTALL_BASE_URL:-}
FORCE=0

say() { printf 'cudnnctl-install: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

while [ $# -gt 0 ]; do
  case $1 in
    --dir) [ $# -ge 2 ] || die "--dir needs a folder"; DIR=$2; shift 2 ;;
    --dir=*) DIR=${1#--dir=}; shift ;;
    --version) [ $# -ge 2 ] || die "--version needs a version"; VERSION=${2#v}; shift 2 ;;
    --version=*) VERSION=${1#--version=}; VERSION=${VERSION#v}; shift ;;
    --base-url) [ $# -ge 2 ] || die "--base-url needs a URL"; BASE_URL=$2; shift 2 ;;
    --base-url=*) BASE_URL=${1#--base-url=}; shift ;;
    --force) FORCE=1; shift ;;
    -h|--help) sed -n '2,16p' "$0" 2>/dev/null | sed 's/^# \{0,1\}//' || true; exit 0 ;;
    *) die "unknown option '$1' (--dir, --version, --base-url, --force)" ;;
  esac
done
[ -n "$DIR" ] || { [ -n "${HOME:-}" ] || die "HOME is not set: give --dir"; DIR=$HOME/.local/bin; }

# ---- this machine (CUDNNCTL_INSTALL_UNAME_S / _M stand in for uname in the installer's tests)
os=${CUDNNCTL_INSTALL_UNAME_S:-$(uname -s)}
machine=${CUDNNCTL_INSTALL_UNAME_M:-$(uname -m)}
case $os in
  Linux) ;;
  MINGW*|MSYS*|CYGWIN*|Windows*) die "on Windows install cudnnctl.exe with winget (winget install Cudnnctl.Cudnnctl), Scoop, pip (pip install cudnnctl) or from the release's windows-x86_64 zip" ;;
  Darwin) die "there is no macOS build of cudnnctl (cuDNN has no macOS release)" ;;
  *) die "no cudnnctl build for the OS '$os'; build it from source (README.md: Build from source)" ;;
esac
case $machine in
  x86_64|amd64|x64) arch=x86_64 ;;
  aarch64|arm64|armv8*) arch=aarch64 ;;
  *) die "no cudnnctl build for the machine '$machine' (there are x86_64 and aarch64 builds); build it from source" ;;
esac

# ---- where the release files are
if [ -z "$BASE_URL" ]; then
  case $REPO in
    @*) die "this copy of install.sh does not name its GitHub repository: give --base-url (the folder holding SHA256SUMS)" ;;
  esac
  if [ -n "$VERSION" ]; then BASE_URL=https://github.com/$REPO/releases/download/v$VERSION
  else BASE_URL=https://github.com/$REPO/releases/latest/download; fi
fi
BASE_URL=${BASE_URL%/}

if command -v curl >/dev/null 2>&1; then
  download() { curl -fsSL --proto '=https,http' --retry 2 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then
  download() { wget -q -O "$2" "$1"; }
else
  die "neither curl nor wget is installed"
fi
sha256_of() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl >/dev/null 2>&1; then openssl dgst -sha256 "$1" | sed 's/.*= *//'
  else die "no sha256sum, shasum or openssl to check the download with"; fi
}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cudnnctl-install.XXXXXX") || die "cannot make a temporary folder"
staged=""
cleanup() { rm -rf "$tmp"; [ -z "$staged" ] || rm -f "$staged"; }
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- which file: the release's SHA256SUMS names it and its hash
download "$BASE_URL/SHA256SUMS" "$tmp/SHA256SUMS" || die "cannot download $BASE_URL/SHA256SUMS"
line=$(grep -E "^[0-9a-fA-F]{64}  \*?cudnnctl-[0-9][0-9A-Za-z.+-]*-linux-$arch\.tar\.gz\$" "$tmp/SHA256SUMS" | head -n 1 || true)
[ -n "$line" ] || die "$BASE_URL/SHA256SUMS names no cudnnctl-<version>-linux-$arch.tar.gz"
want=$(printf '%s\n' "$line" | cut -d' ' -f1 | tr 'A-F' 'a-f')
file=$(printf '%s\n' "$line" | sed 's/^[0-9a-fA-F]*  \*\{0,1\}//')
version=${file#cudnnctl-}
version=${version%-linux-"$arch".tar.gz}
[ -z "$VERSION" ] || [ "$VERSION" = "$version" ] || die "$BASE_URL holds cudnnctl $version, not $VERSION"

# ---- the same version there already: nothing to do
target=$DIR/cudnnctl
if [ "$FORCE" = 0 ] && [ -x "$target" ]; then
  have=$("$target" --version 2>/dev/null | sed -n '1s/^cudnnctl \([^ ]*\).*/\1/p' || true)
  if [ "$have" = "$version" ]; then
    say "cudnnctl $version is already installed in $DIR (nothing changed; --force reinstalls)"
    exit 0
  fi
fi

# ---- download, check, unpack, try
say "downloading $BASE_URL/$file"
download "$BASE_URL/$file" "$tmp/$file" || die "cannot download $BASE_URL/$file"
got=$(sha256_of "$tmp/$file")
[ "$got" = "$want" ] || die "$file has SHA-256 $got, but SHA256SUMS says $want: refused, nothing installed"
mkdir "$tmp/unpacked"
tar -xzf "$tmp/$file" -C "$tmp/unpacked" || die "cannot unpack $file"
new=$tmp/unpacked/${file%.tar.gz}/cudnnctl
[ -f "$new" ] || die "$file holds no ${file%.tar.gz}/cudnnctl"
chmod 755 "$new"
ran=$("$new" --version 2>&1) || die "the downloaded cudnnctl does not run on this machine: $ran"

# ---- into place: a copy beside the target, then one rename (never a half-written cudnnctl)
mkdir -p "$DIR" || die "cannot create $DIR"
staged=$DIR/.cudnnctl.new.$$
cp "$new" "$staged" || die "cannot write into $DIR"
chmod 755 "$staged"
mv -f "$staged" "$target" || die "cannot move cudnnctl into $DIR"
staged=""
say "installed $ran"
say "into $target"
case ":${PATH:-}:" in
  *":$DIR:"*) ;;
  *) say "$DIR is not on PATH: add it (export PATH=\"$DIR:\$PATH\") or run $target" ;;
esac

#!/usr/bin/env bash
# Builds the third-party libraries that the portable Linux cudnnctl links, statically, with zig (PyPI's ziglang)
# for <arch>-linux-gnu.2.17 (the manylinux2014 glibc floor), from Debian's source packages (binary packages for
# the header-only libraries), into a cache outside the repo keyed by their versions. A second run with the same
# versions builds nothing and needs no network.
#   scripts/portable-deps.sh <x86_64|aarch64>     prints the prefix (last line of stdout)
# Environment: CUDNNCTL_PORTABLE_DEPS_CACHE (default ${XDG_CACHE_HOME:-~/.cache}/cudnnctl-portable-deps),
#              CUDNNCTL_JOBS (default 2).
# apt is used with a private sources list, lists and cache (as scripts/mingw-deps.sh): the system's apt is untouched.
# The prefix holds bin/{cc,c++,ar,ranlib} (zig with the target), which cmake/zig-linux.cmake uses.
# ISA-L is not built: its x86_64 code needs nasm and its build adds minutes; zip members inflate with zlib
# (archive/inflater.hpp), tar.xz members with liblzma, which are what the Linux archives use.
set -euo pipefail
ARCH=${1:?usage: portable-deps.sh <x86_64|aarch64>}
case $ARCH in x86_64|aarch64) ;; *) echo "portable-deps: unknown arch $ARCH" >&2; exit 2 ;; esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${CUDNNCTL_PORTABLE_DEPS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-portable-deps}
RECIPE=1   # bump when the build recipe below changes
ZIG_VERSION=0.17.0
GLIBC=2.17
TARGET=$ARCH-linux-gnu.$GLIBC
SUITE=${CUDNNCTL_DEBIAN_SUITE:-bookworm}
MIRROR=${CUDNNCTL_DEBIAN_MIRROR:-http://deb.debian.org/debian}
JOBS=${CUDNNCTL_JOBS:-2}
SRC_PKGS=(zlib libdeflate xz-utils libarchive libzip openssl curl)
BIN_PKGS=(libfmt-dev nlohmann-json3-dev libcli11-dev libspdlog-dev)
log() { echo "portable-deps: $*" >&2; }
mkdir -p "$CACHE"

# zig, pinned, in a private venv (pip's cache makes a re-install cheap; an installed one needs no network)
ZIGENV=$CACHE/zig-$ZIG_VERSION
ZIG=$ZIGENV/lib/python3*/site-packages/ziglang/zig
if ! compgen -G "$ZIG" >/dev/null; then
  log "installing ziglang==$ZIG_VERSION into $ZIGENV"
  rm -rf "$ZIGENV"
  python3 -m venv "$ZIGENV"
  "$ZIGENV/bin/pip" install -q "ziglang==$ZIG_VERSION"
fi
ZIG=$(compgen -G "$ZIG" | head -n1)

source "$ROOT/scripts/debian-deps.sh"
debian_apt "$CACHE" "$SUITE" "$MIRROR"
# the versions (and the zig version and the target) decide the cache key
debian_cache_key "$CACHE" "$ARCH-r$RECIPE-" "zig_$ZIG_VERSION $TARGET "
PREFIX=$CACHE/$KEY

# the compiler wrappers: one program name per tool, as CMake, autotools and OpenSSL's Configure expect
# (rewritten only when they change: ccache keys on the compiler's mtime)
wrapper() {  # wrapper NAME ZIG-ARGS...
  local text
  text=$(printf '#!/bin/sh\nexec "%s" %s "$@"' "$ZIG" "${*:2}")
  [[ -f $PREFIX/bin/$1 && $(cat "$PREFIX/bin/$1") == "$text" ]] && return
  mkdir -p "$PREFIX/bin"
  echo "$text" >"$PREFIX/bin/$1"
  chmod +x "$PREFIX/bin/$1"
}
wrappers() { wrapper cc cc -target "$TARGET"; wrapper c++ c++ -target "$TARGET"; wrapper ar ar; wrapper ranlib ranlib; }
# small CMake packages for the header-only libraries, naming only this prefix (as mingw-deps.sh)
shims() {
  wrappers
  header_packages
}
if [[ -f $PREFIX/.complete ]]; then
  shims
  log "cached: $PREFIX"
  echo "$PREFIX"
  exit 0
fi

log "building for $TARGET into $PREFIX: $versions"
start=$SECONDS
WORK=$CACHE/work-$KEY
rm -rf "$WORK" "$PREFIX"
mkdir -p "$WORK" "$PREFIX/include" "$PREFIX/lib/cmake"
echo "$versions" >"$PREFIX/versions"
wrappers
cd "$WORK"
apt-get "${APT[@]}" -qq --download-only source "${SRC_PKGS[@]}" >/dev/null 2>&1 ||
  apt-get "${APT[@]}" --download-only source "${SRC_PKGS[@]}"
for dsc in ./*.dsc; do dpkg-source -q --no-check -x "$dsc" >/dev/null 2>&1 || dpkg-source --no-check -x "$dsc"; done
apt-get "${APT[@]}" -qq download "${BIN_PKGS[@]}"
for deb in ./*.deb; do dpkg-deb -x "$deb" bin; done
srcdir() { find "$WORK" -maxdepth 1 -type d -name "$1-*" | head -n1; }
export CC=$PREFIX/bin/cc CXX=$PREFIX/bin/c++ AR=$PREFIX/bin/ar RANLIB=$PREFIX/bin/ranlib
export CFLAGS="-O2 -fPIC -w" CCACHE_DISABLE=1  # -w: the libraries' own warnings are not ours to read
step() { log "$1: $((SECONDS - t)) s"; t=$SECONDS; }
t=$SECONDS

cp -r bin/usr/include/fmt bin/usr/include/nlohmann bin/usr/include/CLI bin/usr/include/spdlog "$PREFIX/include/"

# zlib
(cd "$(srcdir zlib)" && ./configure --static --prefix="$PREFIX" >/dev/null && make -s -j"$JOBS" libz.a >/dev/null &&
   make -s install >/dev/null)
step zlib

# libdeflate (bookworm's 1.14 has a Makefile only): CRC-32 of zip members
make -s -C "$(srcdir libdeflate)" -j"$JOBS" CC="$CC" AR="$AR" libdeflate.a >/dev/null
cp "$(srcdir libdeflate)/libdeflate.a" "$PREFIX/lib/"
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
step libdeflate

# liblzma only (no xz tools, no scripts, no translations)
(cd "$(srcdir xz-utils)" && ./configure --host="$ARCH-linux-gnu" --prefix="$PREFIX" --disable-shared --enable-static \
   --disable-xz --disable-xzdec --disable-lzmadec --disable-lzmainfo --disable-lzma-links --disable-scripts \
   --disable-doc --disable-nls >/dev/null && make -s -j"$JOBS" -C src/liblzma >/dev/null &&
   make -s -C src/liblzma install >/dev/null)
step liblzma

CROSS=(-G Ninja -DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/zig-linux.cmake" -DCUDNNCTL_PORTABLE_DEPS="$PREFIX"
       -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF -DCMAKE_INSTALL_PREFIX="$PREFIX"
       -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_C_COMPILER_LAUNCHER= -Wno-dev)

# libarchive: tar readers with the xz and gzip filters; no other codecs, crypto, ACLs, xattrs or tools
cmake -S "$(srcdir libarchive)" -B build-archive "${CROSS[@]}" -DENABLE_OPENSSL=OFF -DENABLE_MBEDTLS=OFF \
  -DENABLE_NETTLE=OFF -DENABLE_CNG=OFF -DENABLE_LZMA=ON -DENABLE_ZLIB=ON -DENABLE_BZip2=OFF -DENABLE_LZ4=OFF \
  -DENABLE_ZSTD=OFF -DENABLE_LZO=OFF -DENABLE_LIBB2=OFF -DENABLE_LIBXML2=OFF -DENABLE_EXPAT=OFF \
  -DENABLE_PCREPOSIX=OFF -DENABLE_PCRE2POSIX=OFF -DENABLE_ICONV=OFF -DENABLE_ACL=OFF -DENABLE_XATTR=OFF \
  -DENABLE_TAR=OFF -DENABLE_CPIO=OFF -DENABLE_CAT=OFF -DENABLE_UNZIP=OFF -DENABLE_TEST=OFF \
  -DENABLE_INSTALL=ON -DENABLE_WERROR=OFF >/dev/null
cmake --build build-archive -j"$JOBS" --target archive_static >/dev/null
cp build-archive/libarchive/libarchive.a "$PREFIX/lib/"
cp "$(srcdir libarchive)"/libarchive/archive.h "$(srcdir libarchive)"/libarchive/archive_entry.h "$PREFIX/include/"
step libarchive

# libzip: zlib only (no encryption backend: cudnnctl reads no encrypted zips)
cmake -S "$(srcdir libzip)" -B build-zip "${CROSS[@]}" -DENABLE_BZIP2=OFF -DENABLE_LZMA=OFF -DENABLE_ZSTD=OFF \
  -DENABLE_GNUTLS=OFF -DENABLE_OPENSSL=OFF -DENABLE_MBEDTLS=OFF -DENABLE_COMMONCRYPTO=OFF \
  -DENABLE_WINDOWS_CRYPTO=OFF -DBUILD_TOOLS=OFF -DBUILD_REGRESS=OFF -DBUILD_EXAMPLES=OFF -DBUILD_DOC=OFF >/dev/null
cmake --build build-zip -j"$JOBS" >/dev/null
cmake --install build-zip >/dev/null
step libzip

# OpenSSL: libcrypto and libssl only, static, without the legacy/unused algorithms, engines or modules.
# OPENSSLDIR /etc/ssl: where Debian/Ubuntu/SUSE keep it (the CA files themselves are found by platform/http).
case $ARCH in x86_64) ossl_target=linux-x86_64 ;; aarch64) ossl_target=linux-aarch64 ;; esac
(cd "$(srcdir openssl)" && ./Configure "$ossl_target" --prefix="$PREFIX" --libdir=lib --openssldir=/etc/ssl \
   no-shared no-tests no-module no-dso no-engine no-comp no-legacy no-ssl3 no-dtls no-srp no-idea no-mdc2 \
   no-rc5 no-camellia no-seed no-sm2 no-sm3 no-sm4 no-whirlpool no-cast no-bf no-rc2 no-aria no-gost no-ct \
   no-cms no-ts no-ui-console >"$WORK/openssl.log" 2>&1 &&
 make -s -j"$JOBS" build_libs >>"$WORK/openssl.log" 2>&1 && make -s install_dev >>"$WORK/openssl.log" 2>&1) ||
  { tail -n 30 "$WORK/openssl.log" >&2; exit 1; }
step openssl

# libcurl: HTTP and HTTPS only (OpenSSL, zlib); nothing of LDAP, SSH, RTMP, IDN, PSL, HTTP/2, brotli, zstd
cmake -S "$(srcdir curl)" -B build-curl "${CROSS[@]}" -DHTTP_ONLY=ON -DCURL_ENABLE_SSL=ON -DCURL_USE_OPENSSL=ON \
  -DOPENSSL_ROOT_DIR="$PREFIX" -DOPENSSL_USE_STATIC_LIBS=ON -DCURL_DISABLE_LDAP=ON -DCURL_DISABLE_LDAPS=ON \
  -DCURL_USE_LIBSSH2=OFF -DCURL_USE_LIBSSH=OFF -DCURL_USE_GSSAPI=OFF -DUSE_LIBIDN2=OFF -DCURL_USE_LIBPSL=OFF \
  -DUSE_NGHTTP2=OFF -DUSE_NGTCP2=OFF -DUSE_QUICHE=OFF -DCURL_BROTLI=OFF -DCURL_ZSTD=OFF -DCURL_ZLIB=ON \
  -DCURL_DISABLE_NTLM=ON -DENABLE_MANUAL=OFF -DBUILD_CURL_EXE=OFF -DBUILD_TESTING=OFF -DBUILD_LIBCURL_DOCS=OFF \
  -DCURL_CA_BUNDLE=none -DCURL_CA_PATH=none -DCURL_CA_FALLBACK=ON -DENABLE_UNIX_SOCKETS=OFF >/dev/null
cmake --build build-curl -j"$JOBS" >/dev/null
cmake --install build-curl >/dev/null
step curl

shims
touch "$PREFIX/.complete"
cd "$CACHE" && rm -rf "$WORK"
log "built in $((SECONDS - start)) s: $PREFIX"
echo "$PREFIX"

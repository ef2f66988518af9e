#!/usr/bin/env bash
# Sourced by scripts/mingw-deps.sh and scripts/portable-deps.sh: Debian's packages through a private apt (its own
# sources list, lists and cache under the caller's cache folder; the system's apt configuration is untouched), the
# cache key from the packages' versions, and the small CMake packages of the header-only libraries.
# The caller defines log(), SRC_PKGS and BIN_PKGS, and sets PREFIX before calling header_packages.

# debian_apt CACHE SUITE MIRROR: sets APT, the apt-get/apt-cache options of the private apt.
debian_apt() {
  mkdir -p "$1/apt/lists/partial" "$1/apt/cache/archives/partial"
  cat >"$1/apt/sources.list" <<EOF
deb $3 $2 main
deb-src $3 $2 main
deb $3 $2-updates main
deb-src $3 $2-updates main
EOF
  APT=(-o Dir::Etc::sourcelist="$1/apt/sources.list" -o Dir::Etc::sourceparts=/dev/null
       -o Dir::State::Lists="$1/apt/lists" -o Dir::Cache="$1/apt/cache"
       -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= -o APT::Sandbox::User="$(id -un)"
       -o Debug::NoLocking=1 -o APT::Architecture=amd64)
}

# debian_cache_key CACHE KEY_PREFIX SEED: sets `versions` (each package's newest version) and KEY (KEY_PREFIX and a
# hash of SEED and the versions). The package lists are refreshed once a day (a cached run needs no network);
# without the network, KEY is the newest complete prefix cached under KEY_PREFIX.
debian_cache_key() {
  versions=""
  local fresh p v
  fresh=$(find "$1/apt/lists" -maxdepth 1 -name '*_Sources*' -mmin -1440 2>/dev/null | head -n1)
  if [[ -n $fresh ]] || apt-get "${APT[@]}" -qq update >/dev/null 2>"$1/apt/update.log"; then
    for p in "${SRC_PKGS[@]}"; do
      v=$(apt-cache "${APT[@]}" showsrc "$p" | awk '/^Version:/{print $2}' | sort -V | tail -n1)
      [[ -n $v ]] || { log "no source package $p"; exit 1; }
      versions+="${p}_$v "
    done
    for p in "${BIN_PKGS[@]}"; do
      v=$(apt-cache "${APT[@]}" policy "$p" | awk '/Candidate:/{print $2}')
      [[ -n $v && $v != "(none)" ]] || { log "no binary package $p"; exit 1; }
      versions+="${p}_$v "
    done
    KEY=$2$(echo "$3$versions" | sha256sum | cut -c1-16)
  else
    KEY=$(ls -t "$1" 2>/dev/null | grep -E "^$2" | while read -r k; do
            [[ -f $1/$k/.complete ]] && { echo "$k"; break; }; done || true)
    [[ -n $KEY ]] || { log "apt-get update failed (see $1/apt/update.log) and nothing is cached"; exit 1; }
    log "offline: using the cached $KEY"
  fi
}

# Small CMake packages for the header-only libraries, naming only $PREFIX (the Debian packages' own would add
# /usr/include to a cross compile). Cheap, so rewritten on every run.
pkg() {  # pkg NAME TARGET VERSION [definitions]
  mkdir -p "$PREFIX/lib/cmake/$1"
  cat >"$PREFIX/lib/cmake/$1/$1Config.cmake" <<EOF
if(NOT TARGET $2)
  add_library($2 INTERFACE IMPORTED)
  set_target_properties($2 PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "\${CMAKE_CURRENT_LIST_DIR}/../../../include"
    INTERFACE_COMPILE_DEFINITIONS "${4:-}")
endif()
EOF
  cat >"$PREFIX/lib/cmake/$1/$1ConfigVersion.cmake" <<EOF
set(PACKAGE_VERSION $3)
if(PACKAGE_FIND_VERSION_MAJOR STREQUAL "" OR PACKAGE_FIND_VERSION_MAJOR EQUAL ${3%%.*})
  if(NOT PACKAGE_VERSION VERSION_LESS PACKAGE_FIND_VERSION)
    set(PACKAGE_VERSION_COMPATIBLE TRUE)
  endif()
endif()
EOF
}
# a package's upstream version from the recorded Debian versions (nlohmann-json3-dev_3.11.2-2 -> 3.11.2; no epoch)
debver() { tr ' ' '\n' <"$PREFIX/versions" | sed -n "s/^$1_\([0-9]*:\)\{0,1\}\([0-9.]*[0-9]\).*/\2/p"; }
header_packages() {
  pkg fmt fmt::fmt "$(debver libfmt-dev)" FMT_HEADER_ONLY=1
  pkg nlohmann_json nlohmann_json::nlohmann_json "$(debver nlohmann-json3-dev)"
  pkg CLI11 CLI11::CLI11 "$(debver libcli11-dev)"
  # spdlog header-only, on the header-only fmt (as Debian's spdlog::spdlog_header_only, which uses external fmt)
  pkg spdlog spdlog::spdlog_header_only "$(debver libspdlog-dev)" SPDLOG_FMT_EXTERNAL
}

#!/usr/bin/env bash
# Installs what the tests need on top of the build's packages, builds with the tests (warnings are errors)
# and runs the whole suite through CTest. The test packages are large (wine64 and Chromium alone are several
# hundred MB): about 1.2 GB more on disk, a few minutes to download on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh

# catch2: the unit tests; time, openssl: the benches; zip, unzip, p7zip-full, xz-utils, libarchive-tools, zipcmp/zipmerge/ziptool: test
# archives made by other tools (and the benches); g++-mingw-w64 + wine64: real PE files and cudnnctl.exe under
# wine; chromium + fonts: the doctor's HTML page rendered; ansible-core: the Ansible role; clang +
# libclang-rt-14-dev: the libFuzzer build (.ci/run); python3-jsonschema + python3-yaml: the Scoop/winget
# manifests checked against their schemas; python3-venv: the wheels installed into fresh venvs; rpm (rpm, rpmbuild):
# the owner tests' real rpm database (dpkg and dpkg-deb are in every Debian).
TEST_PACKAGES=(catch2 time openssl zip unzip xz-utils p7zip-full libarchive-tools zipcmp zipmerge ziptool
               g++-mingw-w64-x86-64-posix wine64 chromium fonts-dejavu-core ansible-core
               clang libclang-rt-14-dev python3-jsonschema python3-yaml python3-venv rpm)
ensure_packages tests "${TEST_PACKAGES[@]}"

# uv and auditwheel from PyPI, in a private venv, for packaging.wheel_uv and packaging.wheel_auditwheel (the tests
# themselves download nothing; without these they report skipped)
TOOLS=${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-test-tools
if [[ ! -x $TOOLS/bin/uv || ! -x $TOOLS/bin/auditwheel ]]; then
  { python3 -m venv "$TOOLS" && "$TOOLS/bin/pip" install -q "uv==0.13.9" "auditwheel==6.8.2"; } >&2 ||
    echo "test: uv and auditwheel could not be installed into $TOOLS: the wheel tests that need them skip" >&2
fi
export CUDNNCTL_UV=$TOOLS/bin/uv CUDNNCTL_AUDITWHEEL=$TOOLS/bin/auditwheel

scripts/setup.sh -DCUDNNCTL_TESTS=ON >&2
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"

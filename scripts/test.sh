#!/usr/bin/env bash
# Installs what the tests need on top of the build's packages, builds with the tests (warnings are errors)
# and runs the whole suite through CTest. The test packages are large (wine64 and Chromium alone are several
# hundred MB): about 1.2 GB more on disk, a few minutes to download on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh

# catch2: the unit tests; time, openssl: the benches; llvm-14 (llvm-objdump), binutils (readelf): the real-files
# corpus's independent readers; zip, unzip, p7zip-full, xz-utils, libarchive-tools, zipcmp/zipmerge/ziptool: test
# archives made by other tools (and the benches); g++-mingw-w64 + wine64: real PE files and cudnnctl.exe under
# wine; chromium + fonts: the doctor's HTML page rendered; slurm-wlm + munge: the one-node Slurm cluster of
# fleet.slurm_health; clang +
# libclang-rt-14-dev: the libFuzzer build (.ci/run); python3-jsonschema + python3-yaml: the Scoop/winget
# manifests checked against their schemas; python3-venv: the wheels installed into fresh venvs; rpm (rpm, rpmbuild):
# the owner tests' real rpm database (dpkg and dpkg-deb are in every Debian).
TEST_PACKAGES=(catch2 time openssl zip unzip xz-utils p7zip-full libarchive-tools zipcmp zipmerge ziptool llvm-14 binutils
               g++-mingw-w64-x86-64-posix wine64 chromium fonts-dejavu-core slurm-wlm munge
               clang libclang-rt-14-dev python3-jsonschema python3-yaml python3-venv rpm
               prometheus prometheus-node-exporter)
ensure_packages tests "${TEST_PACKAGES[@]}"

source scripts/test-tools.sh

scripts/setup.sh -DCUDNNCTL_TESTS=ON >&2
# the real-files corpus (label real: 6.7 GB of NVIDIA's wheels) runs on its own after tests/real/fetch_corpus.py:
# `ctest --test-dir build -L real` (.ci/run does both)
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure -j "$(nproc)" -LE "^real$"

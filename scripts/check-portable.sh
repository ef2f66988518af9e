#!/usr/bin/env bash
# Keeps the MSVC/vcpkg preset buildable: OS headers and OS conditionals only in src/platform/.
# (The mingw build of cudnnctl.exe compiles every other file for Windows; MSVC has no POSIX headers at all,
# which mingw would hide, hence this check.)
# src/trace/audit/ is the LD_AUDIT module that the Linux loader loads into a traced program: a Linux-only C library,
# built only where CMake says UNIX, and never part of cudnnctl.exe.
set -euo pipefail
cd "$(dirname "$0")/.."
bad=0
posix=$(grep -rnE '#[[:space:]]*include[[:space:]]*<(unistd|dlfcn|fcntl|pthread|dirent|pwd|grp|termios|poll|spawn|elf|link|signal|libgen|strings|sys/[a-z_]+)\.h>' \
          src include bench | grep -v '^src/platform/posix/' | grep -v '^src/trace/audit/' || true)
if [[ -n $posix ]]; then echo "POSIX headers outside src/platform/posix (MSVC cannot compile these):"; echo "$posix"; bad=1; fi
win=$(grep -rniE '#[[:space:]]*include[[:space:]]*<(windows|winhttp|bcrypt|shellapi|io|direct|process|winreg|winternl)\.h>' \
        src include bench | grep -v '^src/platform/win/' || true)
if [[ -n $win ]]; then echo "Windows headers outside src/platform/win:"; echo "$win"; bad=1; fi
cond=$(grep -rnE '(_WIN32|__linux__|__APPLE__|_MSC_VER|__MINGW32__)' src include bench | grep -v '^src/platform/' || true)
if [[ -n $cond ]]; then echo "OS conditionals outside src/platform/ (put the difference behind a platform interface):"; echo "$cond"; bad=1; fi
((bad == 0)) && echo "check-portable: OS-specific code only in src/platform/"
exit $bad

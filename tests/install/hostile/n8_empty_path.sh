#!/usr/bin/env bash
# hostile.md N8: an empty value for a path option is a usage error (exit 2); nothing selected, read or changed.
. "$(dirname "$0")/common.sh" "$1"
mk_tk tk; "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null
before=$(snap tk)
CUDA_PATH=$PWD/tk "$C" path --cuda-path ""; check "path --cuda-path '': exit 2" [ $? -eq 2 ]
CUDA_PATH=$PWD/tk "$C" uninstall --cuda-path ""; check "uninstall --cuda-path '': exit 2" [ $? -eq 2 ]
check "uninstall --cuda-path '': the environment's toolkit is untouched" [ "$(snap tk)" = "$before" ]
CUDA_PATH=$PWD/tk "$C" doctor --cuda-path "" --no-gpu > /dev/null; check "doctor --cuda-path '': exit 2" [ $? -eq 2 ]
CUDA_PATH=$PWD/tk "$C" install $N.tar.xz --cuda-path "" --sha256 $H --no-path; check "install --cuda-path '': exit 2" [ $? -eq 2 ]
out=$("$C" uninstall --cuda-path "" --json); check "--json: a usage error document" grep -q '"code": "usage"' <<< "$out"
empty() {      # empty WHAT ARGS...: the command with one empty path value must be a usage error
  local what=$1; shift
  "$C" "$@" > /dev/null 2>&1; local rc=$?
  check "$what (empty value): exit 2" [ $rc -eq 2 ]
}
empty "extract --to ''" extract $N.tar.xz --to ""
empty "fetch --cache ''" fetch 9.19 --cache ""
empty "inspect --catalog ''" inspect $N.tar.xz --catalog ""
empty "--log-file ''" --log-file "" inspect $N.tar.xz
empty "doctor --html ''" doctor --html "" --no-gpu --cuda-path tk
empty "install --sha256-file ''" install $N.tar.xz --sha256-file "" --cuda-path tk
empty "install ''" install "" --cuda-path tk
empty "explain ''" explain ""
empty "path --consumer ''" path --consumer "" --cuda-path tk
empty "trace --output ''" trace --output "" -- true
finish

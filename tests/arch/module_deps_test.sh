#!/usr/bin/env bash
# module_deps.sh passes on the tree, and fails on copies of it with one violation planted each: an
# include of doctor/ from workload/, a link of the doctor from the workload's target, workload sources
# compiled into the doctor's target (the old hidden cycle).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECK=$ROOT/tests/arch/module_deps.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bash "$CHECK" "$ROOT" || { echo "FAIL: the tree itself violates the module order"; exit 1; }
planted() {  # planted NAME SED_FILE SED_EXPR: a fresh copy with one edit, the check must fail
  rm -rf "$tmp/t" && mkdir "$tmp/t" && cp -r "$ROOT/src" "$ROOT/include" "$ROOT/CMakeLists.txt" "$tmp/t/"
  sed -i "$3" "$tmp/t/$2"
  cmp -s "$ROOT/$2" "$tmp/t/$2" && { echo "FAIL: $1: the edit did not apply"; exit 1; }
  if bash "$CHECK" "$tmp/t" 2>"$tmp/err"; then echo "FAIL: $1 was not caught"; exit 1; fi
  echo "caught: $1: $(head -1 "$tmp/err")"
}
planted "workload includes doctor/" src/workload/conv_workload.cpp '1a #include "cudnnctl/doctor/probe.hpp"'
planted "gpu includes workload/" include/cudnnctl/gpu/loaded_api.hpp '1a #include "cudnnctl/workload/results.hpp"'
planted "the workload target links the doctor" CMakeLists.txt 's/target_link_libraries(cudnnctl_workload PUBLIC /&cudnnctl_doctor /'
planted "workload sources in the doctor target" CMakeLists.txt 's#  src/doctor/windows_offline.cpp)#  src/doctor/windows_offline.cpp\n  src/workload/conv_layer.cpp)#'
planted "bundle includes doctor/" src/bundle/bundle.cpp '1a #include "cudnnctl/doctor/probe.hpp"'
echo ok

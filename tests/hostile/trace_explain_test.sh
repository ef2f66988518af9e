#!/usr/bin/env bash
# The trace/explain repros of the round-4 hostile review (N3-N7, N10, N11), through the built binary.
# Usage: trace_explain_test.sh CUDNNCTL CASE. Each case exits 0 when cudnnctl behaves as the review's
# "correct behaviour" says, 1 (with what it saw) otherwise, and prints "SKIP: why" when its tools are missing.
set -u
C=$(realpath "$1"); CASE=$2
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT; cd "$W"
unset CUDA_HOME CUDA_PATH LD_LIBRARY_PATH
fail() { echo "FAIL ($CASE): $*"; exit 1; }
need() { for t in "$@"; do command -v "$t" >/dev/null || { echo "SKIP: $t is not installed"; exit 0; }; done; }
fake_lib() {  # fake_lib PATH SONAME
  echo 'int cudnn_fake(void) { return 1; }' > f.c; gcc -shared -fPIC -Wl,-soname,"$2" -o "$1" f.c
}

case $CASE in
n3_closed_descriptors)  # a program that closes its descriptors and reuses fd 3 gets no trace line in its file
  need gcc python3; mkdir lib; fake_lib lib/libcudnn.so.9 libcudnn.so.9
  "$C" trace --output report.txt -- python3 -c 'import os, ctypes, sys
os.closerange(3, 1024)
fd = os.open("out.txt", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(fd, b"program data\n"); ctypes.CDLL(sys.argv[1]); os.write(fd, b"more data\n")' "$PWD/lib/libcudnn.so.9" || fail "exit $?"
  [ "$(cat out.txt)" = $'program data\nmore data' ] || fail "the program's file holds: $(cat -A out.txt)"
  grep -q "$PWD/lib/libcudnn.so.9" report.txt || fail "the load after closerange is not in the report: $(cat report.txt)" ;;
n3_forged_records)  # what the program prints (with its stdout closed) is never taken for a load
  "$C" trace --output report.txt -- sh -c 'exec env printf "O\t1\t/opt/none/libcudnn.so.9\t\t\n" >&-'
  ! grep -qE '[0-9]+\. /opt/none' report.txt || fail "a forged record was reported: $(cat report.txt)"
  grep -q 'loaded no cuDNN' report.txt || fail "the report: $(cat report.txt)" ;;
n4_trace_json_non_utf8)
  "$C" trace --json --output report.json -- sh -c 'exit 7' $'x\xff'; rc=$?
  [ $rc = 7 ] || fail "exit $rc, not the command's 7: $(cat report.json)"
  python3 -c 'import json,sys; d=json.load(open("report.json")); assert any("\ufffd" in a for a in d["command"]), d["command"]' 2>&1 || fail "report: $(cat report.json)" ;;
n5_explain_json_non_utf8)
  printf 'Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file \xff\n' | "$C" explain --json > out.json; rc=$?
  [ $rc = 10 ] || fail "exit $rc, not 10: $(cat out.json)"
  python3 -c 'import json; d=json.load(open("out.json")); assert len(d["matches"]) == 1 and "\ufffd" in d["matches"][0]["text"], d' || fail "$(cat out.json)" ;;
n6_huge_version)
  need gcc python3; fake_lib libcudnn.so.99999999999999999999 libcudnn.so.99999999999999999999
  "$C" trace --output report.txt -- python3 -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1]); sys.exit(3)' "$PWD/libcudnn.so.99999999999999999999"; rc=$?
  [ $rc = 3 ] || fail "exit $rc, not the command's 3: $(cat report.txt)"
  grep -q 'libcudnn.so.99999999999999999999' report.txt || fail "the library is not listed: $(cat report.txt)" ;;
n7_noload_probe)
  need gcc python3; mkdir lib; fake_lib lib/libcudnn.so.9 libcudnn.so.9; fake_lib lib/libcudnn_graph.so.9 libcudnn_graph.so.9
  LD_LIBRARY_PATH=$PWD/lib "$C" trace --output report.txt -- python3 -c 'import ctypes, os
ctypes.CDLL("libcudnn.so.9")
try: ctypes.CDLL("libcudnn_graph.so.9", mode=os.RTLD_NOW | os.RTLD_NOLOAD)
except OSError: pass'
  ! grep -qi 'not found\|files.complete\|missing sub' report.txt || fail "a probe was called missing: $(cat report.txt)" ;;
n10_escapes_in_report)
  need gcc python3; d=$'esc\e]0;PWNED\a\e[2J'; mkdir "$d"; fake_lib "$d/libcudnn.so.9" libcudnn.so.9
  "$C" trace -- python3 -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$PWD/$d/libcudnn.so.9" 2> err.txt
  "$C" trace --output report.txt -- python3 -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' "$PWD/$d/libcudnn.so.9"
  for f in err.txt report.txt; do
    ! grep -q $'\e' $f || fail "$f holds a raw ESC: $(cat -v $f)"
    grep -q 'esc\\x1b\]0;PWNED' $f || fail "$f does not show the escaped name: $(cat -v $f)"
  done ;;
n11_explain_memory)  # 6 MiB of one short message: --json within 64 MiB, same exit code and match count
  need python3
  # a memory bound is the release build's: AddressSanitizer's shadow memory and quarantine multiply RSS
  if [ -n "${CUDNNCTL_SANITIZED:-}" ]; then echo "SKIP: memory bounds are measured on the release build, not under the sanitizers"; exit 0; fi
  python3 -c 'import sys; sys.stdout.buffer.write(b"CUDNN_STATUS_NOT_INITIALIZED\n" * 216946)' > big.log
  python3 - "$C" <<'P' || fail "see above"
import json, resource, subprocess, sys
out = open("out.json", "wb")
rc = subprocess.run([sys.argv[1], "explain", "big.log", "--json"], stdout=out).returncode
rss_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
d = json.load(open("out.json"))
print(f"exit {rc}, max RSS {rss_mib:.1f} MiB, {len(d['matches'])} matches")
assert rc == 10 and len(d["matches"]) == 216946 and d["actionable"] == 216946 and d["bytes_read"] == 29 * 216946
assert rss_mib <= 64, "more than 64 MiB"
P
  ;;
*) fail "unknown case" ;;
esac
echo "ok: $CASE"

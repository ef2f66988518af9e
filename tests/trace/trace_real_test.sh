#!/usr/bin/env bash
# cudnnctl trace on real programs of this image. Usage: trace_real_test.sh SCENARIO CUDNNCTL FAKES CONSUMER
#   real_cudnn       python3 + ctypes loads the real cuDNN 9.19 (ld.so cache); cuDNN opens libcudnn_graph lazily (RUNPATH)
#   planted_older    an older cuDNN 9.1.0 (main library only) first on LD_LIBRARY_PATH: it shadows the real one,
#                    its sub-library comes from the real folder (two faults), and --want 9.8 is a third
#   runpath_program  a program whose RUNPATH names a complete 9.1.0 set: the RUNPATH step, no faults
#   passthrough      the command's standard output, standard error and exit code are its own
set -euo pipefail
scenario=$1 cudnnctl=$2 fakes=$3 consumer=$4
real=/usr/local/cuda/lib64/libcudnn.so.9
py=$(command -v python3 || true)
[[ -n $py ]] || { echo "SKIP: no python3"; exit 0; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
check() {  # check JSON-FILE PYTHON-EXPRESSION (over `r`, the report) DESCRIPTION
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
libs = r["libraries"]
def lib(name): return [l for l in libs if l["name"] == name]
def faults(sig): return [f for f in r["faults"] if f["signature"] == sig]
ok = eval(sys.argv[2])
if not ok:
    print("FAILED:", sys.argv[3]); print(json.dumps(r, indent=1)); sys.exit(1)
print("ok:", sys.argv[3])
PY
}
load_cudnn='import ctypes; h = ctypes.CDLL("libcudnn.so.9"); print("version", h.cudnnGetVersion())'

case $scenario in
real_cudnn)
  [[ -e $real ]] || { echo "SKIP: no real cuDNN in /usr/local/cuda"; exit 0; }
  out=$(env -u LD_LIBRARY_PATH "$cudnnctl" trace --json --output "$work/r.json" -- python3 -c "$load_cudnn")
  [[ $out == "version 91900" ]] || { echo "FAILED: the program's output changed: '$out'"; exit 1; }
  check "$work/r.json" 'r["exit_code"] == 0' "exit code 0"
  check "$work/r.json" 'libs[0]["name"] == "libcudnn.so.9" and libs[0]["step"] == "ld.so cache" and libs[0]["asked_as"] == "libcudnn.so.9"' \
    "libcudnn.so.9 first, found through the ld.so cache"
  check "$work/r.json" 'libs[0]["version"].startswith("9.19.0")' "its version is 9.19.0"
  check "$work/r.json" 'lib("libcudnn_graph.so.9")[0]["step"] == "RUNPATH" and lib("libcudnn_graph.so.9")[0]["requested_by"].endswith("libcudnn.so.9")' \
    "libcudnn_graph.so.9 opened lazily by libcudnn.so.9 through its RUNPATH"
  check "$work/r.json" 'r["faults"] == [] and r["missing"] == []' "no faults, nothing missing"
  check "$work/r.json" 'any(p["program"].endswith("python3.11") or "python" in p["program"] for p in r["processes"])' "the python process is named"
  ;;
planted_older)
  [[ -e $real ]] || { echo "SKIP: no real cuDNN in /usr/local/cuda"; exit 0; }
  out=$(LD_LIBRARY_PATH=$fakes/old-main-only "$cudnnctl" trace --want 9.8 --json --output "$work/r.json" -- python3 -c "$load_cudnn")
  [[ $out == "version 90100" ]] || { echo "FAILED: output '$out'"; exit 1; }
  check "$work/r.json" 'libs[0]["path"].endswith("old-main-only/libcudnn.so.9")' "the planted copy is loaded"
  check "$work/r.json" 'libs[0]["step"] == "LD_LIBRARY_PATH" and libs[0]["version"] == "9.1.0" and libs[0]["version_source"] == "file name"' \
    "found through LD_LIBRARY_PATH, version 9.1.0 from its file name"
  check "$work/r.json" 'any(o["path"].startswith("/usr/local/cuda") and o["version"].startswith("9.19.0") and "later in the search order (ld.so cache)" in o["relation"] for o in libs[0]["shadows"])' \
    "it shadows the real 9.19 copy, which comes later through the ld.so cache"
  check "$work/r.json" 'lib("libcudnn_graph.so.9")[0]["path"].startswith("/usr/local/cuda")' "the sub-library comes from the real cuDNN's folder"
  check "$work/r.json" 'len(faults("loader.sublibrary.elsewhere")) == 1 and len(faults("loader.versions.mixed")) == 1' \
    "faults: sub-library from another folder, mixed releases"
  check "$work/r.json" 'len(faults("files.search_path")) == 1 and "wants cuDNN 9.8" in faults("files.search_path")[0]["detail"]' \
    "fault: older than the 9.8 asked for"
  # the human report on standard error names the faults with cause and fix
  LD_LIBRARY_PATH=$fakes/old-main-only "$cudnnctl" trace -- python3 -c "$load_cudnn" > "$work/out" 2> "$work/err"
  grep -q "A cuDNN sub-library comes from another folder than libcudnn (loader.sublibrary.elsewhere)" "$work/err"
  grep -q "    fix: keep one complete cuDNN set in one folder" "$work/err"
  [[ $(cat "$work/out") == "version 90100" ]]
  echo "ok: text report on standard error"
  ;;
runpath_program)
  out=$(env -u LD_LIBRARY_PATH "$cudnnctl" trace --json --output "$work/r.json" --html "$work/r.html" -- "$consumer")
  [[ $out == "cudnnGetVersion 90100" ]] || { echo "FAILED: output '$out'"; exit 1; }
  check "$work/r.json" 'libs[0]["step"] == "RUNPATH" and libs[0]["requested_by"] == "" and libs[0]["path"].endswith("old-full/libcudnn.so.9")' \
    "libcudnn.so.9 through the program's RUNPATH"
  check "$work/r.json" 'lib("libcudnn_graph.so.9.1.0")[0]["path"].endswith("old-full/libcudnn_graph.so.9.1.0") and lib("libcudnn_graph.so.9.1.0")[0]["step"] == "RUNPATH"' \
    "the sub-library by its exact release name, from the same folder (the library's own RUNPATH)"
  check "$work/r.json" 'r["faults"] == []' "no faults"
  grep -q "<code>$fakes/old-full/libcudnn.so.9</code>" "$work/r.html"
  echo "ok: HTML report"
  ;;
passthrough)
  prog='import sys; sys.stdout.write("out\n"); sys.stderr.write("err\n"); sys.exit(7)'
  set +e
  "$cudnnctl" trace --output "$work/report" -- python3 -c "$prog" > "$work/out" 2> "$work/err"
  rc=$?
  set -e
  [[ $rc == 7 ]] || { echo "FAILED: exit code $rc, not 7"; exit 1; }
  [[ $(cat "$work/out") == "out" && $(cat "$work/err") == "err" ]] || { echo "FAILED: output mixed"; cat "$work/out" "$work/err"; exit 1; }
  grep -q "exited with 7" "$work/report"
  set +e
  "$cudnnctl" trace -- /nonexistent/cudnnctl-program 2> "$work/err"
  rc=$?
  set -e
  [[ $rc == 127 ]] || { echo "FAILED: a missing program gave $rc, not 127"; exit 1; }
  echo "ok: output, error output and exit code pass through; a missing program exits 127"
  ;;
*) echo "unknown scenario $scenario"; exit 2 ;;
esac

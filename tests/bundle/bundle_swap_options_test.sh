#!/usr/bin/env bash
# bundle swap takes the archive options every archive command takes (issue 45): --sha256-file, --catalog,
# --allow-unverified (each accepted, and refusing what it should) and --name-encoding (an archive whose
# member names are CP437 is refused without it and swapped with it). On stand-in libraries in a pip-style
# site-packages (common.sh), with the load check; every successful swap is restored to the wheel's files. On a
# terminal (script(1)) swap and restore draw the progress line to its final 100% line.
#   bundle_swap_options_test.sh CUDNNCTL
set -uo pipefail
CTL=$1
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 0; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export CUDNNCTL_BUNDLE_STATE=$tmp/state
unset LD_LIBRARY_PATH VIRTUAL_ENV CONDA_PREFIX CUDNNCTL_FAULT_AT_CHANGE CUDNNCTL_FAULT_LOG
here=$(dirname "$0")
site="$tmp/env/lib/python3.12/site-packages"
lib="$site/nvidia/cudnn/lib"
di="$site/nvidia_cudnn_cu13-9.19.0.56.dist-info"
. "$here/common.sh"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

A919=cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz
fake_archive $A919 91900 >/dev/null
mkdir -p "$lib" "$di"
for f in "$tmp/arch/${A919%.tar.xz}"/lib/*.so.9; do [[ $f == *tensor_ir* ]] || cp -L "$f" "$lib/"; done
printf 'Metadata-Version: 2.1\r\nName: nvidia-cudnn-cu13\r\nVersion: 9.19.0.56\r\n\r\n' >"$di/METADATA"
record "$site" "$di"
A920=cudnn-linux-x86_64-9.20.0.1_cuda13-archive.tar.xz
H920=$(fake_archive $A920 92000)
archive=$tmp/arch/$A920

# expect CODE WHAT ARGS...: runs bundle swap with --json, checks the exit code (and the error id when not 0)
expect() {
  local want=$1 id=$2; shift 2
  local out rc
  out=$("$CTL" bundle swap "$lib" "$@" --json 2>"$tmp/err"); rc=$?
  printf '%s' "$out" >"$tmp/out"
  if [[ $rc != "$want" ]]; then bad "bundle swap $* exited $rc, want $want: $out $(cat "$tmp/err")"; return 1; fi
  if [[ -n $id ]] && ! grep -q "\"code\": \"$id\"" <<<"$out"; then bad "bundle swap $*: want error $id: $out"; return 1; fi
  if [[ $want == 0 ]]; then
    grep -q '"state": "swapped"' <<<"$out" || bad "bundle swap $*: not swapped: $out"
    "$CTL" bundle restore "$lib" >/dev/null || bad "restore after bundle swap $* failed"
    record_intact >/dev/null || bad "after bundle swap $* and restore: not the wheel's files"
  else
    record_intact >/dev/null || bad "a refused bundle swap $* changed the folder"
  fi
  return 0
}

# no hash from anywhere: refused (exit 5); --allow-unverified swaps it, with the UNVERIFIED warning
expect 5 verify.no-expected-hash "$archive"
expect 0 "" "$archive" --allow-unverified && grep -q "UNVERIFIED" "$tmp/out" || bad "--allow-unverified: no UNVERIFIED warning"

# --sha256-file: a sha256sum line for the archive swaps it; a wrong one is a mismatch (exit 4)
printf '%s  %s\n' "$H920" "$A920" >"$tmp/good.sha256"
printf '%s  %s\n' "$(printf '0%.0s' {1..64})" "$A920" >"$tmp/bad.sha256"
expect 0 "" "$archive" --sha256-file "$tmp/good.sha256"
expect 4 verify.mismatch "$archive" --sha256-file "$tmp/bad.sha256"
expect 2 "" "$archive" --sha256-file "$tmp/good.sha256" --sha256 "$H920"  # one hash source: they exclude each other

# --catalog: a catalog that knows the archive's hash swaps it; one that knows another hash refuses it (exit 4)
catalog() {  # catalog FILE SHA256
  python3 - "$1" "$2" "$A920" "$(stat -c %s "$archive")" <<'PY'
import json, sys
out, sha, name, size = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
json.dump({"schema_version": 1,
           "archives": [{"filename": name, "version": "9.20.0.1", "platform": "linux-x86_64", "cuda_variant": "13",
                         "url": "https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-x86_64/" + name,
                         "hashes": [{"sha256": sha, "size": size, "confidence": "A", "sources": ["test"]}]}],
           "releases": [{"label": "9.20.0", "date": "2026-01-01", "manifest_url": "", "builds": ["9.20.0.1"]}],
           "support": []}, open(out, "w"))
PY
}
catalog "$tmp/good.json" "$H920"
catalog "$tmp/other.json" "$(printf 'a%.0s' {1..64})"
expect 0 "" "$archive" --catalog "$tmp/good.json"
expect 4 verify.mismatch "$archive" --catalog "$tmp/other.json"
echo '{ not json' >"$tmp/broken.json"
expect 9 "" "$archive" --catalog "$tmp/broken.json"

# a release instead of a file: fetched from a mirror (tests/fetch/http_server.py, ranges honoured) for the
# bundle's OS and its framework's CUDA major (the wheel's -cu13), kept in the cache once its SHA-256 is the
# catalog's, then swapped; again with --offline from the cache; a download whose hash is not the catalog's
# (exit 4) and a version the catalog lacks change nothing
mkdir -p "$tmp/www/compute/cudnn/redist/cudnn/linux-x86_64"
cp "$archive" "$tmp/www/compute/cudnn/redist/cudnn/linux-x86_64/"
python3 "$here/../fetch/http_server.py" "$tmp/www" "$tmp/port" &
server=$!
for _ in $(seq 100); do [[ -s $tmp/port ]] && break; sleep 0.05; done
port=$(cut -d' ' -f1 "$tmp/port")
mirror="http://127.0.0.1:$port/ok"
expect 0 "" 9.20.0.1 --catalog "$tmp/good.json" --mirror "$mirror" --cache "$tmp/cache" &&
  { grep -q "fetched $tmp/cache/$A920 (downloaded)" "$tmp/out" "$tmp/err" || bad "bundle swap VERSION: no 'fetched ... (downloaded)' line: $(cat "$tmp/err")"; }
[[ -f $tmp/cache/$A920 ]] || bad "bundle swap VERSION: the verified archive is not in the cache"
grep -q "^ok bytes=" "$tmp/port.log" || bad "bundle swap VERSION: the mirror was not asked for the archive's bytes: $(cat "$tmp/port.log")"
requests=$(wc -l <"$tmp/port.log")
expect 0 "" 9.20 --catalog "$tmp/good.json" --offline --cache "$tmp/cache" &&
  { grep -q "(from the cache)" "$tmp/out" "$tmp/err" || bad "bundle swap VERSION --offline: not from the cache: $(cat "$tmp/err")"; }
[[ $(wc -l <"$tmp/port.log") == "$requests" ]] || bad "bundle swap VERSION --offline asked the mirror"
expect 4 "" 9.20.0.1 --catalog "$tmp/other.json" --mirror "$mirror" --cache "$tmp/cache2"
[[ ! -e $tmp/cache2/$A920 ]] || bad "a download whose hash is not the catalog's was kept in the cache"
out=$("$CTL" bundle swap "$lib" 9.99 --catalog "$tmp/good.json" --mirror "$mirror" --cache "$tmp/cache" 2>&1); rc=$?
[[ $rc != 0 ]] && grep -q "9.99" <<<"$out" || bad "bundle swap of a version the catalog lacks: exit $rc: $out"
record_intact >/dev/null || bad "a refused bundle swap of a version changed the folder"
kill "$server" 2>/dev/null

# --name-encoding: the same archive re-packed by a legacy tool, one member's name in CP437 ("Über.txt")
python3 - "$tmp/arch" "${A920%.tar.xz}" "$tmp/legacy/$A920" <<'PY'
import os, sys, tarfile
src, top, out = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(os.path.dirname(out), exist_ok=True)
open(os.path.join(src, top, "\u00dcber.txt"), "w").write("re-packed\n")
with tarfile.open(out, "w:xz", format=tarfile.GNU_FORMAT, encoding="cp437") as t:
    t.add(os.path.join(src, top), arcname=top)
PY
legacy=$tmp/legacy/$A920
expect 6 archive.name-encoding "$legacy" --allow-unverified
expect 0 "" "$legacy" --allow-unverified --name-encoding CP437

# progress, as docs/terminal.md promises: on a terminal (stdout and stderr) swap and restore end with their final line;
# into a pipe nothing is drawn (the runs above)
if command -v script >/dev/null; then
  shq() { printf '%q ' "$@"; }
  TERM=xterm NO_COLOR=1 script -qec "$(shq "$CTL" bundle swap "$lib" "$archive" --sha256 "$H920")" "$tmp/swap.tty" >/dev/null 2>&1 ||
    bad "bundle swap on a terminal failed: $(cat "$tmp/swap.tty")"
  grep -aqE "swapping +100% .* in " "$tmp/swap.tty" || bad "bundle swap on a terminal: no final progress line: $(cat -v "$tmp/swap.tty")"
  TERM=xterm NO_COLOR=1 script -qec "$(shq "$CTL" bundle restore "$lib")" "$tmp/restore.tty" >/dev/null 2>&1 ||
    bad "bundle restore on a terminal failed: $(cat "$tmp/restore.tty")"
  grep -aqE "restoring +100% .* in " "$tmp/restore.tty" || bad "bundle restore on a terminal: no final progress line: $(cat -v "$tmp/restore.tty")"
  record_intact >/dev/null || bad "after the terminal swap and restore: not the wheel's files"
else
  echo "note: no script(1): the terminal progress of swap and restore is not checked here"
fi

((fails == 0)) || { echo "$fails failure(s)"; exit 1; }
echo "bundle swap: --sha256-file, --catalog, --allow-unverified and --name-encoding each behave as on the other archive commands; a version is fetched (mirror, cache, --offline) and swapped"

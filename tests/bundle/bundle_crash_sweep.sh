#!/usr/bin/env bash
# Crash sweep of bundle swap and restore (issue 29: every file-system change of every mutating command):
# a clean run counts the changes (CUDNNCTL_FAULT_LOG); then for each change k and for SIGKILL and SIGINT the
# command is stopped right before its k-th change (CUDNNCTL_FAULT_AT_CHANGE). The next command, `bundle list`,
# finishes or undoes the journal; after it the folder must hold exactly the originals or exactly the swapped
# files, the state must agree, no staging or trash folder may be left, and `bundle restore` must then give
# back the wheel's files byte for byte (RECORD). Stand-in libraries keep each run small (the real 9.19
# libraries are bundle_linux_test.sh's).
#   bundle_crash_sweep.sh CUDNNCTL     (CUDNNCTL_SWEEP_SIGNALS="KILL INT" by default)
set -uo pipefail
CTL=$1
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 0; }
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export CUDNNCTL_BUNDLE_STATE=$tmp/state
unset LD_LIBRARY_PATH VIRTUAL_ENV CONDA_PREFIX CUDNNCTL_FAULT_AT_CHANGE CUDNNCTL_FAULT_LOG
here=$(dirname "$0")
site="$tmp/env/lib/python3.12/site-packages"
lib="$site/nvidia/cudnn/lib"
di="$site/nvidia_cudnn_cu13-9.19.0.56.dist-info"
. "$here/common.sh"
fails=0 checked=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# the wheel: stand-ins of 9.19's libraries (files, as pip installs them), its METADATA and RECORD
A919=cudnn-linux-x86_64-9.19.0.56_cuda13-archive.tar.xz
fake_archive $A919 91900 >/dev/null
mkdir -p "$lib" "$di"
for f in "$tmp/arch/${A919%.tar.xz}"/lib/*.so.9; do [[ $f == *tensor_ir* ]] || cp -L "$f" "$lib/"; done
printf 'Metadata-Version: 2.1\r\nName: nvidia-cudnn-cu13\r\nVersion: 9.19.0.56\r\n\r\n' >"$di/METADATA"
record "$site" "$di"
A920=cudnn-linux-x86_64-9.20.0.1_cuda13-archive.tar.xz
H920=$(fake_archive $A920 92000)

snap() { (cd "$lib" && find . -printf '%p %y %l\n' | sort && find . -type f -exec sha256sum {} + | sort) | sha256sum | cut -c1-16; }
state_of() {
  "$CTL" bundle list --site "$site" --json 2>/dev/null | python3 -c '
import json, sys
b = [x for x in json.load(sys.stdin)["bundles"] if x["dir"].endswith("nvidia/cudnn/lib")]
print(b[0]["state"] if b else "none")' 2>/dev/null || echo "list-failed"
}
leftovers() { find "$CUDNNCTL_BUNDLE_STATE" -mindepth 2 -maxdepth 2 \( -name 'staging-*' -o -name 'trash-*' -o -name 'journal*' \) 2>/dev/null | head -3; }
swap_cmd() { "$CTL" bundle swap "$lib" "$tmp/arch/$A920" --sha256 "$H920"; }
restore_cmd() { "$CTL" bundle restore "$lib"; }
# the whole set-up (the site and cudnnctl's state) saved and put back as hard links: the commands rename
# and write new files, they never write into one in place
save() { rm -rf "$tmp/saved-$1"; mkdir -p "$tmp/saved-$1"; cp -al "$tmp/env" "$tmp/saved-$1/env"; [[ -d $CUDNNCTL_BUNDLE_STATE ]] && cp -al "$CUDNNCTL_BUNDLE_STATE" "$tmp/saved-$1/state"; }
put_back() { rm -rf "$tmp/env" "$CUDNNCTL_BUNDLE_STATE"; cp -al "$tmp/saved-$1/env" "$tmp/env"; [[ -d $tmp/saved-$1/state ]] && cp -al "$tmp/saved-$1/state" "$CUDNNCTL_BUNDLE_STATE"; }

original=$(snap)
save original
rm -f "$tmp/swap.log"; CUDNNCTL_FAULT_LOG=$tmp/swap.log swap_cmd >/dev/null 2>&1 || bad "clean swap failed"
swapped=$(snap)
[[ $(state_of) == swapped && $swapped != "$original" ]] || bad "clean swap: not swapped"
save swapped
rm -f "$tmp/restore.log"; CUDNNCTL_FAULT_LOG=$tmp/restore.log restore_cmd >/dev/null 2>&1 || bad "clean restore failed"
[[ $(snap) == "$original" ]] && record_intact >/dev/null || bad "clean restore: not the wheel's files"
n_swap=$(wc -l <"$tmp/swap.log" 2>/dev/null || echo 0) n_restore=$(wc -l <"$tmp/restore.log" 2>/dev/null || echo 0)
echo "swap: $n_swap file-system changes; restore: $n_restore"
((n_swap > 10 && n_restore > 5)) || { bad "the binary does not count its changes (CUDNNCTL_FAULT_LOG)"; exit 1; }

# after a stopped COMMAND: list settles it; the folder is exactly one of the two trees, as list says
judge() {  # judge WHAT START_OF_RUN
  local what=$1 st now left
  st=$(state_of); now=$(snap); left=$(leftovers)
  case "$st:$now" in
  "original:$original" | "swapped:$swapped") ;;
  *) bad "$what: after list the state is '$st' and the folder is neither tree"; return ;;
  esac
  [[ -z $left ]] || bad "$what: left in the state: $left"
  if [[ $st == swapped ]]; then restore_cmd >/dev/null 2>&1 || bad "$what: restore after recovery failed"; fi
  [[ $(snap) == "$original" ]] && record_intact >/dev/null || bad "$what: restore does not give back the wheel's files"
  checked=$((checked + 1))
}
for sig in ${CUDNNCTL_SWEEP_SIGNALS:-KILL INT}; do
  for k in $(seq 1 "$n_swap"); do
    put_back original
    CUDNNCTL_FAULT_AT_CHANGE=$k CUDNNCTL_FAULT_SIGNAL=$sig swap_cmd >/dev/null 2>&1
    judge "swap stopped by SIG$sig before change $k"
  done
  for k in $(seq 1 "$n_restore"); do
    put_back swapped
    CUDNNCTL_FAULT_AT_CHANGE=$k CUDNNCTL_FAULT_SIGNAL=$sig restore_cmd >/dev/null 2>&1
    judge "restore stopped by SIG$sig before change $k"
  done
done
# one bundle command at a time: while another holds the state's lock, even list (it recovers) is refused
# at once and changes nothing
if command -v flock >/dev/null; then
  put_back swapped
  before=$(snap)
  python3 -c 'import fcntl, sys, time; f = open(sys.argv[1], "a"); fcntl.flock(f, fcntl.LOCK_EX); time.sleep(60)' \
    "$CUDNNCTL_BUNDLE_STATE/lock" & holder=$!
  for _ in $(seq 50); do flock -n "$CUDNNCTL_BUNDLE_STATE/lock" true 2>/dev/null || break; sleep 0.1; done
  out=$("$CTL" bundle restore "$lib" 2>&1); rc=$?
  [[ $rc != 0 && $out == *"another cudnnctl bundle command is running"* && $(snap) == "$before" ]] || bad "restore beside a held lock: exit $rc, '$out'"
  out=$("$CTL" bundle list --site "$site" 2>&1); rc=$?
  [[ $rc != 0 && $out == *"another cudnnctl bundle command is running"* ]] || bad "list beside a held lock: exit $rc, '$out'"
  kill $holder 2>/dev/null; wait $holder 2>/dev/null
  [[ $(state_of) == swapped ]] || bad "list after the lock was released"
  checked=$((checked + 1))
fi
echo "$checked stopped runs checked, $fails failure(s)"
((fails == 0 && checked > 0))

#!/usr/bin/env bash
# doctor --fix end to end, then killed at every file-system change (issue 55). The set-up has one planted
# problem per automatic fix: an install killed after its journal was written and a dead run's staging folder
# (files.interrupted), an installed library emptied as antivirus does with its archive in the download cache
# (files.receipt), a pip wheel's cuDNN of the toolkit's major and CUDA major that the framework loads first
# (bundles.shadow), and the toolkit's cuDNN not in the ld.so cache while the distribution's older copy is
# (files.search_path; the system root is $tmp/env, its cache read and written with ldconfig -r, never this
# machine's). Stand-in libraries (tests/bundle/common.sh) that really load, so unbundle's load check runs, and
# are ELF files with a SONAME, so ldconfig lists them.
# A clean `doctor --fix --yes` repairs all four and counts its changes (CUDNNCTL_FAULT_LOG); --dry-run changes
# no byte; a second run plans nothing. Then for each change k, SIGKILL right before it (CUDNNCTL_FAULT_AT_CHANGE):
# the next `doctor --fix --yes` must finish the job (exit 0, the four checks clean, no staging left). The
# ld.so.conf.d file is written whole under a temporary name and renamed, then ldconfig runs (not counted
# changes): the states a kill inside that step leaves (a half-written temporary, the file without the cache
# rebuilt) are planted after the sweep, and the next run must finish those too.
#   doctor_fix_sweep.sh CUDNNCTL
set -uo pipefail
CTL=$1
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 0; }
ldconfig --version >/dev/null 2>&1 || { echo "SKIP: no ldconfig"; exit 0; }
if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export CUDNNCTL_BUNDLE_STATE=$tmp/state
unset LD_LIBRARY_PATH VIRTUAL_ENV CONDA_PREFIX CUDNNCTL_FAULT_AT_CHANGE CUDNNCTL_FAULT_LOG CUDA_PATH CUDA_HOME
here=$(cd "$(dirname "$0")/../bundle" && pwd)
site="$tmp/env/lib/python3.12/site-packages"
lib="$site/nvidia/cudnn/lib"
di="$site/nvidia_cudnn_cu13-9.0.0.1.dist-info"
. "$here/common.sh"
fails=0 checked=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }

# a CUDA 13.0 toolkit (NVIDIA's layout) with the stand-in cuDNN installed by cudnnctl, its archive in the cache
tk=$tmp/env/cuda-13.0
mkdir -p "$tk/include" "$tk/bin" "$tk/targets/x86_64-linux/lib" "$tmp/env/cache"
echo '#define CUDA_VERSION 13000' >"$tk/include/cuda.h"
echo nvcc >"$tk/bin/nvcc"
ln -s targets/x86_64-linux/lib "$tk/lib64"
A=cudnn-linux-x86_64-9.0.0.1_cuda13-archive.tar.xz
H=$(fake_archive $A 90000)
cp "$tmp/arch/$A" "$tmp/env/cache/$A"
"$CTL" install "$tmp/env/cache/$A" --sha256 "$H" --cuda-path "$tk" >/dev/null || { bad "the install of the stand-in failed"; exit 1; }
# the wheel: the same stand-ins, as pip installs them
mkdir -p "$lib" "$di"
for f in "$tmp/arch/${A%.tar.xz}"/lib/*.so.9; do cp -L "$f" "$lib/"; done
printf 'Metadata-Version: 2.1\r\nName: nvidia-cudnn-cu13\r\nVersion: 9.0.0.1\r\n\r\n' >"$di/METADATA"
record "$site" "$di"
# the planted problems: the distribution's older cuDNN in the ld.so cache, the toolkit's not in it
distro=$tmp/env/usr/lib/x86_64-linux-gnu
mkdir -p "$distro" "$tmp/env/etc/ld.so.conf.d"
cp "$tmp/arch/${A%.tar.xz}/lib/libcudnn.so.9.0.0" "$distro/libcudnn.so.9.0.0" && ln -s libcudnn.so.9.0.0 "$distro/libcudnn.so.9"
echo 'include /etc/ld.so.conf.d/*.conf' >"$tmp/env/etc/ld.so.conf"
echo /usr/lib/x86_64-linux-gnu >"$tmp/env/etc/ld.so.conf.d/x86_64-linux-gnu.conf"
ldconfig -r "$tmp/env" || { bad "ldconfig -r failed"; exit 1; }
emptied=$(find "$tk/targets/x86_64-linux/lib" -type f -name 'libcudnn_ops.so.9*' | head -1)
: >"$emptied"
printf '{"schema_version": 1, "id": "j1", "description": "install %s into %s", "phase": "applying", "moves": [], "remove_on_commit": [], "remove_on_rollback": []}' \
  "${A%.tar.xz}" "$tk" >"$tk/.cudnnctl/journal.json"
mkdir -p "$tk/.cudnnctl/staging-4242/lib" && echo half >"$tk/.cudnnctl/staging-4242/lib/libcudnn_graph.so.9"

fix() { "$CTL" doctor --cuda-path "$tk" --layer 2 --site "$site" --cache "$tmp/env/cache" --root "$tmp/env" --fix --yes "$@"; }
steps() { python3 -c 'import json, sys; print(" ".join(s["check"] for s in json.load(sys.stdin)["plan"]["steps"]))'; }
snap() { (cd "$tmp/env" && find . -printf '%p %y %l\n' | sort && find . -type f -exec sha256sum {} + | sort; [[ -d $CUDNNCTL_BUNDLE_STATE ]] && find "$CUDNNCTL_BUNDLE_STATE" | sort) | sha256sum | cut -c1-16; }
# the four checks the fixes touch: none warns or fails, no staging folder is left in the toolkit
clean() {
  local out
  out=$("$CTL" doctor --cuda-path "$tk" --site "$site" --root "$tmp/env" --check files.interrupted --check files.receipt --check bundles.shadow \
    --check files.search_path --json | python3 -c '
import json, sys
print(" ".join(c["id"] + "=" + c["status"] for c in json.load(sys.stdin)["checks"] if c["status"] in ("warn", "fail")))')
  [[ -z $out ]] || { echo "$out"; return 1; }
  [[ -z $(find "$tk/.cudnnctl" -maxdepth 1 -name 'staging-*') && -s $emptied ]] || { echo "staging left or the library still empty"; return 1; }
}
save() { rm -rf "$tmp/saved"; mkdir -p "$tmp/saved"; cp -a "$tmp/env" "$tmp/saved/env"; [[ -d $CUDNNCTL_BUNDLE_STATE ]] && cp -a "$CUDNNCTL_BUNDLE_STATE" "$tmp/saved/state"; }
put_back() { rm -rf "$tmp/env" "$CUDNNCTL_BUNDLE_STATE"; cp -a "$tmp/saved/env" "$tmp/env"; [[ -d $tmp/saved/state ]] && cp -a "$tmp/saved/state" "$CUDNNCTL_BUNDLE_STATE"; }

save
before=$(snap)
planned=$(fix --dry-run --json | steps)
[[ $planned == "files.interrupted files.receipt bundles.shadow files.search_path" ]] || bad "the plan is '$planned'"
[[ $(snap) == "$before" ]] || bad "--dry-run changed the tree"
# on a terminal it asks: no changes nothing, yes applies (script(1) gives it a terminal)
if command -v script >/dev/null; then
  asked=$(printf 'n\n' | script -qec "$CTL doctor --cuda-path $tk --layer 2 --site $site --cache $tmp/env/cache --root $tmp/env --fix" /dev/null 2>&1)
  [[ $asked == *"apply the automatic fixes? [y/N]"* && $asked == *"declined: nothing was changed"* ]] || bad "asked on a terminal, answered no: '$asked'"
  [[ $(snap) == "$before" ]] || bad "answering no changed the tree"
  printf 'y\n' | script -qec "$CTL doctor --cuda-path $tk --layer 2 --site $site --cache $tmp/env/cache --root $tmp/env --fix" /dev/null >/dev/null 2>&1
  why=$(clean) || bad "answered yes on a terminal: $why"
  put_back
fi
rm -f "$tmp/fix.log"
CUDNNCTL_FAULT_LOG=$tmp/fix.log fix --json >"$tmp/fix.json" 2>"$tmp/fix.err" || bad "the clean doctor --fix --yes exited $?: $(cat "$tmp/fix.json" "$tmp/fix.err")"
why=$(clean) || bad "after the clean run: $why"
again=$(fix --json | steps)
[[ -z $again ]] || bad "a second run plans '$again'"
n=$(wc -l <"$tmp/fix.log" 2>/dev/null || echo 0)
echo "doctor --fix: $n file-system changes"
((n > 5)) || { bad "the binary does not count its changes (CUDNNCTL_FAULT_LOG)"; exit 1; }
conf=$(ls "$tmp/env/etc/ld.so.conf.d"/cudnnctl-*.conf 2>/dev/null)
[[ -f $conf && $(grep -c . "$conf") -ge 1 ]] || bad "the clean run wrote no ld.so.conf.d file for the toolkit"
cp "$conf" "$tmp/conf.done"

for k in $(seq 1 "$n"); do
  put_back
  CUDNNCTL_FAULT_AT_CHANGE=$k CUDNNCTL_FAULT_SIGNAL=KILL fix >/dev/null 2>&1
  out=$(fix 2>&1) || { bad "killed before change $k ($(sed -n "${k}p" "$tmp/fix.log")): the next doctor --fix exited $?: $out"; continue; }
  why=$(clean) || bad "killed before change $k ($(sed -n "${k}p" "$tmp/fix.log")): after the next run: $why"
  checked=$((checked + 1))
done
# the loader path's step is one file written under a temporary name, renamed, then ldconfig: a kill leaves the
# file not there, its temporary half written (ldconfig reads *.conf only), or the file there and the cache not
# rebuilt. Each state as the kill leaves it (after every other step), then the next run must finish the job.
for state in tmp_half renamed_no_ldconfig; do
  put_back
  fix >/dev/null 2>&1  # every other step done, the loader path's too: then undone below to the state of the kill
  rm -f "$conf"
  ldconfig -r "$tmp/env"
  case $state in
    tmp_half) head -c 20 "$tmp/conf.done" >"$conf.tmp" ;;
    renamed_no_ldconfig) cp "$tmp/conf.done" "$conf" ;;
  esac
  out=$(fix 2>&1) || { bad "loader path killed ($state): the next doctor --fix exited $?: $out"; continue; }
  why=$(clean) || bad "loader path killed ($state): after the next run: $why"
  [[ ! -e $conf.tmp ]] || bad "loader path killed ($state): the temporary file is left"
  checked=$((checked + 1))
done
echo "$checked killed runs finished by the next doctor --fix, $fails failure(s)"
((fails == 0 && checked > 0))

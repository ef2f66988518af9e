#!/usr/bin/env bash
# cudnnctl bundle on Linux, end to end: a site-packages (under a non-ASCII path) holding the nvidia-cudnn
# wheel's layout with COPIES of this image's real cuDNN 9.19 libraries and a RECORD as pip writes it
# (CRLF), a consumer library with DT_RPATH $ORIGIN/../../nvidia/cudnn/lib as libtorch_cuda.so has, and a
# program that loads it and prints the cuDNN version it bound to and that library's file.
#   bundle_linux_test.sh CUDNNCTL
# Archives of other versions are built here from a stand-in libcudnn.so.9 whose cudnnGetVersion returns
# the archive's version (this machine holds one real release only), so "the swapped copy loaded" is
# shown by the number the consumer prints.
set -uo pipefail
CTL=$1
REAL=/usr/local/cuda/lib64
[[ -e $REAL/libcudnn.so.9 && -e $REAL/libcudnn_ops.so.9 ]] || { echo "SKIP: no real cuDNN 9 in $REAL"; exit 0; }
command -v gcc >/dev/null || { echo "SKIP: no gcc"; exit 0; }
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
export CUDNNCTL_BUNDLE_STATE=$tmp/state
unset LD_LIBRARY_PATH VIRTUAL_ENV CONDA_PREFIX
here=$(dirname "$0")
. "$here/common.sh"
fails=0
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
ok() { echo "ok: $*"; }

site="$tmp/énv/lib/python3.12/site-packages"
lib="$site/nvidia/cudnn/lib"
mkdir -p "$lib" "$site/torch/lib" "$tmp/bin"
for f in "$REAL"/libcudnn*.so.9; do cp -L "$f" "$lib/"; done
# nvidia-cudnn-cu13's dist-info: METADATA and a RECORD as pip writes it (CRLF, urlsafe base64 without padding)
di="$site/nvidia_cudnn_cu13-9.19.0.56.dist-info"
mkdir -p "$di"
printf 'Metadata-Version: 2.1\r\nName: nvidia-cudnn-cu13\r\nVersion: 9.19.0.56\r\n\r\n' >"$di/METADATA"
record "$site" "$di"

# the consumer (libtorch_cuda.so's way of finding cuDNN) and the program that loads it
gcc -shared -fPIC -o "$site/torch/lib/libtorch_cuda.so" "$(dirname "$0")/consumer.c" "$lib/libcudnn.so.9" \
  -Wl,--disable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib' || { echo "FAIL: cannot build the consumer"; exit 1; }
readelf -d "$site/torch/lib/libtorch_cuda.so" | grep -q '(RPATH).*\$ORIGIN/../../nvidia/cudnn/lib' || bad "the consumer has no DT_RPATH"
gcc -o "$tmp/bin/consumer" "$(dirname "$0")/consumer_main.c" -ldl || exit 1
loads() {  # loads EXPECTED_VERSION EXPECTED_DIR [ENV...]: the consumer binds cuDNN VERSION from DIR
  local want=$1 from=$2
  shift 2
  local got
  got=$(env "$@" "$tmp/bin/consumer" "$site/torch/lib/libtorch_cuda.so" 2>&1)
  if [[ $got == "$want "* && $(dirname "${got#* }") -ef $from ]]; then ok "consumer loads $want from $from"; else bad "consumer: want $want from $from, got '$got'"; fi
}

A920=cudnn-linux-x86_64-9.20.0.1_cuda13-archive.tar.xz
H920=$(fake_archive $A920 92000)

tree_sum() { (cd "$lib" && find . -printf '%p %l\n' | sort && find . -type f -exec sha256sum {} + | sort) | sha256sum; }
state_of() { "$CTL" bundle list --site "$site" --json | python3 -c '
import json, sys
b = [x for x in json.load(sys.stdin)["bundles"] if x["dir"].endswith("nvidia/cudnn/lib")]
print(b[0]["state"] + " " + str(b[0]["version"]) if b else "none")'; }
expect_state() { local s; s=$(state_of); [[ $s == "$1" ]] && ok "list: $1" || bad "list: want '$1', got '$s'"; }

# ---- list
out=$("$CTL" bundle list --site "$site" --json) || bad "list failed"
python3 - "$out" <<'PY' && ok "list: dir, owner, version, cuda_major, arch, files, state" || bad "list JSON: $out"
import json, sys
b = json.loads(sys.argv[1])["bundles"]
assert len(b) == 1, b
b = b[0]
assert b["dir"].endswith("nvidia/cudnn/lib") and b["owner"] == "nvidia-cudnn-cu13" and b["version"] == "9.19.0.56", b
assert b["cuda_major"] == 13 and b["arch"] == "x86_64" and b["state"] == "original", b
assert "libcudnn.so.9" in b["files"] and "libcudnn_ops.so.9" in b["files"], b
PY
loads 91900 "$lib"

# ---- swap, then restore
"$CTL" bundle swap "$lib" "$tmp/arch/$A920" --sha256 "$H920" --json >"$tmp/swap.json"; rc=$?
[[ $rc == 0 ]] && ok "swap" || bad "swap exit $rc: $(cat "$tmp/swap.json")"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["added"] == ["libcudnn_engines_tensor_ir.so.9"]' "$tmp/swap.json" 2>/dev/null && ok "swap added engines_tensor_ir" || bad "swap JSON: $(cat "$tmp/swap.json")"
loads 92000 "$lib"
expect_state "swapped 9.20.0.1"
[[ -e $lib/libcudnn_engines_tensor_ir.so.9 ]] || bad "the added sub-library is not in place"
"$CTL" bundle restore "$lib" >/dev/null || bad "restore failed"
loads 91900 "$lib"
record_intact && ok "restore: RECORD hashes match, the added sub-library is gone" || bad "restore: not byte-identical to RECORD"
expect_state "original 9.19.0.56"

# ---- unbundle: the toolkit's copy loads; restore
"$CTL" bundle unbundle "$lib" --cuda-path /usr/local/cuda >/dev/null; rc=$?
[[ $rc == 0 ]] && ok "unbundle" || bad "unbundle exit $rc"
ls "$lib" | grep -q cudnn && bad "unbundle left cuDNN files in $lib"
expect_state "unbundled 9.19.0.56"
loads 91900 "$REAL" LD_LIBRARY_PATH="$REAL"
"$CTL" bundle restore "$lib" >/dev/null || bad "restore after unbundle failed"
record_intact && ok "restore after unbundle: byte-identical" || bad "restore after unbundle: files differ"
loads 91900 "$lib"

# ---- refusals: exit 13, a reason in words, nothing changed
before=$(tree_sum)
refuse() {  # refuse WORDS CMD...: exit 13, WORDS in the message, the folder unchanged
  local words=$1
  shift
  local msg rc
  msg=$("$CTL" "$@" 2>&1); rc=$?
  if [[ $rc == 13 && $msg == *"$words"* ]]; then ok "refused ($words)"; else bad "want exit 13 with '$words', got $rc: $msg"; fi
  [[ $(tree_sum) == "$before" ]] || bad "a refusal changed $lib"
}
A918=cudnn-linux-x86_64-9.18.0.1_cuda13-archive.tar.xz; H918=$(fake_archive $A918 91800)
refuse "PyTorch refuses" bundle swap "$lib" "$tmp/arch/$A918" --sha256 "$H918"
A12=cudnn-linux-x86_64-9.20.0.1_cuda12-archive.tar.xz; H12=$(fake_archive $A12 92000)
refuse "CUDA 12" bundle swap "$lib" "$tmp/arch/$A12" --sha256 "$H12"
A8=cudnn-linux-x86_64-8.9.7.29_cuda13-archive.tar.xz; H8=$(fake_archive $A8 8907 8)
refuse "cuDNN 8" bundle swap "$lib" "$tmp/arch/$A8" --sha256 "$H8"
ASBSA=cudnn-linux-sbsa-9.20.0.1_cuda13-archive.tar.xz; HSBSA=$(fake_archive $ASBSA 92000 9 b7)
refuse "aarch64" bundle swap "$lib" "$tmp/arch/$ASBSA" --sha256 "$HSBSA"
refuse "holds no cuDNN" bundle swap "$site/torch/lib" "$tmp/arch/$A920" --sha256 "$H920"
refuse "cudnnctl has not changed" bundle restore "$lib"
# a swap whose new copy does not report its version: rolled back by itself
A921=cudnn-linux-x86_64-9.21.0.1_cuda13-archive.tar.xz; H921=$(fake_archive $A921 92000)
refuse "rolled back" bundle swap "$lib" "$tmp/arch/$A921" --sha256 "$H921"
# cudnnctl's state folder for the bundle is a link leaving the state root
sd=$CUDNNCTL_BUNDLE_STATE/$(printf '%s' "$lib" | sha256sum | cut -c1-16)
rm -rf "$sd"; mkdir -p "$tmp/elsewhere"; ln -s "$tmp/elsewhere" "$sd"
refuse "link that leaves" bundle swap "$lib" "$tmp/arch/$A920" --sha256 "$H920"
rm "$sd"
# a bundle folder reached through a link that leaves its site
mkdir -p "$tmp/outside/lib" && cp -a "$tmp/arch/${A920%.tar.xz}/lib/." "$tmp/outside/lib/"
ln -s "$tmp/outside" "$site/nvidia/cudnn_link"
mkdir -p "$site/evil-1.0.dist-info"
printf 'nvidia/cudnn_link/lib/libcudnn.so.9,,\r\n' >"$site/evil-1.0.dist-info/RECORD"
refuse "leaves" bundle swap "$site/nvidia/cudnn_link/lib" "$tmp/arch/$A920" --sha256 "$H920" --allow-downgrade
rm -rf "$site/nvidia/cudnn_link" "$site/evil-1.0.dist-info"
# a file in a bundle that is a link out of the site: never written through
site2=$tmp/site2; mkdir -p "$site2/pkg/lib" "$tmp/outside2"
cp -L "$tmp/arch/${A918%.tar.xz}/lib/libcudnn.so.9" "$site2/pkg/lib/"
cp -L "$tmp/arch/${A918%.tar.xz}/lib/libcudnn_ops.so.9" "$tmp/outside2/"
ln -s "$tmp/outside2/libcudnn_ops.so.9" "$site2/pkg/lib/libcudnn_ops.so.9"
sum2=$(sha256sum "$tmp/outside2/libcudnn_ops.so.9")
msg=$("$CTL" bundle swap "$site2/pkg/lib" "$tmp/arch/$A920" --sha256 "$H920" --allow-downgrade 2>&1); rc=$?
[[ $rc == 13 && $msg == *"never writes through"* ]] && ok "refused (a link out of the site)" || bad "link out: $rc $msg"
[[ $(sha256sum "$tmp/outside2/libcudnn_ops.so.9") == "$sum2" && -L $site2/pkg/lib/libcudnn_ops.so.9 ]] || bad "the link's target was changed"
# unbundle against a toolkit of another CUDA major
mkdir -p "$tmp/cuda12/include" "$tmp/cuda12/lib64"
echo '{"cuda":{"name":"CUDA SDK","version":"12.8.0"}}' >"$tmp/cuda12/version.json"
cp /usr/local/cuda/include/cuda.h "$tmp/cuda12/include/"
for f in "$REAL"/libcudnn*.so.9; do ln -s "$f" "$tmp/cuda12/lib64/"; done
refuse "CUDA 12" bundle unbundle "$lib" --cuda-path "$tmp/cuda12"
# a toolkit whose cuDNN lacks a sub-library the bundle has
rm "$tmp/cuda12/lib64/libcudnn_ops.so.9"
echo '{"cuda":{"name":"CUDA SDK","version":"13.0.0"}}' >"$tmp/cuda12/version.json"
refuse "lacks libcudnn_ops.so.9" bundle unbundle "$lib" --cuda-path "$tmp/cuda12"

# ---- kill -9 inside swap and restore; the next command (list) finishes or undoes the journal
for point in AFTER_MOVES=1 AFTER_MOVES=5 AFTER_MOVES=12 AT=journaled; do
  env "CUDNNCTL_FAULT_KILL_$point" "$CTL" bundle swap "$lib" "$tmp/arch/$A920" --sha256 "$H920" >/dev/null 2>&1; rc=$?
  [[ $rc == 137 ]] || bad "swap with kill at $point: exit $rc (want 137)"
  expect_state "original 9.19.0.56"
  record_intact || bad "after kill at $point and recovery: not the originals"
done
env CUDNNCTL_FAULT_KILL_AT=committed "$CTL" bundle swap "$lib" "$tmp/arch/$A920" --sha256 "$H920" >/dev/null 2>&1; rc=$?
[[ $rc == 137 ]] || bad "swap killed at commit: exit $rc"
expect_state "swapped 9.20.0.1"
loads 92000 "$lib"
for point in AFTER_MOVES=2 AFTER_MOVES=10 AT=journaled; do
  env "CUDNNCTL_FAULT_KILL_$point" "$CTL" bundle restore "$lib" >/dev/null 2>&1; rc=$?
  [[ $rc == 137 ]] || bad "restore with kill at $point: exit $rc"
  expect_state "swapped 9.20.0.1"
done
env CUDNNCTL_FAULT_KILL_AT=committed "$CTL" bundle restore "$lib" >/dev/null 2>&1
expect_state "original 9.19.0.56"
record_intact && ok "kills: originals byte-identical at the end" || bad "after the kills: files differ"
ls "$CUDNNCTL_BUNDLE_STATE"/*/ | grep -qE 'staging-|trash-' && bad "leftover staging or trash folders in the state"

# ---- a pip-style reinstall after a swap: reverted; restore forgets and touches nothing
"$CTL" bundle swap "$lib" "$tmp/arch/$A920" --sha256 "$H920" >/dev/null || bad "swap before reinstall"
# pip renames RECORD's files away and writes them fresh; a file not in RECORD (the added sub-library) stays
for f in "$REAL"/libcudnn*.so.9; do rm -f "$lib/$(basename "$f")"; cp -L "$f" "$lib/"; done
[[ -e $lib/libcudnn_engines_tensor_ir.so.9 ]] || bad "the simulated reinstall removed the added sub-library"
expect_state "reverted 9.19.0.56"
before=$(tree_sum)
"$CTL" bundle restore "$lib" --json | grep -q '"ok": *true' || bad "restore after reinstall"
[[ $(tree_sum) == "$before" ]] && ok "restore after reverted touched nothing" || bad "restore after reverted changed the folder"
rm "$lib/libcudnn_engines_tensor_ir.so.9"  # what pip left
expect_state "original 9.19.0.56"

# ---- a hand-edited file: modified
cp "$lib/libcudnn_cnn.so.9" "$tmp/cnn.bak" && printf x >>"$lib/libcudnn_cnn.so.9"
expect_state "modified 9.19.0.56"
mv "$tmp/cnn.bak" "$lib/libcudnn_cnn.so.9"

# ---- a site-packages reached through a link (a venv's lib64 -> lib): list and swap through it
mkdir -p "$tmp/venv"; ln -s "$tmp/énv/lib" "$tmp/venv/lib64"
vsite="$tmp/venv/lib64/python3.12/site-packages"
"$CTL" bundle list --site "$vsite" --json | grep -q '"state": *"original"' && ok "list through a linked site-packages" || bad "list through the link"
"$CTL" bundle swap "$vsite/nvidia/cudnn/lib" "$tmp/arch/$A920" --sha256 "$H920" >/dev/null && ok "swap through a linked site-packages" || bad "swap through the link"
loads 92000 "$lib"
"$CTL" bundle restore "$vsite/nvidia/cudnn/lib" >/dev/null || bad "restore through the link"
record_intact || bad "restore through the link: files differ"

((fails)) && { echo "$fails failure(s)"; exit 1; }
echo "all bundle checks passed"

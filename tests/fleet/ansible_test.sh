#!/usr/bin/env bash
# docs/examples/ansible/install-cudnn.yml on the cudnnctl.cudnn collection (packaging/ansible), run by the real
# ansible-playbook on three hosts (local connection, a CUDA 13 toolkit each in a temporary folder) with the
# realistic cuDNN 9.19 archive (tests/fixtures/make_realistic_archives.py): the first run changes all three, the
# second none; --check on fresh toolkits changes nothing on disk and says what would change; --diff shows the
# versions; a host whose loader path puts a damaged libcudnn.so.9 first is reported failed with the check's finding.
#   ansible_test.sh CUDNNCTL SOURCE_DIR FIXTURES_DIR
set -euo pipefail
skip() {  # CI sets CUDNNCTL_REQUIRE_FLEET=1 (.ci/run): there a missing engine fails the test
  [[ -z ${CUDNNCTL_REQUIRE_FLEET:-} ]] || { echo "FAIL (CUDNNCTL_REQUIRE_FLEET is set): $*"; exit 1; }
  echo "SKIP: $*"; exit 0
}
CUDNNCTL=$(realpath "$1") SRC=$(realpath "$2") FIX=$(realpath "$3")
PLAYBOOK_BIN=${CUDNNCTL_ANSIBLE:+$CUDNNCTL_ANSIBLE/}ansible-playbook
command -v "$PLAYBOOK_BIN" > /dev/null || skip "ansible-playbook is not installed (scripts/test.sh puts ansible-core into its tools venv)"
[[ -f $FIX/fixtures.json ]] || skip "no realistic archives in $FIX (CTest fixtures.realistic_archives makes them)"
read -r TXZ VERSION < <(python3 -c 'import json, sys
m = json.load(open(sys.argv[1])); print(m["linux"]["file"], m["version"])' "$FIX/fixtures.json")
ARCHIVE=$FIX/$TXZ SHA=$(cut -d' ' -f1 "$FIX/$TXZ.sha256")
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
export LC_ALL=C.UTF-8 ANSIBLE_NOCOLOR=1 ANSIBLE_LOCAL_TEMP=$T/ansible-tmp ANSIBLE_HOME=$T/ansible-home
export ANSIBLE_COLLECTIONS_PATH=$SRC/packaging/ansible ANSIBLE_RETRY_FILES_ENABLED=0
version=$("$PLAYBOOK_BIN" --version 2> /dev/null); echo "ansible-core: ${version%%$'\n'*}"

toolkits() {  # three empty CUDA 13 toolkits in this image's layout
  local n
  rm -rf "$T/tk"
  for n in 1 2 3; do
    mkdir -p "$T/tk/node$n/include" "$T/tk/node$n/bin" "$T/tk/node$n/targets/x86_64-linux/lib"
    echo '#define CUDA_VERSION 13000' > "$T/tk/node$n/include/cuda.h"
    echo nvcc > "$T/tk/node$n/bin/nvcc"
    ln -s targets/x86_64-linux/lib "$T/tk/node$n/lib64"
  done
}
# each host's programs load from its toolkit's library folder (the real one: the doctor does not yet see lib64, a
# link to targets/x86_64-linux/lib, as that same folder)
inventory() {  # $1: the loader path of node3's programs
  cat > "$T/hosts.yml" <<YML
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
    cudnnctl: $CUDNNCTL
    cudnn_archive: $ARCHIVE
    cudnn_sha256: $SHA
    cudnn_environment: {LD_LIBRARY_PATH: "{{ cuda_path }}/targets/x86_64-linux/lib"}
  hosts:
    node1: {cuda_path: $T/tk/node1}
    node2: {cuda_path: $T/tk/node2}
    node3: {cuda_path: $T/tk/node3, cudnn_environment: {LD_LIBRARY_PATH: "$1"}}
YML
}
play() { "$PLAYBOOK_BIN" -i "$T/hosts.yml" "$SRC/docs/examples/ansible/install-cudnn.yml" "$@"; }
recap() {  # recap LOG HOST OK CHANGED FAILED
  grep -Eq "^$2 +: ok=$3 +changed=$4 +unreachable=0 +failed=$5 " "$1" ||
    { cat "$1"; echo "FAIL: $2 is not ok=$3 changed=$4 failed=$5"; exit 1; }
}
snapshot() { (cd "$T/tk" && find . -print0 | sort -z | xargs -0 ls -ld --time-style=+%s.%N | sha256sum); }

toolkits; inventory '{{ cuda_path }}/targets/x86_64-linux/lib'
before=$(snapshot)
play --check --diff > "$T/check.log" || { cat "$T/check.log"; echo "FAIL: --check failed"; exit 1; }
for n in 1 2 3; do recap "$T/check.log" node$n 2 1 0; done
[[ $(snapshot) == "$before" ]] || { echo "FAIL: --check changed the toolkits"; exit 1; }
grep -q "^-cudnn: none" "$T/check.log" && grep -q "^+cudnn: $VERSION" "$T/check.log" ||
  { cat "$T/check.log"; echo "FAIL: --check --diff does not show none -> $VERSION"; exit 1; }
echo "--check: 3 would change, the toolkits untouched, the diff none -> $VERSION"

play --diff > "$T/first.log" || { cat "$T/first.log"; echo "FAIL: the first run failed"; exit 1; }
for n in 1 2 3; do recap "$T/first.log" node$n 2 1 0; done
[[ $(grep -c "^+cudnn: $VERSION" "$T/first.log") == 3 ]] || { cat "$T/first.log"; echo "FAIL: --diff does not show $VERSION for each host"; exit 1; }
for n in 1 2 3; do [[ -f $T/tk/node$n/.cudnnctl/receipt.json && -f $T/tk/node$n/lib64/libcudnn.so.9 ]]; done
echo "first run: changed=3"

play > "$T/second.log" || { cat "$T/second.log"; echo "FAIL: the second run failed"; exit 1; }
for n in 1 2 3; do recap "$T/second.log" node$n 2 0 0; done
before=$(snapshot)
play --check > "$T/check2.log" || { cat "$T/check2.log"; exit 1; }
for n in 1 2 3; do recap "$T/check2.log" node$n 2 0 0; done
[[ $(snapshot) == "$before" ]] || { echo "FAIL: --check changed an installed toolkit"; exit 1; }
echo "second run and --check: ok=3, changed=0"

# node3's programs load a damaged libcudnn.so.9 from a folder first on LD_LIBRARY_PATH
mkdir -p "$T/stale"
head -c 65536 "$T/tk/node3/lib64/libcudnn.so.9" > "$T/stale/libcudnn.so.9"
inventory "$T/stale:{{ cuda_path }}/targets/x86_64-linux/lib"
if play > "$T/broken.log"; then cat "$T/broken.log"; echo "FAIL: the playbook passed with a damaged library first on node3's path"; exit 1; fi
recap "$T/broken.log" node1 2 0 0; recap "$T/broken.log" node2 2 0 0; recap "$T/broken.log" node3 1 0 1
msg=$(grep -A3 '^fatal: \[node3\]' "$T/broken.log" | grep -o '"msg": "cudnnctl doctor: [^"]*"' | head -1)
[[ $msg == *"$T/stale"* || $msg == *loader* || $msg == *search_path* ]] || { cat "$T/broken.log"; echo "FAIL: node3's failure does not name the check"; exit 1; }
echo "node3 failed: $msg"
echo "ansible: 4 passed, 0 failed"

#!/usr/bin/env bash
# Runs docs/examples/ansible/install-cudnn.yml against localhost twice: changed, then not.
#   ansible_test.sh CUDNNCTL SOURCE_DIR TEST_ARCHIVES
set -euo pipefail
CUDNNCTL=$1 SRC=$2 ARCHIVES=$3
command -v ansible-playbook >/dev/null || { echo "SKIP: ansible-playbook is not installed"; exit 0; }
source "$SRC/tests/action/fake_toolkit.sh"
export LC_ALL=C.UTF-8 ANSIBLE_NOCOLOR=1 ANSIBLE_LOCAL_TEMP=$TMP/ansible-tmp ANSIBLE_HOME=$TMP/ansible-home
play() {
  ansible-playbook -i localhost, -c local "$SRC/docs/examples/ansible/install-cudnn.yml" \
    -e "cudnnctl=$CUDNNCTL cudnn_archive=$archive cuda_path=$tk cudnn_sha256=$(sha256sum "$archive" | cut -d' ' -f1)"
}
play > "$TMP/first.log" || { cat "$TMP/first.log"; exit 1; }
grep -Eq "localhost +: ok=2 +changed=1 " "$TMP/first.log" || { cat "$TMP/first.log"; echo "FAIL: first run not changed"; exit 1; }
play > "$TMP/second.log" || { cat "$TMP/second.log"; exit 1; }
grep -Eq "localhost +: ok=2 +changed=0 " "$TMP/second.log" || { cat "$TMP/second.log"; echo "FAIL: second run changed"; exit 1; }
grep -q "cuDNN 9.1.0.70 in $tk" "$TMP/second.log"
echo "ansible: 1 passed, 0 failed"

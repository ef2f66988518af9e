#!/usr/bin/env bash
# ansible-test sanity on the cudnnctl.cudnn collection (packaging/ansible/ansible_collections/cudnnctl/cudnn),
# copied into a temporary ansible_collections/cudnnctl/cudnn tree, every test ansible-test has, run locally
# (--local, no container) with their requirements from PyPI (--requirements). ansible-test fetches its pip
# bootstrap from ci-files.testing.ansible.com, which tests do not reach: tests/fleet/ansible_get_pip.py stands in
# (ensurepip, then pip from PyPI). HOME is a temporary folder, so the venvs ansible-test makes are thrown away.
#   ansible_sanity.sh SOURCE_DIR
set -euo pipefail
skip() {  # CI sets CUDNNCTL_REQUIRE_FLEET=1 (.ci/run): there a missing engine fails the test
  [[ -z ${CUDNNCTL_REQUIRE_FLEET:-} ]] || { echo "FAIL (CUDNNCTL_REQUIRE_FLEET is set): $*"; exit 1; }
  echo "SKIP: $*"; exit 0
}
SRC=$(realpath "$1")
TEST_BIN=${CUDNNCTL_ANSIBLE:+$CUDNNCTL_ANSIBLE/}ansible-test
command -v "$TEST_BIN" > /dev/null || skip "ansible-test is not installed (scripts/test.sh puts ansible-core into its tools venv)"
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
COLL=$T/ansible_collections/cudnnctl/cudnn
mkdir -p "$(dirname "$COLL")" "$T/home/.ansible/test/cache"
cp -r "$SRC/packaging/ansible/ansible_collections/cudnnctl/cudnn" "$COLL"
"$TEST_BIN" --version
# the pip version ansible-test bootstraps (ansible_test/_internal/python_requirements.py: get_venv_packages), found
# through the interpreter on ansible-test's own #! line (a venv's site-packages, or Debian's dist-packages)
TEST_PY=$(head -n 1 "$(command -v "$TEST_BIN")" | sed -e 's/^#! *//' -e 's/ .*//')
ANSIBLE_TEST_DIR=$("$TEST_PY" -c 'import ansible_test, os; print(os.path.dirname(ansible_test.__file__))') ||
  { echo "FAIL: $TEST_PY (from $TEST_BIN's first line) cannot import ansible_test"; exit 1; }
PIP_VERSION=$(grep -ho "pip='[0-9.]*'" "$ANSIBLE_TEST_DIR/_internal/python_requirements.py" | head -1 | tr -dc '0-9.')
[[ -n $PIP_VERSION ]] || { echo "FAIL: cannot tell which pip ansible-test bootstraps"; exit 1; }
cp "$SRC/tests/fleet/ansible_get_pip.py" "$T/home/.ansible/test/cache/get_pip_${PIP_VERSION//./_}.py"
cd "$COLL"
rc=0
HOME=$T/home "$TEST_BIN" sanity --local --requirements --python "$(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')" \
  --color no > "$T/sanity.log" 2>&1 || rc=$?
cat "$T/sanity.log"
if grep -q "Download failed\|Could not find a version\|No matching distribution\|Name or service not known" "$T/sanity.log"; then
  skip "ansible-test could not install its test requirements from PyPI (see above)"
fi
[[ $rc == 0 ]] || { echo "FAIL: ansible-test sanity exited $rc"; exit 1; }
grep -q 'Running sanity test "validate-modules"' "$T/sanity.log" || { echo "FAIL: validate-modules did not run"; exit 1; }
if grep -q "^WARNING: Skipping sanity test" "$T/sanity.log"; then grep "^WARNING: Skipping sanity test" "$T/sanity.log"; fi
echo "ansible-test sanity: passed"

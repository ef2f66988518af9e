# Sourced by scripts/test.sh and .ci/run: uv and auditwheel from PyPI, in a private venv, for packaging.wheel_uv and
# packaging.wheel_auditwheel, and ansible-core (pinned: the newest for Debian 12's Python 3.11) for
# fleet.ansible_playbook and fleet.ansible_sanity (the wheel tests download nothing; ansible-test sanity installs its
# linters from PyPI; without these tools those tests skip, or fail where CI requires them). Exports the CUDNNCTL_UV,
# CUDNNCTL_AUDITWHEEL and CUDNNCTL_ANSIBLE the tests read, so that they never pick up another copy on PATH.
CUDNNCTL_TEST_TOOLS=${XDG_CACHE_HOME:-$HOME/.cache}/cudnnctl-test-tools
if [[ ! -x $CUDNNCTL_TEST_TOOLS/bin/uv || ! -x $CUDNNCTL_TEST_TOOLS/bin/auditwheel || ! -x $CUDNNCTL_TEST_TOOLS/bin/ansible-test ]]; then
  { python3 -m venv "$CUDNNCTL_TEST_TOOLS" &&
    "$CUDNNCTL_TEST_TOOLS/bin/pip" install -q "uv==0.13.9" "auditwheel==6.8.2" "ansible-core==2.19.14"; } >&2 ||
    echo "test: uv, auditwheel and ansible-core could not be installed into $CUDNNCTL_TEST_TOOLS: the tests that need them skip" >&2
fi
export CUDNNCTL_UV=$CUDNNCTL_TEST_TOOLS/bin/uv CUDNNCTL_AUDITWHEEL=$CUDNNCTL_TEST_TOOLS/bin/auditwheel
export CUDNNCTL_ANSIBLE=$CUDNNCTL_TEST_TOOLS/bin

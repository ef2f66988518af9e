#!/usr/bin/env bash
# promtool test rules on docs/examples/prometheus (CTest fleet.prometheus_rules): the alerts fire for more than
# one cuDNN release in the fleet, a node's failing checks and a stale file, and stay quiet otherwise. A copy of
# the rules with the release alert broken must fail the same tests (the tests can fail).
#   prometheus_rules_test.sh DOCS_EXAMPLES_PROMETHEUS
set -euo pipefail
dir=$1
if ! command -v promtool > /dev/null; then
  [[ -n ${CUDNNCTL_REQUIRE_FLEET:-} ]] && { echo "FAIL: promtool is not installed"; exit 1; }
  echo "SKIP: promtool is not installed (apt-get install prometheus)"
  exit 0
fi
promtool check rules "$dir/cudnnctl-rules.yml"
promtool test rules "$dir/cudnnctl-rules.test.yml"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$dir/cudnnctl-rules.yml" "$dir/cudnnctl-rules.test.yml" "$tmp/"
sed -i 's/(cudnnctl_cudnn_info)) > 1/(cudnnctl_cudnn_info)) > 2/' "$tmp/cudnnctl-rules.yml"
if promtool test rules "$tmp/cudnnctl-rules.test.yml" > "$tmp/out" 2>&1; then
  echo "FAIL: the rule tests pass with the release alert broken"
  exit 1
fi
echo "ok: promtool test rules passes, and fails on a broken rule"

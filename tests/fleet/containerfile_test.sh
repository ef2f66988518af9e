#!/usr/bin/env bash
# docs/examples/kubernetes/Containerfile builds from the cudnnctl binary and the image runs `cudnnctl --version`
# (CTest fleet.containerfile). Needs podman that can run here, and the base image already pulled
# (tests reach no network): otherwise SKIP.
#   containerfile_test.sh CUDNNCTL DOCS_EXAMPLES_KUBERNETES
set -euo pipefail
cmd=$1 dir=$2
tool=$(command -v podman || true)
[[ -n $tool ]] || { echo "SKIP: podman is not installed (buildah alone cannot run the image)"; exit 0; }
base=$(sed -n 's/^FROM //p' "$dir/Containerfile")
"$tool" image exists "$base" 2> /dev/null || { echo "SKIP: $tool cannot use the base image $base here (no network in tests)"; exit 0; }
ctx=$(mktemp -d)
trap 'rm -rf "$ctx"' EXIT
cp "$dir/Containerfile" "$cmd" "$ctx/"
tag=localhost/cudnnctl-test:$$
"$tool" build -t "$tag" -f "$ctx/Containerfile" "$ctx"
out=$(podman run --rm "$tag" cudnnctl --version)
podman rmi "$tag" > /dev/null || true
[[ $out == *cudnnctl* ]] || { echo "FAIL: the image printed '$out'"; exit 1; }
echo "ok: $out"

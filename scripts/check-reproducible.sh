#!/usr/bin/env bash
# Builds the portable Linux cudnnctl of this checkout's HEAD twice, from two clones in folders of different names
# and lengths, and compares the binaries' SHA-256: equal, or the differing strings are printed and it exits 1.
#   scripts/check-reproducible.sh [x86_64|aarch64]      (default x86_64; the third-party cache is shared)
# Each build is a whole scripts/build-portable.sh from a fresh folder (several minutes each on 2 cores).
set -euo pipefail
ARCH=${1:-x86_64}
cd "$(dirname "$0")/.."
work=$(mktemp -d "${TMPDIR:-/tmp}/cudnnctl-repro-XXXXXX")
trap 'rm -rf "$work"' EXIT
commit=$(git rev-parse HEAD)  # once: each clone builds this commit, even if the checkout moves on meanwhile
sums=()
for dir in "$work/a" "$work/second-checkout-with-a-longer-name"; do
  git clone -q --no-hardlinks "$PWD" "$dir"
  git -C "$dir" checkout -q "$commit"
  (cd "$dir" && CCACHE_DISABLE=1 scripts/build-portable.sh "$ARCH" >/dev/null)
  sums+=("$(sha256sum "$dir/dist/linux-$ARCH/cudnnctl" | cut -d' ' -f1)")
  echo "check-reproducible: $dir/dist/linux-$ARCH/cudnnctl ${sums[-1]}"
done
if [[ ${sums[0]} != "${sums[1]}" ]]; then
  echo "check-reproducible: the two builds differ; strings of one that name its folder:" >&2
  strings -n 6 "$work/a/dist/linux-$ARCH/cudnnctl" | grep -F "$work" | head -n 20 >&2 || true
  cmp -l "$work/a/dist/linux-$ARCH/cudnnctl" "$work/second-checkout-with-a-longer-name/dist/linux-$ARCH/cudnnctl" | head -n 5 >&2 || true
  exit 1
fi
echo "check-reproducible: $commit: the same SHA-256 from two folders: ${sums[0]}"

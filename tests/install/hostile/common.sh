# Shared set-up of the install/uninstall repros of hostile review round 4 (hostile.md): a minimal CUDA
# toolkit, a small fake cuDNN tree and archive, and a full snapshot of a tree (names, types, link
# targets, contents, modes). Sourced by the hostile_*.sh tests; $1 of the test is the cudnnctl binary.
set -u
C=$(realpath "$1")
W=$(mktemp -d "${TMPDIR:-/tmp}/cudnnctl-hostile.XXXXXX")
trap 'chmod -R u+w "$W" 2>/dev/null; rm -rf "$W"' EXIT
cd "$W"
unset CUDA_HOME CUDA_PATH LD_LIBRARY_PATH CUDNNCTL_FAULT_AT_CHANGE CUDNNCTL_FAULT_SIGNAL CUDNNCTL_FAULT_LOG
mk_tk() {      # mk_tk DIR: a minimal Linux CUDA 13.0 toolkit
  mkdir -p "$1/bin" "$1/include" "$1/lib64"
  printf '#define CUDA_VERSION 13000\n' > "$1/include/cuda.h"
  printf '{"cuda":{"name":"CUDA SDK","version":"13.0.2"}}\n' > "$1/version.json"
}
mk_cudnn() {   # mk_cudnn DIR X.Y.Z: a cuDNN tree ($EXTRA: more sub-libraries)
  local d=$1 v=$2 ma=${2%%.*} s h a b c
  mkdir -p "$d/include" "$d/lib"; IFS=. read -r a b c <<< "$v"
  printf '#define CUDNN_MAJOR %s\n#define CUDNN_MINOR %s\n#define CUDNN_PATCHLEVEL %s\n' "$a" "$b" "$c" > "$d/include/cudnn_version.h"
  for h in cudnn cudnn_graph cudnn_ops cudnn_cnn cudnn_adv cudnn_backend; do echo "/* $h $v */" > "$d/include/$h.h"; done
  for s in "" _graph _ops _cnn _adv _engines_precompiled _engines_runtime_compiled _heuristic ${EXTRA:-}; do
    printf '\177ELF fake libcudnn%s %s\n' "$s" "$v" > "$d/lib/libcudnn$s.so.$v"
    ln -sf "libcudnn$s.so.$v" "$d/lib/libcudnn$s.so.$ma"; ln -sf "libcudnn$s.so.$ma" "$d/lib/libcudnn$s.so"
  done
}
N=cudnn-linux-x86_64-9.19.0.56_cuda13-archive
mk_cudnn $N 9.19.0; echo LICENSE > $N/LICENSE; tar -cJf $N.tar.xz $N; H=$(sha256sum $N.tar.xz | cut -d' ' -f1)
snap() {       # snap DIR: every entry below DIR: type, mode, link target, and each file's content hash (not of
               # receipts and the lock, which hold ids and times; run ids are replaced by ID)
  (cd "$1" && { find . -mindepth 1 -printf '%y %m %p %l\n'; find . -type f -exec sha256sum {} + | sed 's/^\(.\{16\}\)[^ ]*/H \1/'; } |
    grep -Ev '^H .*/(receipt\.json|lock)$' | sed -E 's/(backup|trash|staging)-[0-9A-Za-z_-]+/\1-ID/g' | LC_ALL=C sort)
}
failures=0
check() {      # check WHAT CONDITION...: records a failure (the test fails at the end) when the condition fails
  local what=$1; shift
  if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; failures=$((failures + 1)); fi
}
finish() { if [ "$failures" -gt 0 ]; then echo "$failures check(s) failed"; exit 1; fi; echo "all checks passed"; exit 0; }

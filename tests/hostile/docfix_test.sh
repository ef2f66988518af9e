#!/usr/bin/env bash
# DOCFIX of the round-4 hostile review: every cudnnctl command that doctor (and explain --cuda-path) prints
# names the toolkit that was checked, quoted, and runs as printed on that toolkit.
# Usage: docfix_test.sh CUDNNCTL. Exit 0: as the review's "correct behaviour" says; 1 with what was seen.
set -u
C=$(realpath "$1")
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT; cd "$W"
unset CUDA_HOME CUDA_PATH LD_LIBRARY_PATH
fail() { echo "FAIL: $*"; exit 1; }
TK="$W/my cuda"                     # a toolkit whose folder needs quoting
mkdir -p "$TK/bin" "$TK/include" "$TK/lib64"
printf '#define CUDA_VERSION 13000\n' > "$TK/include/cuda.h"
printf '{"cuda":{"name":"CUDA SDK","version":"13.0.2"}}\n' > "$TK/version.json"
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n' > "$TK/include/cudnn_version.h"
for s in "" _graph _ops _cnn _adv _engines_precompiled _engines_runtime_compiled _heuristic; do
  printf '\177ELF fake\n' > "$TK/lib64/libcudnn$s.so.9.19.0"; ln -s "libcudnn$s.so.9.19.0" "$TK/lib64/libcudnn$s.so.9"
done
"$C" doctor --cuda-path "$TK" --no-gpu --json > doctor.json
python3 - "$TK" "$C" <<'PY' || exit 1
import json, re, shlex, subprocess, sys
tk, binary = sys.argv[1], sys.argv[2]
fixes = [c["fix"] for c in json.load(open("doctor.json"))["checks"] if c.get("fix")]
commands = [m for f in fixes for m in re.findall(r"cudnnctl (?:path|doctor|install|uninstall|bench)\b[^;`]*", f)]
if not commands:
    sys.exit(f"FAIL: no fix line printed a cudnnctl command (fixes: {fixes})")
quoted = "--cuda-path " + shlex.quote(tk)
for c in commands:
    if quoted not in c:
        sys.exit(f"FAIL: a printed command does not name the checked toolkit ({quoted}): {c!r}")
# run one as printed (the words up to the first that is prose), on the binary: it must act on this toolkit
path_cmds = [c for c in commands if c.startswith("cudnnctl path")]
if path_cmds:
    words = shlex.split(path_cmds[0])
    argv = [binary] + [w for w in words[1:4]]  # cudnnctl path --cuda-path TK
    r = subprocess.run(argv + ["--json"], capture_output=True, text=True)
    doc = json.loads(r.stdout)
    if tk not in json.dumps(doc):
        sys.exit(f"FAIL: the printed command acted on another toolkit: {r.stdout[:300]}")
print(f"{len(commands)} printed commands name {quoted}")
PY
# explain --cuda-path: its fix lines name the toolkit too
printf 'Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: cannot open shared object file\n' \
  | "$C" explain --cuda-path "$TK" > explain.txt
grep -q "cudnnctl install.*--cuda-path '$TK'" explain.txt || grep -q "cudnnctl .*--cuda-path '$TK'" explain.txt \
  || fail "explain --cuda-path printed no command naming the toolkit: $(grep fix: explain.txt)"
echo "ok"

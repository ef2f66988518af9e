#!/usr/bin/env bash
# hostile.md N2 a-d: a link inside the toolkit must never take uninstall, recovery or install outside it.
. "$(dirname "$0")/common.sh" "$1"
R=$(realpath .)

echo "== a. a forged receipt names lnk/keep.txt, lnk -> ../victim"
mk_tk tk; "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null
mkdir victim; echo keep > victim/keep.txt; ln -s ../victim tk/lnk
python3 - <<'P'
import json, hashlib
p = "tk/.cudnnctl/receipt.json"; r = json.load(open(p)); d = open("victim/keep.txt", "rb").read()
r["files"].append({"kind": "file", "path": "lnk/keep.txt", "link_target": "", "size": len(d), "sha256": hashlib.sha256(d).hexdigest()})
json.dump(r, open(p, "w"))
P
tk_before=$(snap tk)
"$C" uninstall --cuda-path tk; rc=$?
check "a: refused with exit 14 (state.unsafe)" [ $rc -eq 14 ]
check "a: the file outside is untouched" [ "$(cat victim/keep.txt 2>/dev/null)" = keep ]
check "a: the toolkit is untouched" [ "$(snap tk)" = "$tk_before" ]

echo "== b. a forged journal moves through lnk"
rm -rf tk victim; mk_tk tk; "$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null
mkdir victim; echo keep > victim/keep.txt; ln -s ../victim tk/lnk
cp victim/keep.txt tk/.cudnnctl/copy.txt; printf '#!/bin/sh\necho planted\n' > tk/.cudnnctl/payload
T=$(realpath tk)
cat > tk/.cudnnctl/journal.json <<J
{"schema_version": 1, "id": "x", "description": "forged", "phase": "applying",
 "moves": [{"from": "$T/lnk/planted.sh", "to": "$T/.cudnnctl/payload"},
           {"from": "$T/.cudnnctl/copy.txt", "to": "$T/lnk/keep.txt"}],
 "remove_on_commit": [], "remove_on_rollback": []}
J
tk_before=$(snap tk)
out=$("$C" uninstall --cuda-path tk 2>&1); rc=$?; echo "$out"
check "b: refused with exit 14" [ $rc -eq 14 ]
check "b: keep.txt outside is still there, nothing planted" [ "$(ls -A victim)" = keep.txt ]
check "b: it does not claim to have rolled anything back" bash -c "! grep -q 'as it was' <<< \"\$1\"" _ "$out"
check "b: the toolkit is untouched" [ "$(snap tk)" = "$tk_before" ]

echo "== c. .cudnnctl is a link to a folder outside"
rm -rf tk victim; mk_tk tk; mkdir -p victim/staging-2024; echo data > victim/staging-2024/data.txt; ln -s ../victim tk/.cudnnctl
v_before=$(snap victim)
"$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path; rc=$?
check "c: install refused with exit 14" [ $rc -eq 14 ]
check "c: the outside folder is untouched (staging-2024 kept, no lock)" [ "$(snap victim)" = "$v_before" ]
"$C" uninstall --cuda-path tk; rc=$?
check "c: uninstall refused with exit 14" [ $rc -eq 14 ]
check "c: still untouched after uninstall" [ "$(snap victim)" = "$v_before" ]

echo "== d. lib64 links out of the toolkit"
rm -rf tk victim; mk_tk tk; rmdir tk/lib64; mk_cudnn old 9.1.0; mv old/lib outside-lib; ln -s ../outside-lib tk/lib64
o_before=$(snap outside-lib); tk_before=$(snap tk)
"$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path; rc=$?
check "d: refused with exit 14" [ $rc -eq 14 ]
check "d: the outside folder keeps its 9.1.0 files" [ "$(snap outside-lib)" = "$o_before" ]
check "d: nothing was created in the toolkit" [ "$(snap tk)" = "$tk_before" ]

echo "== Windows: the DLL folder bin/x64 links out of the toolkit"
mkdir -p wtk/bin wtk/include wtk/lib/x64 outside-dlls; printf '#define CUDA_VERSION 13000\n' > wtk/include/cuda.h
printf '{"cuda":{"name":"CUDA SDK","version":"13.0.2"}}\n' > wtk/version.json; printf MZ > wtk/bin/nvcc.exe
printf MZ > outside-dlls/cudart64_13.dll; printf MZ > outside-dlls/cudnn64_8.dll; ln -s ../../outside-dlls wtk/bin/x64
Z=cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip; python3 -c "import zipfile; zipfile.ZipFile('$Z', 'w').writestr('x/LICENSE', 'x')"
o_before=$(snap outside-dlls); tk_before=$(snap wtk)
"$C" install $Z --cuda-path wtk --sha256 "$(sha256sum $Z | cut -d' ' -f1)" --no-path; rc=$?
check "Windows: refused with exit 14" [ $rc -eq 14 ]
check "Windows: the outside folder keeps its DLLs (cudnn64_8.dll not removed as stale)" [ "$(snap outside-dlls)" = "$o_before" ]
check "Windows: nothing was created in the toolkit" [ "$(snap wtk)" = "$tk_before" ]

echo "== a link that stays inside (CUDA's lib64 -> targets/x86_64-linux/lib) is fine"
rm -rf tk; mk_tk tk; rmdir tk/lib64; mkdir -p tk/targets/x86_64-linux/lib; ln -s targets/x86_64-linux/lib tk/lib64
before=$(snap tk)
"$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null; rc=$?
check "inside link: install succeeds" [ $rc -eq 0 ]
check "inside link: the libraries are in the linked folder" [ -f tk/targets/x86_64-linux/lib/libcudnn.so.9.19.0 ]
"$C" uninstall --cuda-path tk > /dev/null
check "inside link: uninstall gives back exactly what was there" [ "$(snap tk)" = "$before" ]
finish

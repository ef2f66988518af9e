#!/usr/bin/env bash
# End to end on realistic archives (the real cuDNN of this image, 9.19, in NVIDIA's layouts, built by
# tests/fixtures/make_realistic_archives.py and cached in the build folder): install the tar.xz into a
# copy of this image's /usr/local/cuda layout (lib64 -> targets/x86_64-linux/lib), load the installed
# libcudnn.so.9 and get the cudnnGetVersion() its version says (91900 for 9.19.0); install the zip into a
# CUDA 13 Windows-layout tree (bin\x64); uninstall both and compare the trees with what they were.
#   install_realistic.sh CUDNNCTL PROBE MAKE_REALISTIC_ARCHIVES FIXTURES_DIR
set -euo pipefail
CUDNNCTL=$1 PROBE=$2 MAKE=$3 FIX=$4
rc=0; made=$(python3 "$MAKE" "$FIX") || rc=$?
if [[ $rc == 77 ]]; then echo "$made" | grep '^SKIP:'; exit 0; fi
[[ $rc == 0 ]] || { echo "$made"; echo "FAIL: $MAKE exited $rc"; exit 1; }
if [[ ! -f /usr/local/cuda/include/cuda.h || ! -x /usr/local/cuda/bin/nvcc ]]; then
  echo "SKIP: needs this image's CUDA toolkit (/usr/local/cuda/include/cuda.h and bin/nvcc) to copy its layout"; exit 0
fi
read -r TXZ ZIP VERSION < <(python3 -c 'import json, sys
m = json.load(open(sys.argv[1]))
print(m["linux"]["file"], m["windows"]["file"], m["version"])' "$FIX/fixtures.json")
TXZ=$FIX/$TXZ ZIP=$FIX/$ZIP
# cudnnGetVersion() of cuDNN 9 is major*10000 + minor*100 + patch
IFS=. read -r MAJOR MINOR PATCH _ <<< "$VERSION"
WANT=$((MAJOR * 10000 + MINOR * 100 + PATCH)) XYZ=$MAJOR.$MINOR.$PATCH
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
snapshot() { (cd "$1" && find . -path ./.cudnnctl -prune -o -print0 | sort -z | xargs -0 -I{} sh -c 'if [ -L "{}" ]; then echo "{} -> $(readlink "{}")"; elif [ -f "{}" ]; then sha256sum "{}"; else echo "{}/"; fi'); }

# a copy of the real toolkit's layout (the small files; the big libraries are not needed)
TK=$TMP/cuda-13.0
mkdir -p "$TK/bin" "$TK/targets/x86_64-linux/lib" "$TK/include"
cp /usr/local/cuda/include/cuda.h "$TK/include/"
cp /usr/local/cuda/bin/nvcc "$TK/bin/"
ln -s targets/x86_64-linux/lib "$TK/lib64"
before=$(snapshot "$TK")
"$CUDNNCTL" install "$TXZ" --sha256-file "$TXZ.sha256" --cuda-path "$TK" --json > "$TMP/install.json"
grep -q '"changed": true' "$TMP/install.json"
version=$("$PROBE" "$TK/lib64/libcudnn.so.9")
echo "cudnnGetVersion() of the installed copy: $version"
[[ $version == "$WANT" ]] || { echo "FAIL: cudnnGetVersion() is $version, the archive is $WANT"; exit 1; }
"$CUDNNCTL" install "$TXZ" --sha256-file "$TXZ.sha256" --cuda-path "$TK" --json > "$TMP/again.json"
grep -q '"changed": false' "$TMP/again.json"
"$CUDNNCTL" uninstall --cuda-path "$TK" > /dev/null
[[ $(snapshot "$TK") == "$before" ]] || { echo "FAIL: the Linux tree differs after uninstall"; exit 1; }

# the Windows zip into a CUDA 13 Windows-layout tree, prepared from Linux
WTK=$TMP/win-v13.0
mkdir -p "$WTK/bin/x64" "$WTK/include" "$WTK/lib/x64"
echo '{"cuda": {"name": "CUDA SDK", "version": "13.0.2"}}' > "$WTK/version.json"
echo cudart > "$WTK/bin/x64/cudart64_13.dll"; echo nvcc > "$WTK/bin/nvcc.exe"; echo h > "$WTK/include/cuda.h"
before=$(snapshot "$WTK")
"$CUDNNCTL" install "$ZIP" --sha256-file "$ZIP.sha256" --cuda-path "$WTK" > /dev/null
for f in cudnn64_9.dll cudnn_engines_precompiled64_9.dll cudnn_graph64_9.dll; do [[ -f $WTK/bin/x64/$f ]]; done
[[ -f $WTK/lib/x64/cudnn.lib && -f $WTK/include/cudnn.h && ! -e $WTK/bin/x64/x64 ]]
# byte-identity: every installed file and its receipt hash equal the member as Python's zipfile (zlib)
# inflates it, whichever inflater this build uses (ISA-L where found)
python3 - "$ZIP" "$WTK" <<'PY'
import hashlib, json, os, sys, zipfile, zlib
z, tk = sys.argv[1], sys.argv[2]
r = json.load(open(os.path.join(tk, ".cudnnctl", "receipt.json")))
assert r["schema_version"] == 2, r["schema_version"]
with zipfile.ZipFile(z) as zf:
    members = {os.path.basename(i.filename): i for i in zf.infolist() if not i.is_dir()}
    members.update({"cudnn-" + r["version"] + "-LICENSE": members["LICENSE"]})
    for f in r["files"]:
        data = zf.read(members[os.path.basename(f["path"])])
        want = hashlib.sha256(data).hexdigest()
        placed = open(os.path.join(tk, f["path"]), "rb").read()
        got = hashlib.sha256(placed).hexdigest()
        assert got == want, (f["path"], got, want)
        crc = f"{zlib.crc32(placed):08x}"
        assert f["crc32"] == crc == f"{members[os.path.basename(f['path'])].CRC:08x}", (f["path"], f["crc32"], crc)
        assert f["size"] == len(placed), (f["path"], f["size"], len(placed))
print(f"{len(r['files'])} installed files byte-identical to the zip's members, receipt CRC-32s and sizes equal")
PY
# the doctor reads that Windows tree offline: the archive's header, every sub-DLL, the receipt; the fixture's
# DLLs are Linux .so bytes under DLL names, which the PE reader names as not readable DLLs
doctor_json() { local rc=0; "$CUDNNCTL" doctor --cuda-path "$1" --json > "$2" || rc=$?; echo "$rc"; }
rc=$(doctor_json "$WTK" "$TMP/wdoctor.json")
python3 - "$TMP/wdoctor.json" "$rc" "$XYZ" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); rc = int(sys.argv[2])
c = {x["id"]: x for x in r["checks"]}
assert r["offline"] is True, r
assert rc == 10, rc
assert c["files.cudnn"]["status"] == "pass" and sys.argv[3] in c["files.cudnn"]["finding"], c["files.cudnn"]
assert c["files.complete"]["status"] == "pass", c["files.complete"]
assert c["files.receipt"]["status"] == "pass", c["files.receipt"]
assert c["files.dlls"]["status"] == "fail" and "cudnn64_9.dll is not a readable DLL" in c["files.dlls"]["finding"], c["files.dlls"]
assert c["loader.load"]["status"] == "skip", c["loader.load"]
print("doctor offline on the installed fixture zip: ok")
PY
# one thing broken, in a copy of the tree: a sub-DLL deleted after the install
cp -a "$WTK" "$TMP/win-broken"
rm "$TMP/win-broken/bin/x64/cudnn_graph64_9.dll"
rc=$(doctor_json "$TMP/win-broken" "$TMP/wbroken.json")
python3 - "$TMP/wbroken.json" "$rc" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); c = {x["id"]: x for x in r["checks"]}
assert int(sys.argv[2]) == 10
assert c["files.complete"]["status"] == "fail" and "cudnn_graph64_9.dll" in c["files.complete"]["finding"], c["files.complete"]
assert c["files.receipt"]["status"] == "fail", c["files.receipt"]
print("doctor offline on the fixture tree with a sub-DLL deleted: ok")
PY
"$CUDNNCTL" uninstall --cuda-path "$WTK" > /dev/null
[[ $(snapshot "$WTK") == "$before" ]] || { echo "FAIL: the Windows tree differs after uninstall"; exit 1; }
echo "e2e: 1 passed, 0 failed"

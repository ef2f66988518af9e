#!/usr/bin/env bash
# hostile.md STALE: sub-libraries of a newer release (ext, engines_tensor_ir) are backed up and removed
# by install, restored by uninstall, and named by the doctor when they sit beside an installed release.
. "$(dirname "$0")/common.sh" "$1"
echo "== Linux"
mk_tk tk; EXTRA="_ext _engines_tensor_ir" mk_cudnn new 9.24.0; cp -a new/include/. tk/include/; cp -a new/lib/. tk/lib64/
before=$(snap tk)
"$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path
check "Linux: no 9.24 file (ext, engines_tensor_ir included) is left beside 9.19" bash -c "! ls tk/lib64 | grep -q '9.24\|_ext\|tensor_ir'"
"$C" doctor --cuda-path tk --no-gpu > /dev/null
"$C" uninstall --cuda-path tk > /dev/null
check "Linux: uninstall restores exactly what was there" [ "$(snap tk)" = "$before" ]
"$C" install $N.tar.xz --cuda-path tk --sha256 $H --no-path > /dev/null
cp -a new/lib/libcudnn_ext.so* tk/lib64/
out=$("$C" doctor --cuda-path tk --no-gpu 2>&1); echo "$out" | grep 'files\.'
check "Linux doctor: the receipt check names the unlisted libcudnn_ext files" grep -q 'files.receipt.*libcudnn_ext.so' <<< "$out"

echo "== Windows"
mkdir -p wtk/bin/x64 wtk/include wtk/lib/x64; printf '#define CUDA_VERSION 13000\n' > wtk/include/cuda.h
printf '{"cuda":{"name":"CUDA SDK","version":"13.0.2"}}\n' > wtk/version.json; printf MZ > wtk/bin/nvcc.exe; printf MZ > wtk/bin/x64/cudart64_13.dll
cp -a wtk wtk2
python3 - <<'P'
import struct, zipfile
def dll(tag):  # a minimal x64 PE DLL: no imports, no version resource
    h = b"MZ" + bytes(58) + struct.pack("<I", 64) + struct.pack("<4sHHIIIHH", b"PE\0\0", 0x8664, 1, 0, 0, 0, 240, 0x2022)
    o = bytearray(240); struct.pack_into("<H", o, 0, 0x20B); struct.pack_into("<I", o, 108, 16)
    h += bytes(o) + struct.pack("<8sIIIIIIHHI", b".rdata", 512, 4096, 512, 512, 0, 0, 0, 0, 0x40000040)
    return h.ljust(512, b"\0") + tag.encode().ljust(512, b"\0")
top = "cudnn-windows-x86_64-9.19.0.56_cuda13-archive"
with zipfile.ZipFile(top + ".zip", "w") as z:
    z.writestr(top + "/LICENSE", "LICENSE\n")
    z.writestr(top + "/include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n")
    z.writestr(top + "/include/cudnn.h", "/* cudnn.h */\n")
    for s in ["", "_graph", "_ops", "_cnn", "_adv", "_engines_precompiled", "_engines_runtime_compiled", "_heuristic"]:
        z.writestr(f"{top}/bin/x64/cudnn{s}64_9.dll", dll(f"cudnn{s}64_9.dll 9.19.0"))
        z.writestr(f"{top}/lib/x64/cudnn{s}.lib", f"cudnn{s}.lib 9.19.0\n")
for s in ("_ext", "_engines_tensor_ir"):   # two DLLs of a newer release
    open(f"wtk2/bin/x64/cudnn{s}64_9.dll", "wb").write(dll(f"cudnn{s}64_9.dll 9.24.0"))
    for lib in (f"cudnn{s}.lib", f"cudnn{s}64_9.lib"): open(f"wtk2/lib/x64/{lib}", "w").write("9.24.0\n")
P
Z=cudnn-windows-x86_64-9.19.0.56_cuda13-archive.zip; HZ=$(sha256sum $Z | cut -d' ' -f1)
before=$(snap wtk2)
out=$("$C" install $Z --cuda-path wtk2 --sha256 $HZ --no-path 2>&1); echo "$out"
check "Windows: the install counts the 6 files of the newer release as stale" grep -q '6 stale cuDNN files removed' <<< "$out"
check "Windows: none of them is left" bash -c "! ls wtk2/bin/x64 wtk2/lib/x64 | grep -Eq '_ext|tensor_ir'"
"$C" uninstall --cuda-path wtk2 > /dev/null
check "Windows: uninstall restores exactly what was there" [ "$(snap wtk2)" = "$before" ]
"$C" install $Z --cuda-path wtk --sha256 $HZ --no-path > /dev/null
cp wtk2/bin/x64/cudnn_ext64_9.dll wtk2/bin/x64/cudnn_engines_tensor_ir64_9.dll wtk/bin/x64/
out=$("$C" doctor --cuda-path wtk --no-gpu 2>&1); echo "$out" | grep 'files\.'
check "Windows doctor: a files.* check warns and names the foreign DLLs" grep -Eq '(WARN|FAIL) +files\.[a-z_]+ .*cudnn_ext64_9.dll' <<< "$out"
finish

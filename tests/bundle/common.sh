# Shared by the bundle tests: RECORD as pip writes it, pip's own check of it, and stand-in cuDNN archives.
# Needs $tmp (a scratch folder), $site and $di (the site-packages and the dist-info whose RECORD is meant);
# fake_archive also needs the folder of this file in $here.

# record SITE DIST_INFO: RECORD for every file below SITE/nvidia and the dist-info (CRLF, urlsafe base64 without padding)
record() {
  python3 - "$1" "$2" <<'PY'
import base64, hashlib, os, sys
site, di = sys.argv[1], sys.argv[2]
rows = []
for top in ("nvidia", os.path.basename(di)):
    for root, _, files in os.walk(os.path.join(site, top)):
        for f in sorted(files):
            p = os.path.join(root, f)
            rel = os.path.relpath(p, site)
            if rel.endswith("RECORD"): continue
            d = hashlib.sha256(open(p, "rb").read()).digest()
            rows.append(f"{rel},sha256={base64.urlsafe_b64encode(d).rstrip(b'=').decode()},{os.path.getsize(p)}")
rows.append(os.path.relpath(os.path.join(di, "RECORD"), site) + ",,")
open(os.path.join(di, "RECORD"), "w", newline="").write("\r\n".join(rows) + "\r\n")
PY
}

# every RECORD hash of the wheel's libraries matches again (pip's own check), and nothing else is in the folder
record_intact() {
  python3 - "$site" "$di/RECORD" <<'PY'
import base64, hashlib, os, sys
site, rec = sys.argv[1], sys.argv[2]
bad = 0
for line in open(rec, newline="").read().split("\r\n"):
    if not line or line.endswith(",,"): continue
    path, h, size = line.rsplit(",", 2)
    p = os.path.join(site, path)
    d = base64.urlsafe_b64encode(hashlib.sha256(open(p, "rb").read()).digest()).rstrip(b"=").decode()
    if "sha256=" + d != h: print("differs:", path); bad = 1
extra = set(os.listdir(os.path.join(site, "nvidia/cudnn/lib"))) - {os.path.basename(l.split(",")[0]) for l in open(rec) if "cudnn/lib/" in l}
if extra: print("not in RECORD:", extra); bad = 1
sys.exit(bad)
PY
}

# stand-in archives: ARCHIVE NAME VERSION_NUMBER [MAJOR] [MACHINE]
fake_archive() {
  local name=$1 number=$2 major=${3:-9} machine=${4:-}
  local top=$tmp/arch/${name%.tar.xz}
  mkdir -p "$top/lib" "$top/include"
  local subs=(graph ops cnn adv engines_precompiled engines_runtime_compiled heuristic engines_tensor_ir)
  ((major == 8)) && subs=(ops_infer cnn_infer)
  # the real libcudnn.so.9 versions its symbols with a node named after its soname: so does the stand-in
  printf 'libcudnn.so.%s { global: *; };\n' "$major" >"$tmp/arch/cudnn.map"
  gcc -shared -fPIC -DFAKE_VERSION="$number" -Wl,-soname,libcudnn.so.$major -Wl,--version-script,"$tmp/arch/cudnn.map" -o "$top/lib/libcudnn.so.$major.0.0" "$here/fake_cudnn.c"
  ln -s "libcudnn.so.$major.0.0" "$top/lib/libcudnn.so.$major"
  for s in "${subs[@]}"; do
    echo 'int sub(void){return 1;}' | gcc -shared -fPIC -x c - -Wl,-soname,libcudnn_$s.so.$major -o "$top/lib/libcudnn_$s.so.$major.0.0"
    ln -s "libcudnn_$s.so.$major.0.0" "$top/lib/libcudnn_$s.so.$major"
  done
  [[ -n $machine ]] && printf "\\x$machine\\x00" | dd of="$top/lib/libcudnn.so.$major.0.0" bs=1 seek=18 conv=notrunc status=none
  printf '#define CUDNN_MAJOR %s\n#define CUDNN_MINOR 0\n#define CUDNN_PATCHLEVEL 0\n' "$major" >"$top/include/cudnn_version.h"
  tar -C "$tmp/arch" -cJf "$tmp/arch/$name" "${name%.tar.xz}"
  sha256sum "$tmp/arch/$name" | cut -d' ' -f1
}

#!/usr/bin/env bash
# The mixed case (docs/owners.md, doctor's files.mixed_release) with the real dpkg: a bundle in the
# nvidia-cudnn-cu13 layout (cuDNN 9.21, pip's) without libcudnn_engines_tensor_ir, the same sub-library of
# 9.23.2 in a dpkg-owned system folder on the loader's path (libcudnn9-cuda-12, installed by dpkg into a
# private root). The doctor FAILs naming both releases, folders and owners, with apt's fix; with the bundle
# complete it passes. `path` and `bundle list` name the owners too, and "held" after dpkg --set-selections.
#   mixed_release_test.sh CUDNNCTL
. "$(dirname "$0")/../install/hostile/common.sh" "$1"
for t in dpkg dpkg-deb; do command -v $t > /dev/null || { echo "SKIP: no $t on this machine"; exit 0; }; done
R=$W/root SYS=/usr/lib/x86_64-linux-gnu
EXTRA=_engines_tensor_ir mk_cudnn sys 9.23.2
mkdir -p pkg/DEBIAN "pkg$SYS"; cp -a sys/lib/. "pkg$SYS/"
printf 'Package: libcudnn9-cuda-12\nVersion: 9.23.2.1-1\nArchitecture: amd64\nMaintainer: cudnnctl tests <t@example.invalid>\nDescription: cuDNN runtime (test fixture)\n' > pkg/DEBIAN/control
dpkg-deb -Znone --root-owner-group --build pkg sys.deb > /dev/null || { echo "FAIL: dpkg-deb"; exit 1; }
mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates" "$R/var/lib/dpkg/triggers"; touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
D=(dpkg --root="$R" --force-not-root --force-script-chrootless)
"${D[@]}" -i sys.deb > dpkg.log 2>&1 || { cat dpkg.log; echo "FAIL: dpkg -i"; exit 1; }
# the toolkit: cuDNN 9.19 (which has no tensor_ir sub-library), the bundle: pip's 9.21 without it
mk_tk tk; mk_cudnn tkc 9.19.0; cp -a tkc/lib/. tk/lib64/; cp tkc/include/* tk/include/
site=$W/site lib=$W/site/nvidia/cudnn/lib di=$W/site/nvidia_cudnn_cu13-9.21.0.82.dist-info
mkdir -p "$lib" "$di"
for s in "" _graph _ops _cnn _adv _engines_precompiled _engines_runtime_compiled _heuristic; do printf '\177ELF fake libcudnn%s 9.21.0\n' "$s" > "$lib/libcudnn$s.so.9"; done
printf 'Metadata-Version: 2.1\nName: nvidia-cudnn-cu13\nVersion: 9.21.0.82\n' > "$di/METADATA"
(cd "$site" && for f in nvidia/cudnn/lib/* "${di##*/}/METADATA"; do echo "$f,sha256=$(sha256sum "$f" | cut -d' ' -f1),1"; done > "$di/RECORD")
run() { CUDNNCTL_PACKAGE_ROOT=$R LD_LIBRARY_PATH=$R$SYS "$C" "$@" 2>&1; }
doc() { run doctor --cuda-path tk --site "$site" --check files.mixed_release --no-gpu "$@"; }

out=$(doc --json); rc=$?
echo "$out" | head -c 2500; echo
check "doctor: exit 10 (a failed check)" [ $rc -eq 10 ]
check "files.mixed_release FAILs naming both releases, both folders and both owners" bash -c '
  grep -q "files.mixed_release" <<< "$1" && grep -q "\"fail\"" <<< "$1" && grep -q "libcudnn_engines_tensor_ir.so.9" <<< "$1" &&
  grep -qF "$2" <<< "$1" && grep -qF "cuDNN 9.21.0.82, pip: nvidia-cudnn-cu13 9.21.0.82" <<< "$1" &&
  grep -qF "$3" <<< "$1" && grep -qF "cuDNN 9.23.2, dpkg: libcudnn9-cuda-12 9.23.2.1-1" <<< "$1"' _ "$out" "$lib" "$R$SYS"
check "its fix is apt's" grep -qF "sudo apt remove libcudnn9-cuda-12" <<< "$out"

out=$(run path --cuda-path tk --json)
check "path --json: the system copy's owner object" python3 -c '
import json, sys
copies = json.loads(sys.argv[1])["shadow_scan"]["copies"]
sys.exit(0 if any(c["owner"] == {"kind": "dpkg", "package": "libcudnn9-cuda-12", "version": "9.23.2.1-1", "held": False} for c in copies) else 1)' "$out"
echo "libcudnn9-cuda-12 hold" | "${D[@]}" --set-selections
out=$(run path --cuda-path tk)
check "path: held after dpkg --set-selections" grep -qF "owner: dpkg: libcudnn9-cuda-12 9.23.2.1-1 (held)" <<< "$out"
out=$(run bundle list --site "$site" --json)
check "bundle list --json: the bundle's package_owner is pip's" python3 -c '
import json, sys
b = json.loads(sys.argv[1])["bundles"]
sys.exit(0 if b and b[0]["package_owner"]["kind"] == "pip" and b[0]["package_owner"]["package"] == "nvidia-cudnn-cu13" else 1)' "$out"

out=$(echo "RuntimeError: cuDNN error: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH" | CUDNNCTL_PACKAGE_ROOT=$R LD_LIBRARY_PATH=$lib:$R$SYS "$C" -v explain --here 2>&1)
echo "$out" | grep "here:\|ld.so cache: read"
# the doctor's files.mixed_release run and the loader's copies share the run's machine: ldconfig runs once
check "explain --here -v: the ld.so cache read once for the doctor's check and the loader's copies" \
  [ "$(grep -c "ld.so cache: read with .*ldconfig -p" <<< "$out")" = 1 ]
check "explain --here of SUBLIBRARY_VERSION_MISMATCH names the pair and both owners" bash -c '
  grep -qF "$2 (cuDNN 9.21.0.82, pip: nvidia-cudnn-cu13 9.21.0.82) has no libcudnn_engines_tensor_ir.so.9" <<< "$1" &&
  grep -qF "dpkg: libcudnn9-cuda-12 9.23.2.1-1 (held)" <<< "$1"' _ "$out" "$lib"

printf '\177ELF fake libcudnn_engines_tensor_ir 9.21.0\n' > "$lib/libcudnn_engines_tensor_ir.so.9"
out=$(doc); rc=$?
echo "$out" | grep -i mixed_release
check "with the bundle complete: passes" bash -c '[ $0 -eq 0 -o $0 -eq 11 ] && grep -q "PASS.*files.mixed_release\|files.mixed_release.*no sub-library" <<< "$1"' $rc "$out"
check "dpkg's own verify is clean" bash -c '[ -z "$("$@" --verify libcudnn9-cuda-12 2>&1)" ]' _ "${D[@]}"
finish

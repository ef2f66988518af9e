#!/usr/bin/env bash
# install latest|9|9.19 and fetch choose the newest catalog archive that fits this machine's toolkit, driver and
# GPUs (catalog/release_resolver), through the fake system: toolkits of CUDA 12.4 and 13.0 made here, the fake
# libcuda (FAKE_DRIVER_API: the CUDA version the driver runs; FAKE_CC_MAJOR/MINOR, FAKE_GPU_NAME: its one GPU), a
# --catalog with three releases, two variants each, and support rows. --dry-run chooses and downloads nothing;
# the one real install takes the chosen archive from the cache (--offline).   release_resolver.sh CUDNNCTL FAKE_LIBCUDA
FAKE_CUDA=$(realpath "$2")
. "$(dirname "$0")/hostile/common.sh" "$1"
command -v python3 > /dev/null || { echo "SKIP: no python3 to read the JSON"; exit 0; }

mk_tk tk13
mk_tk tk12; printf '#define CUDA_VERSION 12040\n' > tk12/include/cuda.h
printf '{"cuda":{"name":"CUDA SDK","version":"12.4.1"}}\n' > tk12/version.json
# the newest CUDA 13 build is a real (fake-library) archive in the cache, so that one install goes all the way
NEW=cudnn-linux-x86_64-9.28.1.4_cuda13-archive
mk_cudnn $NEW 9.28.1; echo LICENSE > $NEW/LICENSE; tar -cJf $NEW.tar.xz $NEW; NEW_H=$(sha256sum $NEW.tar.xz | cut -d' ' -f1)
mkdir cache; cp $NEW.tar.xz cache/
python3 - "$NEW_H" > catalog.json <<'PY'
import json, sys
def arch(platform, build, cuda, sha="a" * 64):
    ext = ".zip" if platform.startswith("windows") else ".tar.xz"
    name = f"cudnn-{platform}-{build}_cuda{cuda}-archive{ext}"
    return {"filename": name, "version": build, "platform": platform, "cuda_variant": cuda,
            "url": f"https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/{platform}/{name}",
            "hashes": [{"sha256": sha, "sources": ["test"]}]}
old = ["5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "8.9", "9.0"]
new = ["7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"]
def row(release, cuda, toolkits, ccs):
    return {"release": release, "cuda_variant": cuda, "cuda_toolkits": toolkits, "compute_capabilities": ccs, "source": "test"}
print(json.dumps({"schema_version": 1,
    "archives": [arch("linux-x86_64", "9.28.1.4", "13", sys.argv[1]), arch("linux-x86_64", "9.28.1.4", "12"),
                 arch("linux-x86_64", "9.17.0.10", "13"), arch("linux-x86_64", "9.17.0.10", "12"),
                 arch("linux-x86_64", "9.10.2.21", "12"), arch("linux-x86_64", "9.10.2.21", "11"),
                 arch("windows-x86_64", "9.28.1.4", "13")],
    "support": [row("9.17.0", "13", ["13.0", "13.1"], new), row("9.17.0", "12", ["12.0", "12.4", "12.9"], new),
                row("9.10.2", "12", ["12.0", "12.4", "12.9"], old), row("9.10.2", "11", ["11.8"], old)]}))
PY
before12=$(snap tk12); before13=$(snap tk13)
inst() { "$C" install "$@" --catalog catalog.json --cache cache --driver-library "$FAKE_CUDA" --no-path; }
ftch() { "$C" fetch "$@" --catalog catalog.json --cache cache --driver-library "$FAKE_CUDA"; }
with() { while [[ $1 == *=* ]]; do export "$1"; shift; done; "$@"; }  # with VAR=VALUE... FUNCTION ARGS (in $(...))
field() { python3 -c 'import json,sys; d=json.load(sys.stdin); print(eval(sys.argv[1]))' "$1"; }
G3090=(FAKE_CC_MAJOR=8 FAKE_CC_MINOR=6 "FAKE_GPU_NAME=NVIDIA GeForce RTX 3090")

out=$(with "${G3090[@]}" FAKE_DRIVER_API=13000 inst latest --cuda-path tk13 --dry-run --json 2>/dev/null); rc=$?
echo "$out" | head -c 1200; echo
check "CUDA 13.0 toolkit, a CUDA 13 driver, sm_86: latest is 9.28.1.4 for CUDA 13 (exit 0)" \
  [ $rc -eq 0 -a "$(field 'd["resolution"]["chosen"]["filename"]' <<< "$out")" = "$NEW.tar.xz" ]
check "nothing newer was passed over; the GPU code is checked after download (9.28 has no support row)" \
  [ "$(field 'len(d["resolution"]["passed_over"])' <<< "$out")" = 0 -a "$(field '"after download" in " ".join(d["resolution"]["notes"])' <<< "$out")" = True ]
check "the machine's facts are in the JSON" [ "$(field 'd["resolution"]["machine"]["gpus"][0]["compute_capability"]' <<< "$out")" = 8.6 ]

out=$(with "${G3090[@]}" inst latest --cuda-path tk12 --dry-run --json 2>/dev/null); rc=$?
check "CUDA 12.4 toolkit: latest is 9.28.1.4 for CUDA 12" [ $rc -eq 0 -a "$(field 'd["resolution"]["chosen"]["cuda_variant"]' <<< "$out")" = 12 ]
check "the CUDA 13 build was passed over for the toolkit" \
  [ "$(field 'd["resolution"]["passed_over"][0]["reason"]' <<< "$out")" = "for CUDA 13; the toolkit at tk12 is CUDA 12.4" ]

out=$(with "${G3090[@]}" FAKE_DRIVER_API=12040 inst latest --cuda-path tk13 --dry-run --json 2>/dev/null); rc=$?
echo "$out" | head -c 800; echo
check "CUDA 13 toolkit on a driver that runs CUDA 12.4: nothing fits, exit 16" [ $rc -eq 16 ]
check "the error names the rule and each archive passed over" \
  bash -c 'grep -q "catalog.no-fitting-release" <<< "$1" && grep -q "9.28.1.4_cuda13-archive.tar.xz: needs a driver that runs CUDA 13" <<< "$1" && grep -q "9.28.1.4_cuda12-archive.tar.xz: for CUDA 12; the toolkit at tk13 is CUDA 13.0" <<< "$1"' _ "$out"
out=$(with "${G3090[@]}" FAKE_DRIVER_API=12040 inst latest --cuda-path tk13 --dry-run --force --json 2>/dev/null); rc=$?
check "with --force the toolkit's newest CUDA 13 build is chosen without the driver" \
  [ $rc -eq 0 -a "$(field 'd["resolution"]["forced"]' <<< "$out")" = True -a "$(field 'd["resolution"]["chosen"]["filename"]' <<< "$out")" = "$NEW.tar.xz" ]

G1080=(FAKE_CC_MAJOR=6 FAKE_CC_MINOR=1 "FAKE_GPU_NAME=NVIDIA GeForce GTX 1080")
out=$(with "${G1080[@]}" ftch 9.17 --cuda-path tk12 --dry-run 2>&1); rc=$?
echo "$out"
check "fetch 9.17 for a GTX 1080: exit 16, the support matrix lists no sm_61" \
  bash -c '[ $0 -eq 16 ] && grep -q "support matrix lists no sm_61 (GPU 0: NVIDIA GeForce GTX 1080)" <<< "$1"' $rc "$out"
out=$(with "${G1080[@]}" ftch 9.10 --cuda-path tk12 --dry-run 2>&1); rc=$?
echo "$out"
check "fetch 9.10 for a GTX 1080: 9.10.2.21 for CUDA 12 (its row lists sm_61)" \
  bash -c '[ $0 -eq 0 ] && grep -q "^cuDNN 9.10 for linux-x86_64: cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz" <<< "$1"' $rc "$out"
out=$(with "${G1080[@]}" ftch 9 --cuda-path tk12 --dry-run 2>&1); rc=$?
echo "$out"
check "fetch 9 for a GTX 1080 on CUDA 12.4: 9.10.2.21; 9.28 (no support row) passed over by the sourced architecture spans" \
  bash -c '[ $0 -eq 0 ] && grep -q "^cuDNN 9 for linux-x86_64: cudnn-linux-x86_64-9.10.2.21_cuda12-archive.tar.xz" <<< "$1" && grep -q "passed   cudnn-linux-x86_64-9.28.1.4_cuda13-archive.tar.xz: for CUDA 13" <<< "$1" && grep -q "passed   cudnn-linux-x86_64-9.28.1.4_cuda12-archive.tar.xz: GPU 0 NVIDIA GeForce GTX 1080: cuDNN 9.28.1 has no code for Maxwell, Pascal and Volta GPUs (compute 6.1): the last release for them is 9.10.2" <<< "$1"' $rc "$out"
out=$(with "${G1080[@]}" FAKE_DRIVER_API=12040 ftch 9.28 --cuda 13 --dry-run --json 2>/dev/null); rc=$?
check "fetch --cuda 13 on a driver that runs CUDA 12.4: nothing fits, the driver named" \
  bash -c '[ $0 -eq 16 ] && grep -q "needs a driver that runs CUDA 13 (>= 580.65.06); this machine.s driver.* runs CUDA up to 12.4" <<< "$1" && grep -q "for CUDA 12; CUDA 13 was asked for" <<< "$1"' $rc "$out"

out=$(FAKE_CC_MAJOR=12 FAKE_CC_MINOR=0 FAKE_GPU_NAME="NVIDIA GeForce RTX 5090" ftch 9.17 --cuda-path tk12 --dry-run --json 2>/dev/null); rc=$?
check "fetch 9.17 for an RTX 5090 on CUDA 12.4: 9.17.0.10 for CUDA 12 (its row lists 12.0)" \
  [ $rc -eq 0 -a "$(field 'd["resolution"]["chosen"]["filename"]' <<< "$out")" = cudnn-linux-x86_64-9.17.0.10_cuda12-archive.tar.xz ]
out=$(FAKE_CC_MAJOR=12 FAKE_CC_MINOR=0 FAKE_GPU_NAME="NVIDIA GeForce RTX 5090" ftch 9.10 --cuda-path tk12 --dry-run --json 2>/dev/null); rc=$?
check "fetch 9.10 for an RTX 5090: nothing fits (no sm_120 in 9.10's row), exit 16" \
  bash -c '[ $0 -eq 16 ] && grep -q "support matrix lists no sm_120 (GPU 0: NVIDIA GeForce RTX 5090)" <<< "$1"' $rc "$out"

out=$(ftch latest --platform windows-x86_64 --dry-run --json 2>/dev/null); rc=$?
check "another platform: its archive, no GPU or toolkit of this host asked" \
  [ $rc -eq 0 -a "$(field 'd["resolution"]["chosen"]["platform"]' <<< "$out")" = windows-x86_64 -a "$(field 'd["resolution"]["machine"]["gpus"]' <<< "$out")" = "[]" ]
out=$(ftch 8 --dry-run --json 2>/dev/null); rc=$?
check "a request the catalog has nothing for: io.not-found, exit 8" bash -c '[ $0 -eq 8 ] && grep -q "has no cuDNN 8 archive" <<< "$1"' $rc "$out"

check "dry runs downloaded nothing" [ "$(ls cache)" = "$NEW.tar.xz" ]
check "dry runs changed no toolkit" [ "$before12" = "$(snap tk12)" -a "$before13" = "$(snap tk13)" ]

out=$(with "${G3090[@]}" FAKE_DRIVER_API=13000 inst latest --cuda-path tk13 --offline --json 2>/dev/null); rc=$?
echo "$out" | head -c 600; echo
check "install latest (offline, from the cache): the chosen archive installed, verified against the catalog" \
  [ $rc -eq 0 -a "$(field 'd["receipt"]["sha256"]' <<< "$out")" = "$NEW_H" -a "$(field 'd["resolution"]["chosen"]["version"]' <<< "$out")" = 9.28.1.4 ]
check "the library is in the toolkit" [ -f tk13/lib64/libcudnn.so.9.28.1 ]

# One run, one look at the machine and one resolution: `-v` logs each catalog resolution of the request
# ("N catalog archives match") and, relayed from each probe child, its command line ("probe child ...:
# cudnnctl X: __probe ..."). install latest asks the driver once (the resolver and the GPU gate share the
# machine) and resolves the catalog once (the installer's fetch takes the resolver's choice); the doctor runs
# one probe child, whose answer is the machine's GPUs and driver.
probes() { grep -cE "probe child \[[^]]*\]: cudnnctl [^ ]*: __probe " <<< "$1"; }
mk_tk tk13b
log=$(with "${G3090[@]}" FAKE_DRIVER_API=13000 "$C" -v install latest --cuda-path tk13b --offline --catalog catalog.json --cache cache \
      --driver-library "$FAKE_CUDA" --no-path 2>&1); rc=$?
echo "$log" | grep -E "catalog archives match|probe child|probe: " | head -20
check "install latest -v (offline): exit 0" [ $rc -eq 0 ]
check "install latest -v: the catalog resolved once (one 'catalog archives match' line)" [ "$(grep -c "catalog archives match cuDNN" <<< "$log")" = 1 ]
check "install latest -v: one probe child" [ "$(probes "$log")" = 1 ]
# the toolkit from the environment (CUDA_PATH, no --cuda-path): the machine surveys it once for the resolver and the install
surveys() { grep -c "machine: the toolkits the environment names" <<< "$1"; }
mk_tk tk13d
log=$(with "${G3090[@]}" FAKE_DRIVER_API=13000 CUDA_PATH="$PWD/tk13d" "$C" -v install latest --offline --catalog catalog.json --cache cache \
      --driver-library "$FAKE_CUDA" --no-path 2>&1); rc=$?
check "install latest -v, the toolkit from CUDA_PATH: exit 0 into it, one toolkit survey, one probe child, one resolution" \
  [ $rc -eq 0 -a -f tk13d/lib64/libcudnn.so.9.28.1 -a "$(surveys "$log")" = 1 -a "$(probes "$log")" = 1 \
    -a "$(grep -c "catalog archives match cuDNN" <<< "$log")" = 1 ]
log=$(with "${G3090[@]}" FAKE_DRIVER_API=13000 "$C" -v doctor --cuda-path tk13b --driver-library "$FAKE_CUDA" 2>&1)
echo "$log" | grep -E "__probe " | head -5
check "doctor -v on the planted machine: one probe child, one toolkit survey" [ "$(probes "$log")" = 1 -a "$(surveys "$log")" = 1 ]
# explain --here on a driver message runs the doctor's driver.version check (its probe loads cuDNN) and the GPU
# findings over one shared machine: the doctor's probe answers both, no driver-only child beside it
# (a toolkit whose cuDNN the probe loads: the fake libraries, so that the probe goes on to the driver)
printf 'RuntimeError: CUDA driver version is insufficient for CUDA runtime version\n' > driver_message.log
mk_tk tk13c; cp "$(dirname "$FAKE_CUDA")"/libcudnn*.so.9 tk13c/lib64/; rm tk13c/lib64/libcudnn_graph_needs_z.so.9
printf '#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n' > tk13c/include/cudnn_version.h
here() { with "${G3090[@]}" FAKE_DRIVER_API=12040 CUDA_PATH="$PWD/$1" LD_LIBRARY_PATH="$PWD/$1/lib64" "$C" -v explain driver_message.log \
         --here --driver-library "$FAKE_CUDA" 2>&1; }
log=$(here tk13c); rc=$?
echo "$log" | grep -E "__probe |  here: " | head -8
# (driver.version's own verdict here is a skip: this machine has no /proc/driver/nvidia/version to read)
check "explain --here -v on a driver message: exit 10, the doctor's driver.version ran, the driver's finding, one probe child" \
  [ $rc -eq 10 -a "$(grep -c "here: doctor driver.version: .*/proc/driver/nvidia/version" <<< "$log")" = 1 \
    -a "$(grep -c "here: the driver runs CUDA up to 12.4" <<< "$log")" = 1 -a "$(probes "$log")" = 1 ]
check "explain --here -v: the toolkits surveyed once (the doctor's, on the shared machine)" [ "$(surveys "$log")" = 1 ]
# and one ld.so cache: the doctor's driver checks and the loader's winner (where --here reads the GPU code) share it
check "explain --here -v on a driver message: the ld.so cache read once for the doctor and the loader" \
  [ "$(grep -c "ld.so cache: read with .*ldconfig -p" <<< "$log")" = 1 ]
# where the doctor's probe cannot load cuDNN (tk13b's libraries are text) it never reaches the driver: the GPU
# findings ask the driver themselves instead of taking that silence for "no driver"
log=$(here tk13b); rc=$?
check "explain --here where cuDNN does not load: the driver still asked (a second, driver-only child), not 'no driver'" \
  [ $rc -eq 10 -a "$(probes "$log")" = 2 -a "$(grep -c "no NVIDIA driver answered" <<< "$log")" = 0 ]
log=$(with "${G3090[@]}" FAKE_DRIVER_API=13000 "$C" -v fetch 9.28 --cuda-path tk13b --offline --catalog catalog.json --cache cache \
      --driver-library "$FAKE_CUDA" 2>&1); rc=$?
check "fetch 9.28 -v (offline, from the cache): exit 0, one resolution, one probe child" \
  [ $rc -eq 0 -a "$(grep -c "catalog archives match cuDNN" <<< "$log")" = 1 -a "$(probes "$log")" = 1 ]
finish

#!/usr/bin/env python3
"""Builds data/cuda-errors.json: every cudaError_t and CUresult name and number of CUDA 11, 12 and 13.

    tools/build_cuda_errors.py [--wheels DIR] [--out FILE] [--check] [--fetch]

The names and numbers are read from NVIDIA's own headers in the nvidia-cuda-runtime wheels on PyPI
(driver_types.h: enum cudaError, cuda.h: enum cudaError_enum), one wheel per CUDA major, pinned in WHEELS
below with their SHA-256. The wheels are looked for in --wheels (default ~/.cache/cudnnctl/wheels); fetch
them with

    pip download --no-deps --only-binary=:all: --platform manylinux2014_x86_64 -d DIR \\
        nvidia-cuda-runtime-cu11==11.8.89 nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-runtime==13.5.37

What a number means for a set-up is this project's knowledge and lives in MEANINGS below: the signature of
data/failure-signatures.json a message carrying only that error names, or the kind of trouble it is when it is
not a set-up problem. A `says` phrase is the text cudaGetErrorString returns for the error; each is checked
against the bytes of the wheels' libcudart, so a phrase that is not NVIDIA's own fails the build of the table.

(or pass --fetch, which runs that pip download for the wheels missing from --wheels). Every wheel's SHA-256 must
be the pinned one.

--check builds the table and compares it with --out (exit 1 when they differ; exit 77, skipped, when a wheel
is missing), so a hand edit of the generated file is noticed.
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DEFAULT_OUT = os.path.join(ROOT, "data", "cuda-errors.json")
DEFAULT_WHEELS = os.path.join(os.path.expanduser("~"), ".cache", "cudnnctl", "wheels")
SKIP = 77

# One wheel per CUDA major: (major, project, version, file name, sha256 of the wheel as PyPI serves it).
WHEELS = [
    ("11", "nvidia-cuda-runtime-cu11", "11.8.89", "nvidia_cuda_runtime_cu11-11.8.89-py3-none-manylinux2014_x86_64.whl",
     "92d04069a987e1fbc9213f8376d265df0f7bb42617d44f5eda1f496acea7f2d1"),
    ("12", "nvidia-cuda-runtime-cu12", "12.9.79",
     "nvidia_cuda_runtime_cu12-12.9.79-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", "25bba2dfb01d48a9b59ca474a1ac43c6ebf7011f1b0b8cc44f54eb6ac48a96c3"),
    ("13", "nvidia-cuda-runtime", "13.5.37", "nvidia_cuda_runtime-13.5.37-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl",
     "df2b79a8852f10d1fef8c848489c49eebb5754051bf870202a862831412b179d"),
]

# kind: setup (a signature names the set-up cause), kernel (a kernel of the program faulted), memory (out of
# memory), program (the program's own call or configuration), unknown (the error alone does not tell).
# Keyed by the runtime name; DRIVER_OF maps the CUresult names that mean the same.
MEANINGS = {
    "cudaErrorMemoryAllocation": ("memory", "workload.out-of-memory", "out of memory",
                                  "the GPU is out of memory: not a set-up problem"),
    "cudaErrorInitializationError": ("unknown", "", "initialization error",
                                     "the CUDA driver and runtime could not be initialised; most often CUDA used in a forked child, "
                                     "else a driver that does not initialise"),
    "cudaErrorInsufficientDriver": ("setup", "driver.version", "CUDA driver version is insufficient for CUDA runtime version",
                                    "the installed driver is older than the CUDA runtime the program uses"),
    "cudaErrorCallRequiresNewerDriver": ("setup", "driver.version", "API call is not supported in the installed CUDA driver",
                                         "the program calls a function the installed driver is too old to have"),
    "cudaErrorStubLibrary": ("setup", "driver.stub", "CUDA driver is a stub library",
                             "the libcuda loaded is the toolkit's stub (lib64/stubs), not the driver"),
    "cudaErrorNoDevice": ("setup", "driver.no-device", "no CUDA-capable device is detected",
                          "the driver sees no GPU (none visible to this process, or the driver is not loaded)"),
    "cudaErrorInvalidDevice": ("program", "", "invalid device ordinal",
                               "the program asked for a GPU number this process does not have: not a set-up problem"),
    "cudaErrorDeviceNotLicensed": ("setup", "driver.init", "device doesn't have valid Grid license",
                                   "a vGPU without a valid GRID licence"),
    "cudaErrorNoKernelImageForDevice": ("setup", "device.arch.program-build", "no kernel image is available for execution on the device",
                                        "the program's GPU code has no build for this GPU's architecture"),
    "cudaErrorUnsupportedPtxVersion": ("setup", "driver.version", "the provided PTX was compiled with an unsupported toolchain",
                                       "the PTX comes from a newer CUDA toolchain than the driver can compile: update the driver"),
    "cudaErrorJitCompilerNotFound": ("setup", "driver.init", "PTX JIT compiler library not found",
                                     "the driver's PTX JIT compiler (libnvidia-ptxjitcompiler) is missing"),
    "cudaErrorSystemNotReady": ("setup", "driver.fabric-manager", "system not yet initialized",
                                "on NVSwitch systems the fabric manager is not running (or not of the driver's version)"),
    "cudaErrorSystemDriverMismatch": ("setup", "driver.compat-shadows", "system has unsupported display driver / cuda driver combination",
                                      "the libcuda loaded does not match the kernel driver: a cuda-compat libcuda or a stale copy "
                                      "comes first on the loader path"),
    "cudaErrorCompatNotSupportedOnDevice": ("setup", "driver.version", "forward compatibility was attempted on non supported HW",
                                            "the CUDA in use is newer than the driver and this GPU cannot use the forward-compatibility "
                                            "libcuda: update the driver"),
    "cudaErrorFabricNotReady": ("setup", "driver.fabric-manager", "",
                                "the GPU fabric is not ready: the fabric manager has not finished (or is not running)"),
    "cudaErrorMpsConnectionFailed": ("setup", "driver.init", "MPS client failed to connect to the MPS control daemon or the MPS server",
                                     "the MPS control daemon is not running or not reachable"),
    "cudaErrorMpsRpcFailure": ("setup", "driver.init", "the remote procedural call between the MPS server and the MPS client failed",
                               "the MPS server failed"),
    "cudaErrorMpsServerNotReady": ("setup", "driver.init", "MPS server is not ready to accept new MPS client requests",
                                   "the MPS server is starting or failed"),
    "cudaErrorNotSupported": ("unknown", "", "operation not supported",
                              "the operation is not supported on this system or device (WSL, the GPU or the driver lacks it)"),
    "cudaErrorNotPermitted": ("program", "", "operation not permitted", "the operation is not allowed here: not a set-up problem"),
    "cudaErrorDevicesUnavailable": ("program", "", "CUDA-capable device(s) is/are busy or unavailable",
                                    "the GPU is in exclusive or prohibited compute mode, or taken by another process"),
    "cudaErrorIllegalAddress": ("kernel", "workload.kernel-fault", "an illegal memory access was encountered",
                                "a kernel read or wrote an address it may not: a program or kernel bug, not a set-up problem"),
    "cudaErrorAssert": ("kernel", "workload.kernel-fault", "device-side assert triggered",
                        "a kernel's assertion failed (an index out of range, a bad label): not a set-up problem"),
    "cudaErrorLaunchFailure": ("kernel", "workload.kernel-fault", "unspecified launch failure",
                               "a kernel faulted while it ran: not a set-up problem (a hardware fault if it recurs everywhere)"),
    "cudaErrorIllegalInstruction": ("kernel", "workload.kernel-fault", "an illegal instruction was encountered",
                                    "a kernel ran an illegal instruction: not a set-up problem"),
    "cudaErrorMisalignedAddress": ("kernel", "workload.kernel-fault", "misaligned address",
                                   "a kernel used a misaligned address: not a set-up problem"),
    "cudaErrorHardwareStackError": ("kernel", "workload.kernel-fault", "hardware stack error",
                                    "a kernel overflowed its stack: not a set-up problem"),
    "cudaErrorLaunchTimeout": ("kernel", "workload.kernel-fault", "the launch timed out and was terminated",
                               "a kernel ran longer than the display watchdog allows: not a set-up problem"),
    "cudaErrorLaunchOutOfResources": ("program", "", "too many resources requested for launch",
                                      "a kernel launch asked for more registers or threads than the GPU has: not a set-up problem"),
    "cudaErrorInvalidValue": ("program", "", "invalid argument", "a CUDA call got an invalid argument: not a set-up problem"),
    "cudaErrorUnknown": ("setup", "driver.init", "unknown error",
                         "the driver failed in a way it does not name; most often after a suspend (reload nvidia_uvm) or a driver "
                         "update without a reboot"),
}

# CUresult names whose meaning is the runtime error's (the driver API spells them differently).
DRIVER_OF = {
    "CUDA_ERROR_OUT_OF_MEMORY": "cudaErrorMemoryAllocation",
    "CUDA_ERROR_NOT_INITIALIZED": "cudaErrorInitializationError",
    "CUDA_ERROR_STUB_LIBRARY": "cudaErrorStubLibrary",
    "CUDA_ERROR_NO_DEVICE": "cudaErrorNoDevice",
    "CUDA_ERROR_INVALID_DEVICE": "cudaErrorInvalidDevice",
    "CUDA_ERROR_DEVICE_NOT_LICENSED": "cudaErrorDeviceNotLicensed",
    "CUDA_ERROR_NO_BINARY_FOR_GPU": "cudaErrorNoKernelImageForDevice",
    "CUDA_ERROR_UNSUPPORTED_PTX_VERSION": "cudaErrorUnsupportedPtxVersion",
    "CUDA_ERROR_JIT_COMPILER_NOT_FOUND": "cudaErrorJitCompilerNotFound",
    "CUDA_ERROR_SYSTEM_NOT_READY": "cudaErrorSystemNotReady",
    "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH": "cudaErrorSystemDriverMismatch",
    "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE": "cudaErrorCompatNotSupportedOnDevice",
    "CUDA_ERROR_FABRIC_NOT_READY": "cudaErrorFabricNotReady",
    "CUDA_ERROR_MPS_CONNECTION_FAILED": "cudaErrorMpsConnectionFailed",
    "CUDA_ERROR_MPS_RPC_FAILURE": "cudaErrorMpsRpcFailure",
    "CUDA_ERROR_MPS_SERVER_NOT_READY": "cudaErrorMpsServerNotReady",
    "CUDA_ERROR_NOT_SUPPORTED": "cudaErrorNotSupported",
    "CUDA_ERROR_NOT_PERMITTED": "cudaErrorNotPermitted",
    "CUDA_ERROR_ILLEGAL_ADDRESS": "cudaErrorIllegalAddress",
    "CUDA_ERROR_ASSERT": "cudaErrorAssert",
    "CUDA_ERROR_LAUNCH_FAILED": "cudaErrorLaunchFailure",
    "CUDA_ERROR_ILLEGAL_INSTRUCTION": "cudaErrorIllegalInstruction",
    "CUDA_ERROR_MISALIGNED_ADDRESS": "cudaErrorMisalignedAddress",
    "CUDA_ERROR_HARDWARE_STACK_ERROR": "cudaErrorHardwareStackError",
    "CUDA_ERROR_LAUNCH_TIMEOUT": "cudaErrorLaunchTimeout",
    "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES": "cudaErrorLaunchOutOfResources",
    "CUDA_ERROR_INVALID_VALUE": "cudaErrorInvalidValue",
    "CUDA_ERROR_UNKNOWN": "cudaErrorUnknown",
}

NOT_SETUP = "not a set-up problem"


def sha256_of(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def enum_entries(text, opening):
    """[(name, number, first sentence of its comment)] of the enum whose body follows `opening`."""
    start = text.find(opening)
    if start < 0:
        raise SystemExit(f"no '{opening}' in the header")
    body = text[text.index("{", start) + 1:text.index("}", start)]
    out, comment = [], ""
    for m in re.finditer(r"/\*\*(.*?)\*/|,?\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(-?(?:0x[0-9A-Fa-f]+|[0-9]+))", body, re.S):
        if m.group(1) is not None:
            words = " ".join(w.strip(" *") for w in m.group(1).splitlines()).split()
            text_ = " ".join(words)
            comment = re.split(r"(?<=\.)\s", text_, maxsplit=1)[0] if text_ else ""
            continue
        out.append((m.group(2), int(m.group(3), 0), comment))
        comment = ""
    return out


def read_wheel(path):
    """(runtime entries, driver entries, libcudart bytes, header member names) of one wheel."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        runtime_h = next(n for n in names if n.endswith("/include/driver_types.h"))
        driver_h = next(n for n in names if n.endswith("/include/cuda.h"))
        cudart = next(n for n in names if re.search(r"/lib/libcudart\.so\.[0-9.]+$", n))
        runtime = enum_entries(z.read(runtime_h).decode("utf-8", "replace"), "enum __device_builtin__ cudaError\n")
        driver = enum_entries(z.read(driver_h).decode("utf-8", "replace"), "typedef enum cudaError_enum")
        return runtime, driver, z.read(cudart), [runtime_h, driver_h, cudart]


def build(wheels_dir):
    sources, tables, cudart = [], {}, {}
    for major, project, version, file_name, _ in WHEELS:
        path = os.path.join(wheels_dir, file_name)
        if not os.path.isfile(path):
            print(f"build_cuda_errors: {path} is missing; fetch it with pip download (see --help)", file=sys.stderr)
            sys.exit(SKIP)
        runtime, driver, lib, members = read_wheel(path)
        tables[major] = (runtime, driver)
        cudart[major] = lib
        sources.append({"cuda": major, "wheel": project, "version": version, "file": file_name, "sha256": sha256_of(path),
                        "read": members})
    rows = []
    for api, index in (("runtime", 0), ("driver", 1)):
        order, codes, docs = [], {}, {}
        for major, _, _, _, _ in WHEELS:
            for name, number, doc in tables[major][index]:
                if name not in codes:
                    order.append(name)
                    codes[name] = {}
                codes[name][major] = number
                if doc:
                    docs[name] = doc
        for name in order:
            if name in ("cudaSuccess", "CUDA_SUCCESS"):
                continue
            key = DRIVER_OF.get(name, name) if api == "driver" else name
            kind, signature, says, meaning = MEANINGS.get(key, ("unknown", "", "", ""))
            if not meaning:
                meaning = NOT_SETUP if kind != "unknown" else "no set-up meaning: the error alone does not tell"
            row = {"name": name, "api": api, "codes": {m: codes[name].get(m) for m, *_ in WHEELS}, "kind": kind}
            if signature:
                row["signature"] = signature
            row["meaning"] = meaning
            if says:
                row["says"] = says
            if docs.get(name):
                row["header"] = docs[name]
            rows.append(row)
    missing = sorted(set(MEANINGS) - {r["name"] for r in rows}) + sorted(set(DRIVER_OF) - {r["name"] for r in rows})
    if missing:
        raise SystemExit(f"build_cuda_errors: MEANINGS/DRIVER_OF name errors no header has: {missing}")
    for key, (_, _, says, _) in MEANINGS.items():
        if says and not any(says.encode() in lib for lib in cudart.values()):
            raise SystemExit(f"build_cuda_errors: '{says}' ({key}) is in no libcudart of the wheels: not NVIDIA's text")
    return {
        "schema": 1,
        "about": ("Every cudaError_t (runtime API) and CUresult (driver API) name of CUDA 11, 12 and 13 with its number in each "
                  "major (null: that major has no such name), read from driver_types.h and cuda.h of the wheels in `sources`; "
                  "`kind`, `signature` and `meaning` are what the error says about a set-up (setup: the signature of "
                  "data/failure-signatures.json it names; kernel, memory, program: not a set-up problem; unknown: the error "
                  "alone does not tell); `says` is cudaGetErrorString's text, found in the wheels' libcudart; `header` is "
                  "the first sentence of NVIDIA's comment. Generated by tools/build_cuda_errors.py: do not edit by hand."),
        "sources": sources,
        "errors": rows,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", default=DEFAULT_WHEELS)
    ap.add_argument("--out", default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--fetch", action="store_true", help="pip download the pinned wheels missing from --wheels")
    args = ap.parse_args()
    if args.fetch:
        os.makedirs(args.wheels, exist_ok=True)
        missing = [f"{project}=={version}" for _, project, version, file_name, _ in WHEELS
                   if not os.path.isfile(os.path.join(args.wheels, file_name))]
        if missing:
            subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                            "--platform", "manylinux2014_x86_64", "--python-version", "3.11", "-d", args.wheels, *missing],
                           check=True)
    table = build(args.wheels)
    for src, (_, _, _, _, want) in zip(table["sources"], WHEELS):
        if not want.startswith("SHA256_") and src["sha256"] != want:
            raise SystemExit(f"build_cuda_errors: {src['file']} has SHA-256 {src['sha256']}, not the pinned {want}")
    text = json.dumps(table, indent=1, ensure_ascii=False) + "\n"
    if args.check:
        with open(args.out, encoding="utf-8") as f:
            if f.read() != text:
                print(f"build_cuda_errors: {args.out} differs from what the wheels' headers give; run tools/build_cuda_errors.py",
                      file=sys.stderr)
                return 1
        print(f"build_cuda_errors: {args.out} matches the headers ({len(table['errors'])} errors)")
        return 0
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"build_cuda_errors: wrote {args.out} ({len(table['errors'])} errors)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

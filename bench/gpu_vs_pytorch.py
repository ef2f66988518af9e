#!/usr/bin/env python3
"""The same ResNet-50 convolution layers as `cudnnctl bench`, timed in PyTorch in the same run, and the
side-by-side table (TFLOP/s, ratio, % of the H200's dense peak) for bench/RESULTS.md.

    gpu_vs_pytorch.py --pytorch                              # time PyTorch: one JSON line a layer on stdout
    gpu_vs_pytorch.py --ours bench.jsonl [--theirs pytorch.jsonl] [--doctor doctor.json]   # the table
    gpu_vs_pytorch.py --check-shapes bench.json              # our layer table against cudnnctl's (by FLOPs)
    gpu_vs_pytorch.py --self-test

cudnnctl's side is read from `cudnnctl bench --json` (one document) or from the JSON lines of
`cudnnctl __workload` (bench/gpu_vs_pytorch.sh streams those); either may be partial or missing, and the
table says what is missing. PyTorch's lines are written as each layer finishes, so a run cut short
keeps the layers it timed; a layer that fails is a line with its error, and the next layer still runs.

PyTorch is timed the way users run it: torch.backends.cudnn.benchmark = True (cuDNN's own timing picks the
algorithm, as `cudnnctl bench` does with cudnnFindConvolutionForwardAlgorithmEx), fp16 in channels_last
(NHWC) and fp32 in NCHW with TF32 off (cudnnctl's fp32 layers use CUDNN_FMA_MATH: plain fp32), random
inputs, CUDA events around 20 calls, three repeats, the median per call. Before the first timed layer the
GPU runs that layer's convolution for WARMUP_S seconds, so its clocks are up (an idle H200 sits at 345 MHz).
The fused rows time relu(conv2d(x, w, b)) in PyTorch eager mode (three kernels) against cudnnctl's fused graph.
"""
import argparse
import json
import os
import statistics
import sys
import time

# N = 64, MLPerf ResNet-50 v1.5 shapes: name, C, H, W, K, R, S, stride, pad (the same as src/workload/conv_workload.cpp)
N = 64
LAYERS = [
    ("conv1 stem 7x7", 3, 224, 224, 64, 7, 7, 2, 3),
    ("res2 3x3", 64, 56, 56, 64, 3, 3, 1, 1),
    ("res4 3x3", 256, 14, 14, 256, 3, 3, 1, 1),
    ("res5 3x3", 512, 7, 7, 512, 3, 3, 1, 1),
    ("res3 1x1 expand", 128, 28, 28, 512, 1, 1, 1, 0),
    ("res3 3x3", 128, 28, 28, 128, 3, 3, 1, 1),
    ("res4 1x1 reduce", 1024, 14, 14, 256, 1, 1, 1, 0),
]
H200_FP16_DENSE = 989.0  # TFLOP/s, NVIDIA H200 SXM datasheet (dense), as in src/workload/conv_workload.cpp
H200_FP32 = 67.0
WARMUP_S = 0.3


def flops(layer):
    _, c, h, w, k, r, s, stride, pad = layer
    p = (h + 2 * pad - r) // stride + 1
    q = (w + 2 * pad - s) // stride + 1
    return 2.0 * N * k * p * q * c * r * s


def by_name():
    return {l[0]: l for l in LAYERS}


def check_shapes(ours):
    """Every layer cudnnctl timed must be ours with the same FLOPs (tflops x time gives them back)."""
    problems = []
    table = by_name()
    for l in ours.get("layers", []):
        if l.get("error") or not l.get("median_ms"):
            continue
        if l["layer"] not in table:
            problems.append(f"{l['layer']}: not in this script's layer table")
            continue
        theirs = l["tflops"] * 1e12 * l["median_ms"] / 1e3
        mine = flops(table[l["layer"]])
        if abs(theirs / mine - 1) > 1e-6:
            problems.append(f"{l['layer']}: cudnnctl counts {theirs:.6g} FLOPs, this script {mine:.6g}")
    return problems


def time_pytorch(emit, repeats=3, calls=20, warmups=3):
    """Times every layer, calling emit(dict) once for the versions and once per layer (or its error)."""
    import torch
    import torch.nn.functional as F

    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(0)
    warm = {"done": False}

    def timed(fn):
        for _ in range(warmups):
            fn()
        torch.cuda.synchronize()
        if not warm["done"]:  # clocks up before the first timed layer: a time, not a count
            until = time.perf_counter() + WARMUP_S
            while time.perf_counter() < until:
                for _ in range(10):
                    fn()
                torch.cuda.synchronize()
            warm["done"] = True
        per_call = []
        for _ in range(repeats):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(calls):
                fn()
            e1.record()
            e1.synchronize()
            per_call.append(e0.elapsed_time(e1) / calls)
        if min(per_call) <= 0:
            raise RuntimeError(f"CUDA events measured {min(per_call)} ms")
        return statistics.median(per_call), min(per_call)

    emit({"kind": "meta", "torch": torch.__version__, "cudnn": torch.backends.cudnn.version(),
          "device": torch.cuda.get_device_name(0)})
    for layer in LAYERS:
        name, c, h, w, k, r, s, stride, pad = layer
        for precision in ("fp16 NHWC", "fp32 NCHW"):
            try:
                dtype = torch.float16 if precision.startswith("fp16") else torch.float32
                fmt = torch.channels_last if precision.startswith("fp16") else torch.contiguous_format
                x = torch.randn(N, c, h, w, device=dev, dtype=dtype, generator=gen).to(memory_format=fmt)
                wt = torch.randn(k, c, r, s, device=dev, dtype=dtype, generator=gen).to(memory_format=fmt)
                med, best = timed(lambda: F.conv2d(x, wt, stride=stride, padding=pad))
                emit({"kind": "layer", "layer": name, "precision": precision, "median_ms": med, "min_ms": best,
                      "tflops": flops(layer) / (med / 1e3) / 1e12})
                if precision.startswith("fp16") and c % 8 == 0:
                    b = torch.randn(k, device=dev, dtype=dtype, generator=gen)
                    med, best = timed(lambda: F.relu(F.conv2d(x, wt, b, stride=stride, padding=pad)))
                    emit({"kind": "fused", "layer": name, "median_ms": med, "min_ms": best})
                del x, wt
            except Exception as e:  # one layer's failure is recorded; the others still run
                emit({"kind": "error", "layer": name, "precision": precision, "error": f"{type(e).__name__}: {e}"})


def read_lines(path):
    out = []
    try:
        with open(path) as f:
            for line in f:
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass  # a line cut short by a time limit
    except OSError:
        pass
    return out


def load_ours(path):
    """cudnnctl's results from `bench --json` or from `__workload` JSON lines; None when there are none."""
    if not path or not os.path.exists(path) or not os.path.getsize(path):
        return None
    if not path.endswith(".jsonl"):
        try:
            return json.load(open(path))
        except ValueError:
            return None
    ours = {"layers": [], "fused": None, "error": None, "completed": False}
    for j in read_lines(path):
        step = j.get("step")
        if step == "device":
            ours["device"] = j.get("name")
        elif step == "correctness":
            ours["correctness"] = {"ok": j.get("ok"), "max_error": j.get("max_error")}
        elif step == "layer":
            ours["layers"].append(j["result"])
        elif step == "fused":
            ours["fused"] = j["result"]
        elif step == "error":
            ours["error"] = j.get("error")
        elif step == "done":
            ours["completed"] = True
    return ours


def load_theirs(path):
    """PyTorch's lines as one document; None when there are none."""
    lines = read_lines(path) if path else []
    if not lines:
        return None
    theirs = {"torch": "?", "cudnn": "?", "device": "?", "layers": [], "fused": [], "errors": []}
    for j in lines:
        kind = j.pop("kind", None)
        if kind == "meta":
            theirs.update(j)
        elif kind == "layer":
            theirs["layers"].append(j)
        elif kind == "fused":
            theirs["fused"].append(j)
        elif kind == "error":
            theirs["errors"].append(j)
    return theirs


def pct(v, peak):
    return f"{100 * v / peak:.0f}%"


def markdown(ours, theirs, doctor=None):
    ours = ours or {"layers": [], "error": "cudnnctl's side printed nothing (see run.log)"}
    rows = ["| layer | precision | cudnnctl algorithm | cudnnctl TFLOP/s | PyTorch TFLOP/s | ratio | cudnnctl % of H200 peak | "
            "PyTorch % of H200 peak |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    mine = {(l["layer"], l["precision"]): l for l in (theirs or {}).get("layers", [])}
    ratios = []
    for l in ours.get("layers", []):
        peak = H200_FP16_DENSE if l["precision"].startswith("fp16") else H200_FP32
        t = mine.get((l["layer"], l["precision"]))
        if l.get("error"):
            rows.append(f"| {l['layer']} | {l['precision']} | FAILED: {l['error']} | | | | | |")
            continue
        ratio = l["tflops"] / t["tflops"] if t and t.get("tflops", 0) > 0 else None
        if ratio is not None:
            ratios.append((ratio, l["layer"], l["precision"]))
        rows.append(f"| {l['layer']} | {l['precision']} | {l['algo']} | {l['tflops']:.1f} | "
                    f"{t['tflops']:.1f} | {ratio:.2f} | {pct(l['tflops'], peak)} | {pct(t['tflops'], peak)} |" if t else
                    f"| {l['layer']} | {l['precision']} | {l['algo']} | {l['tflops']:.1f} | - | - | {pct(l['tflops'], peak)} | - |")
    text = "\n".join(rows) + "\n\n% of peak: of 989 TFLOP/s (H200 dense fp16) for fp16 rows, of 67 TFLOP/s (fp32) for fp32 rows.\n"
    fused = (ours.get("fused") or {})
    if fused:
        torch_fused = {f["layer"]: f for f in (theirs or {}).get("fused", [])}
        text += ("\n| layer (fp16 NHWC) | cudnnctl fused ms | cudnnctl unfused ms | fused speed-up | PyTorch relu(conv2d(x, w, b)) ms | "
                 "fused vs PyTorch |\n| --- | --- | --- | --- | --- | --- |\n")
        if fused.get("error"):
            text += f"| all | not run: {fused['error']} | | | | |\n"
        for f in fused.get("layers", []):
            if f.get("error"):
                text += f"| {f['layer']} | FAILED: {f['error']} | | | | |\n"
                continue
            t = torch_fused.get(f["layer"])
            text += (f"| {f['layer']} | {f['fused_ms']:.4f} | {f['unfused_ms']:.4f} | {f['speedup']:.2f}x | "
                     + (f"{t['median_ms']:.4f} | {t['median_ms'] / f['fused_ms']:.2f}x |" if t and f.get("fused_ms") else "- | - |")
                     + "\n")
        c = fused.get("correctness", {})
        text += f"\nFused correctness against the CPU reference: {'ok' if c.get('ok') else 'WRONG'} (max error {c.get('max_error', 0):.2g}).\n"
    if ratios:
        worst = min(ratios)
        met = sum(1 for r in ratios if r[0] >= 1.0)
        text += (f"\n{met} of {len(ratios)} layer/precision pairs at or above 1.0x PyTorch; the lowest is {worst[1]} {worst[2]} "
                 f"at {worst[0]:.2f}x.\n")
    if ours.get("error"):
        text += f"\ncudnnctl's side stopped: {ours['error']}\n"
    if ours.get("completed") is False:
        text += "\ncudnnctl's side did not finish (a time limit or a crash): the rows above are what it printed.\n"
    if theirs:
        text += f"\nPyTorch {theirs['torch']} with cuDNN {theirs['cudnn']} on {theirs['device']}; cudnnctl on {ours.get('device')}.\n"
        for e in theirs.get("errors", []):
            text += f"\nPyTorch failed on {e['layer']} {e['precision']}: {e['error']}\n"
    else:
        text += "\nNo PyTorch numbers in this run.\n"
    if doctor:
        text += f"\n`cudnnctl doctor --json` exit code {doctor.get('exit_code')}: {json.dumps(doctor.get('counts'))}.\n"
    return text


def self_test():
    def ours_layer(layer, precision, ms, algo="IMPLICIT_PRECOMP_GEMM"):
        return {"layer": layer[0], "precision": precision, "algo": algo, "median_ms": ms, "tflops": flops(layer) / (ms / 1e3) / 1e12,
                "error": None}
    l2, l4 = LAYERS[1], LAYERS[2]
    ours = {"device": "NVIDIA H200", "layers": [ours_layer(l2, "fp16 NHWC", 0.10), ours_layer(l4, "fp32 NCHW", 1.0)],
            "fused": {"correctness": {"ok": True, "max_error": 0.0}, "error": "",
                      "layers": [{"layer": l2[0], "fused_ms": 0.1, "unfused_ms": 0.15, "speedup": 1.5, "error": ""}]}}
    theirs = {"torch": "2.x", "cudnn": 91900, "device": "NVIDIA H200",
              "layers": [{"layer": l2[0], "precision": "fp16 NHWC", "tflops": flops(l2) / (0.12 / 1e3) / 1e12},
                         {"layer": l4[0], "precision": "fp32 NCHW", "tflops": flops(l4) / (0.8 / 1e3) / 1e12}],
              "fused": [{"layer": l2[0], "median_ms": 0.2}]}
    text = markdown(ours, theirs)
    assert "| res2 3x3 | fp16 NHWC | IMPLICIT_PRECOMP_GEMM |" in text, text
    assert "| 1.20 |" in text, text           # 0.12 ms against 0.10 ms
    assert "| 0.80 |" in text, text           # 0.8 ms against 1.0 ms
    assert "| 1.50x | 0.2000 | 2.00x |" in text, text
    assert "1 of 2 layer/precision pairs at or above 1.0x PyTorch; the lowest is res4 3x3 fp32 NCHW at 0.80x" in text, text
    assert f"{100 * flops(l2) / 1e-4 / 1e12 / H200_FP16_DENSE:.0f}%" in text
    assert check_shapes(ours) == []
    bad = json.loads(json.dumps(ours))
    bad["layers"][0]["tflops"] *= 2
    assert check_shapes(bad) and "res2 3x3" in check_shapes(bad)[0]
    only = markdown(ours, None)
    assert "| - | - |" in only and "No PyTorch numbers" in only
    # cudnnctl's side missing or failed: PyTorch's numbers still make a table, nothing divides by zero
    assert "printed nothing" in markdown(None, theirs)
    assert "stopped: no GPU" in markdown({"error": "no GPU", "layers": []}, theirs)
    zero = json.loads(json.dumps(ours))
    zero["fused"]["layers"][0]["fused_ms"] = 0
    assert "| - | - |" in markdown(zero, theirs)
    # JSON lines cut short: what was printed is read, the half line is skipped
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "bench.jsonl")
        with open(path, "w") as f:
            f.write(json.dumps({"step": "device", "name": "NVIDIA H200"}) + "\n")
            f.write(json.dumps({"step": "layer", "result": ours["layers"][0]}) + "\n")
            f.write('{"step": "layer", "resu')
        partial = load_ours(path)
        assert partial["device"] == "NVIDIA H200" and len(partial["layers"]) == 1 and not partial["completed"]
        assert "did not finish" in markdown(partial, None)
        tpath = os.path.join(d, "pytorch.jsonl")
        with open(tpath, "w") as f:
            f.write(json.dumps({"kind": "meta", "torch": "2.x", "cudnn": 91900, "device": "NVIDIA H200"}) + "\n")
            f.write(json.dumps({"kind": "layer", **theirs["layers"][0]}) + "\n")
            f.write(json.dumps({"kind": "error", "layer": "res4 3x3", "precision": "fp32 NCHW", "error": "OOM"}) + "\n")
        t = load_theirs(tpath)
        assert t["torch"] == "2.x" and len(t["layers"]) == 1
        assert "PyTorch failed on res4 3x3 fp32 NCHW: OOM" in markdown(partial, t)
    print("self-test ok")
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pytorch", action="store_true", help="time PyTorch, one JSON line a layer on stdout")
    ap.add_argument("--ours")
    ap.add_argument("--theirs")
    ap.add_argument("--doctor")
    ap.add_argument("--check-shapes")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if args.pytorch:
        def emit(j):
            print(json.dumps(j), flush=True)
        time_pytorch(emit)
        return 0
    if args.check_shapes:
        problems = check_shapes(load_ours(args.check_shapes) or {})
        for p in problems:
            print("FAIL", p)
        print("shapes match cudnnctl's" if not problems else "shape tables differ")
        return 1 if problems else 0
    ours = load_ours(args.ours)
    problems = check_shapes(ours or {})
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    doctor = None
    if args.doctor and os.path.exists(args.doctor) and os.path.getsize(args.doctor):
        try:
            doctor = json.load(open(args.doctor))
        except ValueError:
            doctor = None
    print(markdown(ours, load_theirs(args.theirs), doctor))
    return 0


if __name__ == "__main__":
    sys.exit(main())

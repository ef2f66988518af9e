#include "cudnnctl/workload/fused_conv.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "cudnnctl/gpu/half.hpp"
#include "cudnnctl/gpu/status_names.hpp"
#include "fused_graph.hpp"
#include "step_failure.hpp"

namespace cudnnctl {

using namespace abi;


namespace {

// between NCHW and NHWC order, converting each element on the way
template <class To, class From, class Convert>
std::vector<To> relayout(const std::vector<From>& in, int n, int c, int h, int w, bool to_nhwc, Convert convert) {
  std::vector<To> out(in.size());
  for (int a = 0; a < n; ++a)
    for (int ch = 0; ch < c; ++ch)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const std::size_t nchw = ((static_cast<std::size_t>(a) * c + ch) * h + y) * w + x;
          const std::size_t nhwc = ((static_cast<std::size_t>(a) * h + y) * w + x) * c + ch;
          out[to_nhwc ? nhwc : nchw] = convert(in[to_nhwc ? nchw : nhwc]);
        }
  return out;
}

// where one fused layer runs, and how
struct FusedContext {
  const Api& api;
  const GraphTarget& target;
  CUstream stream;
  unsigned major;
  const FusedRun& run;
};


FusedLayerResult failed(FusedLayerResult r, StepFailure f) {
  r.status = f.status;
  r.error = std::move(f.error);
  return r;
}

// element counts of the layer's tensors (fp16: two bytes each)
struct FusedSizes {
  std::size_t x, w, bias, y;
  explicit FusedSizes(const ConvShape& s)
      : x(static_cast<std::size_t>(s.n) * s.c * s.h * s.w), w(static_cast<std::size_t>(s.k) * s.c * s.r * s.s),
        bias(static_cast<std::size_t>(s.k)), y(static_cast<std::size_t>(s.n) * s.k * s.p() * s.q()) {}
};

// the layer's GPU buffers; `workspace` is 0 when no plan needs one
struct FusedBuffers {
  CUdeviceptr x = 0, w = 0, bias = 0, y = 0, workspace = 0;
};

Expected<FusedBuffers, StepFailure> allocate(Buffers& buf, const FusedSizes& n, const std::vector<fused::Plan>& plans) {
  std::int64_t ws_max = 0;
  for (const auto& p : plans) ws_max = std::max(ws_max, p.workspace);
  int cu = 0;
  const auto x = buf.alloc(n.x * 2, cu);
  const auto w = x ? buf.alloc(n.w * 2, cu) : std::nullopt;
  const auto bias = w ? buf.alloc(n.bias * 2, cu) : std::nullopt;
  const auto y = bias ? buf.alloc(n.y * 2, cu) : std::nullopt;
  const auto ws = y && ws_max > 0 ? buf.alloc(static_cast<std::size_t>(ws_max), cu) : std::optional<CUdeviceptr>{0};
  if (!y || !ws)
    return Unexpected<StepFailure>(driver_failure(fmt::format("allocating GPU memory for the fused layer failed: {}", cu_result_name(cu))));
  return FusedBuffers{*x, *w, *bias, *y, *ws};
}

// the check's inputs (NHWC halves), or pseudo-random inputs for timing
CUresult upload_inputs(const FusedContext& cx, const FusedBuffers& d, const ConvShape& s, ConvCheckData* check) {
  const auto& api = cx.api;
  if (!check) {
    const FusedSizes n(s);
    CUresult cu = upload_pattern(api, cx.stream, d.x, n.x, true, 1);
    if (cu == 0) cu = upload_pattern(api, cx.stream, d.w, n.w, true, 2);
    if (cu == 0) cu = upload_pattern(api, cx.stream, d.bias, n.bias, true, 3);
    return cu;
  }
  const auto hx = relayout<std::uint16_t>(check->x, s.n, s.c, s.h, s.w, true, float_to_half);
  const auto hw = relayout<std::uint16_t>(check->w, s.k, s.c, s.r, s.s, true, float_to_half);
  std::vector<std::uint16_t> hb;
  for (float v : check->bias) hb.push_back(float_to_half(v));
  CUresult cu = upload(api, cx.stream, d.x, hx.data(), hx.size() * 2);
  if (cu == 0) cu = upload(api, cx.stream, d.w, hw.data(), hw.size() * 2);
  if (cu == 0) cu = upload(api, cx.stream, d.bias, hb.data(), hb.size() * 2);
  return cu;
}

// the variant pack: the graph's tensors bound to the buffers (a failure stays in `b`)
cudnnBackendDescriptor_t bind_buffers(fused::Backend& b, const FusedBuffers& d) {
  const char* step = "binding the buffers (variant pack)";
  auto pack = b.make(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, step);
  const std::int64_t uids[4] = {fused::k_uid_x, fused::k_uid_w, fused::k_uid_b, fused::k_uid_y};
  void* ptrs[4] = {reinterpret_cast<void*>(d.x), reinterpret_cast<void*>(d.w), reinterpret_cast<void*>(d.bias), reinterpret_cast<void*>(d.y)};
  void* workspace = reinterpret_cast<void*>(d.workspace);
  b.set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 4, uids, step);
  b.set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 4, ptrs, step);
  b.set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace, step);
  b.finalize(pack, step);
  return pack;
}

// each plan run once; with `first_that_runs` (the check, or a single plan) the first that runs is
// taken, otherwise each is timed briefly and the fastest kept (cudnn.benchmark's way)
Expected<fused::Plan, StepFailure> pick_plan(const FusedContext& cx, const std::vector<fused::Plan>& plans, cudnnBackendDescriptor_t pack,
                                         bool first_that_runs) {
  std::optional<fused::Plan> best;
  double best_ms = 0;
  StepFailure run_failure{0, ""};
  for (const auto& p : plans) {
    auto execute = [&] { return cx.api.backend_execute(cx.target.handle, p.plan, pack); };
    const int st = execute();
    if (const int cu = cx.api.stream_sync(cx.stream); cu != 0)
      return Unexpected<StepFailure>(driver_failure("cuStreamSynchronize failed: " + cu_result_name(cu)));
    if (st != 0) {
      run_failure = {st, graph_failure_cause(st, cx.major, "running the fused graph")};
      if (const auto d = last_error_text(cx.api); !d.empty()) run_failure.error += " (cuDNN: " + d + ")";
      continue;
    }
    if (first_that_runs) return p;
    const auto t = time_per_call(cx.api, cx.stream, 1, std::max(1, cx.run.timed_calls / 4), execute);
    if (!t && !t.error().driver_error.empty())
      return Unexpected<StepFailure>(driver_failure("timing the fused graph: " + t.error().driver_error));
    if (t && (!best || t->median_ms < best_ms)) {
      best = p;
      best_ms = t->median_ms;
    }
  }
  if (!best) return Unexpected<StepFailure>(run_failure);
  return *best;
}

// the chosen plan warmed up, then timed in full
Expected<CallTiming, StepFailure> time_plan(const FusedContext& cx, const fused::Plan& plan, cudnnBackendDescriptor_t pack) {
  auto execute = [&] { return cx.api.backend_execute(cx.target.handle, plan.plan, pack); };
  auto cause = [&](int status) { return StepFailure{status, graph_failure_cause(status, cx.major, "running the fused graph")}; };
  int st = 0;
  for (int i = 0; i < cx.run.warmups && st == 0; ++i) st = execute();
  if (const int cu = cx.api.stream_sync(cx.stream); cu != 0)
    return Unexpected<StepFailure>(driver_failure("cuStreamSynchronize failed: " + cu_result_name(cu)));
  if (st != 0) return Unexpected<StepFailure>(cause(st));
  auto t = time_per_call(cx.api, cx.stream, cx.run.repeats, cx.run.timed_calls, execute);
  if (t) return *t;
  if (!t.error().driver_error.empty()) return Unexpected<StepFailure>(driver_failure("timing the fused graph: " + t.error().driver_error));
  return Unexpected<StepFailure>(cause(t.error().status));
}

// The fused graph of `s` built, planned, bound to fresh buffers and run: timed, or with `check` run
// once on its inputs and read back.
FusedLayerResult run_fused(const FusedContext& cx, const ConvShape& s, ConvCheckData* check) {
  FusedLayerResult r;
  r.layer = s.name;
  fused::Backend b(cx.api, cx.major);
  const auto graph = fused::plan_graph(b, cx.api, cx.target, s, check ? 1 : std::max(1, cx.run.max_configs));
  r.configs_tried = graph.planning.tried;
  if (!graph.ok()) return failed(r, {graph.status, graph.error});
  const auto& plans = graph.planning.plans;

  Buffers buf(cx.api);
  const auto d = allocate(buf, FusedSizes(s), plans);
  if (!d) return failed(r, d.error());
  if (const auto cu = upload_inputs(cx, *d, s, check); cu != 0)
    return failed(r, driver_failure("uploading the inputs failed: cuMemcpyHtoDAsync: " + cu_result_name(cu)));
  const auto pack = bind_buffers(b, *d);
  if (!b.ok()) return failed(r, {b.status(), b.error()});

  const auto best = pick_plan(cx, plans, pack, check || plans.size() == 1);
  if (!best) return failed(r, best.error());
  r.engine_config = best->config;
  r.workspace_mib = static_cast<double>(best->workspace) / 1048576.0;
  if (check) {
    std::vector<std::uint16_t> hy(FusedSizes(s).y);
    if (const auto cu = cx.api.dtoh(hy.data(), d->y, hy.size() * 2); cu != 0)
      return failed(r, driver_failure("reading the result back failed: " + cu_result_name(cu)));
    check->y = relayout<float>(hy, s.n, s.k, s.p(), s.q(), false, half_to_float);
    return r;
  }
  const auto t = time_plan(cx, *best, pack);
  if (!t) return failed(r, t.error());
  r.fused_ms = t->median_ms;
  r.fused_min_ms = t->min_ms;
  r.fused_tflops = s.tflops_at(r.fused_ms);
  return r;
}

} // namespace

FusedLayerResult run_fused_layer(const Api& api, const GraphTarget& target, CUstream stream, const ConvShape& s, unsigned major,
                                 const FusedRun& run) {
  return run_fused({api, target, stream, major, run}, s, nullptr);
}

FusedResult run_fused_set(const Api& api, const GraphTarget& target, CUstream stream, const std::vector<ConvShape>& layers, unsigned major,
                          const FusedRun& run) {
  FusedResult out;
  out.attempted = true;
  if (!api.has_graph_api()) {
    out.error = "this cuDNN has no graph API (cudnnBackend* functions; cuDNN 8.0 and later have it)";
    return out;
  }
  // the check: channels a multiple of 8 (what fp16 NHWC engines need), values exact in fp16
  auto io = conv_check_data({"check 3x3 + bias + ReLU", 1, 8, 6, 6, 8, 3, 3, 1, 1}, 1.f / 16.f, true);
  const auto check = run_fused({api, target, stream, major, run}, io.shape, &io);
  // fp16 output: half a unit in the last place of the reference's magnitude, and a little for the sums
  const auto verdict = check.status == 0 ? judge_check(io, 2e-3, 1e-3) : CheckVerdict{};
  out.correctness_ok = verdict.ok;
  out.correctness_max_error = verdict.max_error;
  out.correctness_error = check.error;
  if (check.status != 0 && check.error.empty()) out.correctness_error = graph_failure_cause(check.status, major, "running the check");
  for (const auto& s : layers) out.layers.push_back(run_fused_layer(api, target, stream, s, major, run));
  return out;
}

} // namespace cudnnctl

#include "cudnnctl/workload/fused_conv.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "cudnnctl/gpu/half.hpp"
#include "cudnnctl/gpu/status_names.hpp"
#include "fused_graph.hpp"

namespace cudnnctl {

using namespace abi;

std::vector<float> reference_conv_bias_relu(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& bias,
                                            const ConvShape& s) {
  auto y = reference_conv(x, w, s);
  const std::size_t plane = static_cast<std::size_t>(s.p()) * s.q();
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = std::max(0.f, y[i] + bias[(i / plane) % static_cast<std::size_t>(s.k)]);
  return y;
}

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

// the correctness check's inputs (NCHW floats) and where its output goes
struct CheckIo {
  const std::vector<float>& x;
  const std::vector<float>& w;
  const std::vector<float>& bias;
  std::vector<float>& y;
};

FusedLayerResult run_fused(const Api& api, const GraphTarget& target, CUstream stream, const ConvShape& s, unsigned major,
                           const FusedRun& run, const CheckIo* check) {
  FusedLayerResult r;
  r.layer = s.name;
  auto driver_failed = [&](const std::string& what) {
    r.status = -1;
    r.error = what;
    return r;
  };
  fused::Backend b(api, major);
  auto graph = fused::build_graph(b, target, s);
  if (!b.ok()) {
    r.status = b.status();
    r.error = b.error();
    return r;
  }
  auto planning = fused::make_plans(b, api, target, graph, check ? 1 : std::max(1, run.max_configs));
  r.configs_tried = planning.tried;
  const auto& plans = planning.plans;
  if (plans.empty()) {
    const auto& last = planning.last_failure;
    r.status = last.first ? last.first : b.status();
    r.error = last.first ? last.second : b.ok() ? "the heuristics proposed no engine config for this graph" : b.error();
    return r;
  }

  Buffers buf(api);
  int cu = 0;
  const std::size_t xn = static_cast<std::size_t>(s.n) * s.c * s.h * s.w, wn = static_cast<std::size_t>(s.k) * s.c * s.r * s.s,
                    yn = static_cast<std::size_t>(s.n) * s.k * s.p() * s.q(), bn = static_cast<std::size_t>(s.k);
  std::int64_t ws_max = 0;
  for (const auto& p : plans) ws_max = std::max(ws_max, p.workspace);
  const auto x = buf.alloc(xn * 2, cu);
  const auto w = x ? buf.alloc(wn * 2, cu) : std::nullopt;
  const auto bias = w ? buf.alloc(bn * 2, cu) : std::nullopt;
  const auto y = bias ? buf.alloc(yn * 2, cu) : std::nullopt;
  const auto ws = y && ws_max > 0 ? buf.alloc(static_cast<std::size_t>(ws_max), cu) : std::optional<CUdeviceptr>{0};
  if (!y || !ws) return driver_failed(fmt::format("allocating GPU memory for the fused layer failed: {}", cu_result_name(cu)));
  if (check) {
    const auto hx = relayout<std::uint16_t>(check->x, s.n, s.c, s.h, s.w, true, float_to_half);
    const auto hw = relayout<std::uint16_t>(check->w, s.k, s.c, s.r, s.s, true, float_to_half);
    std::vector<std::uint16_t> hb;
    for (float v : check->bias) hb.push_back(float_to_half(v));
    cu = upload(api, stream, *x, hx.data(), hx.size() * 2);
    if (cu == 0) cu = upload(api, stream, *w, hw.data(), hw.size() * 2);
    if (cu == 0) cu = upload(api, stream, *bias, hb.data(), hb.size() * 2);
  } else {
    cu = upload_pattern(api, stream, *x, xn, true, 1);
    if (cu == 0) cu = upload_pattern(api, stream, *w, wn, true, 2);
    if (cu == 0) cu = upload_pattern(api, stream, *bias, bn, true, 3);
  }
  if (cu != 0) return driver_failed("uploading the inputs failed: cuMemcpyHtoDAsync: " + cu_result_name(cu));

  const char* step = "binding the buffers (variant pack)";
  auto pack = b.make(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, step);
  const std::int64_t uids[4] = {fused::k_uid_x, fused::k_uid_w, fused::k_uid_b, fused::k_uid_y};
  void* ptrs[4] = {reinterpret_cast<void*>(*x), reinterpret_cast<void*>(*w), reinterpret_cast<void*>(*bias), reinterpret_cast<void*>(*y)};
  void* workspace = reinterpret_cast<void*>(*ws);
  b.set(pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, 4, uids, step);
  b.set(pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, 4, ptrs, step);
  b.set(pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace, step);
  b.finalize(pack, step);
  if (!b.ok()) {
    r.status = b.status();
    r.error = b.error();
    return r;
  }

  // each plan warmed up and timed briefly; the fastest is timed in full (cudnn.benchmark's way)
  std::optional<fused::Plan> best;
  double best_ms = 0;
  std::pair<int, std::string> run_failure{0, ""};
  for (const auto& p : plans) {
    auto execute = [&] { return api.backend_execute(target.handle, p.plan, pack); };
    const int st = execute();
    if ((cu = api.stream_sync(stream)) != 0) return driver_failed("cuStreamSynchronize failed: " + cu_result_name(cu));
    if (st != 0) {
      run_failure = {st, graph_failure_cause(st, major, "running the fused graph")};
      if (const auto d = last_error_text(api); !d.empty()) run_failure.second += " (cuDNN: " + d + ")";
      continue;
    }
    if (check || plans.size() == 1) {
      best = p;
      break;
    }
    const auto t = time_per_call(api, stream, 1, std::max(1, run.timed_calls / 4), execute);
    if (!t && !t.error().driver_error.empty()) return driver_failed("timing the fused graph: " + t.error().driver_error);
    if (t && (!best || t->median_ms < best_ms)) {
      best = p;
      best_ms = t->median_ms;
    }
  }
  if (!best) {
    r.status = run_failure.first;
    r.error = run_failure.second;
    return r;
  }
  r.engine_config = best->config;
  r.workspace_mib = static_cast<double>(best->workspace) / 1048576.0;
  auto execute = [&] { return api.backend_execute(target.handle, best->plan, pack); };
  if (check) {
    std::vector<std::uint16_t> hy(yn);
    if ((cu = api.dtoh(hy.data(), *y, yn * 2)) != 0) return driver_failed("reading the result back failed: " + cu_result_name(cu));
    check->y = relayout<float>(hy, s.n, s.k, s.p(), s.q(), false, half_to_float);
    return r;
  }
  int st = 0;
  for (int i = 0; i < run.warmups && st == 0; ++i) st = execute();
  if ((cu = api.stream_sync(stream)) != 0) return driver_failed("cuStreamSynchronize failed: " + cu_result_name(cu));
  if (st != 0) {
    r.status = st;
    r.error = graph_failure_cause(st, major, "running the fused graph");
    return r;
  }
  const auto t = time_per_call(api, stream, run.repeats, run.timed_calls, execute);
  if (!t) {
    if (!t.error().driver_error.empty()) return driver_failed("timing the fused graph: " + t.error().driver_error);
    r.status = t.error().status;
    r.error = graph_failure_cause(r.status, major, "running the fused graph");
    return r;
  }
  r.fused_ms = t->median_ms;
  r.fused_min_ms = t->min_ms;
  r.fused_tflops = s.flops() / (r.fused_ms / 1e3) / 1e12;
  return r;
}

} // namespace

FusedLayerResult run_fused_layer(const Api& api, const GraphTarget& target, CUstream stream, const ConvShape& s, unsigned major,
                                 const FusedRun& run) {
  return run_fused(api, target, stream, s, major, run, nullptr);
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
  const ConvShape small{"check 3x3 + bias + ReLU", 1, 8, 6, 6, 8, 3, 3, 1, 1};
  std::vector<float> x(static_cast<std::size_t>(small.n) * small.c * small.h * small.w), w(static_cast<std::size_t>(small.k) * small.c * 9),
      bias(static_cast<std::size_t>(small.k));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 7 % 13) - 6) / 8.f;
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 5 % 11) - 5) / 16.f;
  for (std::size_t i = 0; i < bias.size(); ++i) bias[i] = static_cast<float>(static_cast<int>(i % 5) - 2) / 2.f;
  std::vector<float> y;
  const CheckIo io{x, w, bias, y};
  const auto check = run_fused(api, target, stream, small, major, run, &io);
  const auto ref = reference_conv_bias_relu(x, w, bias, small);
  double max_err = check.status == 0 && y.size() == ref.size() ? 0 : 1e30;
  // fp16 output: half a unit in the last place of the reference's magnitude, and a little for the sums
  bool ok = max_err == 0;
  for (std::size_t i = 0; i < std::min(y.size(), ref.size()); ++i) {
    const double err = std::fabs(static_cast<double>(y[i]) - ref[i]);
    max_err = std::max(max_err, err);
    ok = ok && err <= 2e-3 + 1e-3 * std::fabs(static_cast<double>(ref[i]));
  }
  out.correctness_ok = ok && check.status == 0;
  out.correctness_max_error = max_err;
  out.correctness_error = check.error;
  if (check.status != 0 && check.error.empty()) out.correctness_error = graph_failure_cause(check.status, major, "running the check");
  for (const auto& s : layers) out.layers.push_back(run_fused_layer(api, target, stream, s, major, run));
  return out;
}

} // namespace cudnnctl

#include "cudnnctl/workload/fused_conv.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "cudnnctl/doctor/status_names.hpp"
#include "cudnnctl/workload/half.hpp"

namespace cudnnctl {

using namespace abi;

std::vector<std::int64_t> nhwc_strides(std::int64_t c, std::int64_t h, std::int64_t w) {
  return {c * h * w, 1, w * c, c};
}

std::vector<float> reference_conv_bias_relu(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& bias,
                                            const ConvShape& s) {
  auto y = reference_conv(x, w, s);
  const std::size_t plane = static_cast<std::size_t>(s.p()) * s.q();
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = std::max(0.f, y[i] + bias[(i / plane) % static_cast<std::size_t>(s.k)]);
  return y;
}

std::string graph_failure_cause(int status, unsigned major, const std::string& step) {
  const auto name = cudnn_status_name(status, major);
  const bool not_supported = major >= 9 ? (status >= 3000 && status < 4000) : status == 9;
  const bool bad_param = major >= 9 ? (status >= 2000 && status < 3000) : status == 3;
  if (step == "planning" && not_supported)
    return fmt::format("{} while {}: no engine of this cuDNN fuses conv+bias+ReLU for this layer on this GPU; cuDNN's "
                       "runtime-fusion engines compile their kernels with NVRTC, so libnvrtc of the CUDA major must load",
                       name, step);
  if (bad_param)
    return fmt::format("{} while {}: cuDNN rejected the graph as described (a descriptor attribute this cuDNN reads differently)", name,
                       step);
  if (name.find("EXECUTION_FAILED") != std::string::npos)
    return fmt::format("{} while {}: the GPU could not run the fused kernel (a cuDNN built for another GPU architecture)", name, step);
  return fmt::format("{} while {}", name, step);
}

namespace {

// Every backend descriptor made for one graph, destroyed together (last made, first destroyed).
class Backend {
public:
  Backend(const Api& api, unsigned major) : m_api(api), m_major(major) {}
  ~Backend() {
    for (auto it = m_made.rbegin(); it != m_made.rend(); ++it) m_api.backend_destroy(*it);
  }
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  bool ok() const { return m_status == 0; }
  int status() const { return m_status; }
  const std::string& step() const { return m_step; }
  std::string error() const {
    auto text = graph_failure_cause(m_status, m_major, m_step);
    if (!m_detail.empty()) text += " (cuDNN: " + m_detail + ")";
    return text;
  }

  cudnnBackendDescriptor_t make(int type, const char* step) {
    if (!ok()) return nullptr;
    cudnnBackendDescriptor_t d = nullptr;
    if (!check(m_api.backend_create(type, &d), step)) return nullptr;
    m_made.push_back(d);
    return d;
  }
  void set(cudnnBackendDescriptor_t d, int attr, int type, std::int64_t count, const void* values, const char* step) {
    if (ok() && d) check(m_api.backend_set(d, attr, type, count, values), step);
  }
  void set_desc(cudnnBackendDescriptor_t d, int attr, cudnnBackendDescriptor_t value, const char* step) {
    set(d, attr, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &value, step);
  }
  void set_i64(cudnnBackendDescriptor_t d, int attr, std::vector<std::int64_t> values, const char* step) {
    set(d, attr, CUDNN_TYPE_INT64, static_cast<std::int64_t>(values.size()), values.data(), step);
  }
  void set_int(cudnnBackendDescriptor_t d, int attr, int type, int value, const char* step) { set(d, attr, type, 1, &value, step); }
  bool finalize(cudnnBackendDescriptor_t d, const char* step) { return ok() && d && check(m_api.backend_finalize(d), step); }

  // a tensor: dimensions in NCHW order with NHWC strides
  cudnnBackendDescriptor_t tensor(std::int64_t uid, std::vector<std::int64_t> dims, int dtype, bool is_virtual) {
    const char* step = "describing the tensors";
    auto t = make(CUDNN_BACKEND_TENSOR_DESCRIPTOR, step);
    const auto strides = nhwc_strides(dims[1], dims[2], dims[3]);
    set_int(t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, dtype, step);
    set_i64(t, CUDNN_ATTR_TENSOR_DIMENSIONS, dims, step);
    set_i64(t, CUDNN_ATTR_TENSOR_STRIDES, strides, step);
    set_i64(t, CUDNN_ATTR_TENSOR_UNIQUE_ID, {uid}, step);
    set_i64(t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, {16}, step);
    const bool v = is_virtual;
    set(t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &v, step);
    finalize(t, step);
    return t;
  }

  // a failure that is not the graph's (a later engine config may still work): remembered, then cleared
  std::pair<int, std::string> take_failure() {
    std::pair<int, std::string> f{m_status, error()};
    m_status = 0;
    m_detail.clear();
    return f;
  }

private:
  bool check(int status, const char* step) {
    if (status == 0) return true;
    m_status = status;
    m_step = step;
    m_detail = last_error_text(m_api);
    return false;
  }

  const Api& m_api;
  unsigned m_major;
  std::vector<cudnnBackendDescriptor_t> m_made;
  int m_status = 0;
  std::string m_step;
  std::string m_detail;
};

constexpr std::int64_t k_uid_x = 1, k_uid_w = 2, k_uid_b = 3, k_uid_y = 4, k_uid_conv = 101, k_uid_biased = 102;

// x, w, bias, y descriptors and the three operations in one graph
cudnnBackendDescriptor_t build_graph(Backend& b, cudnnHandle_t handle, const ConvShape& s) {
  const std::int64_t n = s.n, c = s.c, h = s.h, w = s.w, k = s.k, p = s.p(), q = s.q();
  auto x = b.tensor(k_uid_x, {n, c, h, w}, CUDNN_DATA_HALF, false);
  auto wt = b.tensor(k_uid_w, {k, c, s.r, s.s}, CUDNN_DATA_HALF, false);
  auto bias = b.tensor(k_uid_b, {1, k, 1, 1}, CUDNN_DATA_HALF, false);
  auto conv_out = b.tensor(k_uid_conv, {n, k, p, q}, CUDNN_DATA_FLOAT, true);
  auto biased = b.tensor(k_uid_biased, {n, k, p, q}, CUDNN_DATA_FLOAT, true);
  auto y = b.tensor(k_uid_y, {n, k, p, q}, CUDNN_DATA_HALF, false);

  const char* step = "describing the convolution";
  auto conv = b.make(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR, step);
  b.set_int(conv, CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, CUDNN_DATA_FLOAT, step);
  b.set_int(conv, CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, CUDNN_CROSS_CORRELATION, step);
  b.set_i64(conv, CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, {2}, step);
  b.set_i64(conv, CUDNN_ATTR_CONVOLUTION_DILATIONS, {1, 1}, step);
  b.set_i64(conv, CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, {s.stride, s.stride}, step);
  b.set_i64(conv, CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, {s.pad, s.pad}, step);
  b.set_i64(conv, CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, {s.pad, s.pad}, step);
  b.finalize(conv, step);

  step = "describing the operations";
  const float alpha = 1.f, beta = 0.f;
  auto conv_op = b.make(CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, step);
  b.set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X, x, step);
  b.set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W, wt, step);
  b.set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y, conv_out, step);
  b.set_desc(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC, conv, step);
  b.set(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_TYPE_FLOAT, 1, &alpha, step);
  b.set(conv_op, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA, CUDNN_TYPE_FLOAT, 1, &beta, step);
  b.finalize(conv_op, step);

  auto pointwise = [&](int mode) {
    auto pw = b.make(CUDNN_BACKEND_POINTWISE_DESCRIPTOR, step);
    b.set_int(pw, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, mode, step);
    b.set_int(pw, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, CUDNN_DATA_FLOAT, step);
    b.finalize(pw, step);
    return pw;
  };
  auto add = pointwise(CUDNN_POINTWISE_ADD);
  auto add_op = b.make(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, step);
  b.set_desc(add_op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, add, step);
  b.set_desc(add_op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, conv_out, step);
  b.set_desc(add_op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, bias, step);
  b.set_desc(add_op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, biased, step);
  b.finalize(add_op, step);
  auto relu = pointwise(CUDNN_POINTWISE_RELU_FWD);
  auto relu_op = b.make(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, step);
  b.set_desc(relu_op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, relu, step);
  b.set_desc(relu_op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, biased, step);
  b.set_desc(relu_op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y, step);
  b.finalize(relu_op, step);

  step = "building the operation graph";
  auto graph = b.make(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, step);
  const cudnnBackendDescriptor_t ops[3] = {conv_op, add_op, relu_op};
  b.set(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 3, ops, step);
  b.set(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle, step);
  b.finalize(graph, step);
  return graph;
}

struct Plan {
  cudnnBackendDescriptor_t plan = nullptr;
  std::int64_t workspace = 0;
  int config = -1;
};

// the engine configs heuristics mode A proposes (then the fallback list), each made into a plan
// until `wanted` plans finalize; a config that cannot run this graph is skipped
std::vector<Plan> make_plans(Backend& b, const Api& api, cudnnHandle_t handle, cudnnBackendDescriptor_t graph, int wanted, int& tried,
                             std::pair<int, std::string>& last_failure) {
  std::vector<Plan> plans;
  int index = 0;
  for (const int mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
    const char* step = "asking the heuristics for engines";
    auto heur = b.make(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, step);
    b.set_desc(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph, step);
    b.set_int(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, mode, step);
    if (!b.finalize(heur, step)) {
      last_failure = b.take_failure();
      continue;
    }
    std::int64_t count = 0;
    if (api.backend_get(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr) != 0 || count <= 0) continue;
    count = std::min<std::int64_t>(count, 16);
    std::vector<cudnnBackendDescriptor_t> configs;
    for (std::int64_t i = 0; i < count; ++i) configs.push_back(b.make(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, step));
    if (!b.ok()) return plans;
    std::int64_t returned = 0;
    if (api.backend_get(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned, configs.data()) != 0) continue;
    for (std::int64_t i = 0; i < returned && static_cast<int>(plans.size()) < wanted; ++i, ++index) {
      step = "planning";
      ++tried;
      auto plan = b.make(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, step);
      b.set(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle, step);
      b.set_desc(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, configs[static_cast<std::size_t>(i)], step);
      if (!b.finalize(plan, step)) {
        last_failure = b.take_failure();
        continue;
      }
      Plan p{plan, 0, index};
      std::int64_t n = 0;
      api.backend_get(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n, &p.workspace);
      plans.push_back(p);
    }
    if (!plans.empty()) break;
  }
  return plans;
}

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

} // namespace

FusedLayerResult run_fused_layer(const Api& api, cudnnHandle_t handle, CUstream stream, const ConvShape& s, unsigned major,
                                 const FusedRun& run, std::vector<float>* y_out, const std::vector<float>* x_in,
                                 const std::vector<float>* w_in, const std::vector<float>* b_in) {
  FusedLayerResult r;
  r.layer = s.name;
  Backend b(api, major);
  auto graph = build_graph(b, handle, s);
  if (!b.ok()) {
    r.status = b.status();
    r.error = b.error();
    return r;
  }
  std::pair<int, std::string> last_failure{0, ""};
  auto plans = make_plans(b, api, handle, graph, y_out ? 1 : std::max(1, run.max_configs), r.configs_tried, last_failure);
  if (plans.empty()) {
    r.status = last_failure.first ? last_failure.first : b.status();
    r.error = last_failure.first ? last_failure.second : b.ok() ? "the heuristics proposed no engine config for this graph" : b.error();
    return r;
  }

  Buffers buf{api, {}};
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
  if (!y || !ws) {
    r.status = -1;
    r.error = fmt::format("allocating GPU memory for the fused layer failed: {}", cu_result_name(cu));
    return r;
  }
  if (x_in && w_in && b_in) {
    const auto hx = relayout<std::uint16_t>(*x_in, s.n, s.c, s.h, s.w, true, float_to_half);
    const auto hw = relayout<std::uint16_t>(*w_in, s.k, s.c, s.r, s.s, true, float_to_half);
    std::vector<std::uint16_t> hb;
    for (float v : *b_in) hb.push_back(float_to_half(v));
    api.htod(*x, hx.data(), hx.size() * 2);
    api.htod(*w, hw.data(), hw.size() * 2);
    api.htod(*bias, hb.data(), hb.size() * 2);
  } else {
    upload_pattern(api, *x, xn, true, 1);
    upload_pattern(api, *w, wn, true, 2);
    upload_pattern(api, *bias, bn, true, 3);
  }

  const char* step = "binding the buffers (variant pack)";
  auto pack = b.make(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, step);
  const std::int64_t uids[4] = {k_uid_x, k_uid_w, k_uid_b, k_uid_y};
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
  std::optional<Plan> best;
  double best_ms = 0;
  int st = 0;
  std::pair<int, std::string> run_failure{0, ""};
  for (const auto& p : plans) {
    auto execute = [&] { return api.backend_execute(handle, p.plan, pack); };
    st = execute();
    api.stream_sync(stream);
    if (st != 0) {
      run_failure = {st, graph_failure_cause(st, major, "running the fused graph")};
      if (const auto d = last_error_text(api); !d.empty()) run_failure.second += " (cuDNN: " + d + ")";
      st = 0;
      continue;
    }
    if (y_out || plans.size() == 1) {
      best = p;
      break;
    }
    const auto t = time_per_call(api, stream, 1, std::max(1, run.timed_calls / 4), execute, st);
    if (t && (!best || t->median_ms < best_ms)) {
      best = p;
      best_ms = t->median_ms;
    }
    st = 0;
  }
  if (!best) {
    r.status = run_failure.first;
    r.error = run_failure.second;
    return r;
  }
  r.engine_config = best->config;
  r.workspace_mib = static_cast<double>(best->workspace) / 1048576.0;
  auto execute = [&] { return api.backend_execute(handle, best->plan, pack); };
  if (y_out) {
    std::vector<std::uint16_t> hy(yn);
    api.dtoh(hy.data(), *y, yn * 2);
    *y_out = relayout<float>(hy, s.n, s.k, s.p(), s.q(), false, half_to_float);
    return r;
  }
  for (int i = 0; i < run.warmups && st == 0; ++i) st = execute();
  api.stream_sync(stream);
  const auto t = st == 0 ? time_per_call(api, stream, run.repeats, run.timed_calls, execute, st) : std::nullopt;
  if (!t) {
    r.status = st;
    r.error = graph_failure_cause(st, major, "running the fused graph");
    return r;
  }
  r.fused_ms = t->median_ms;
  r.fused_min_ms = t->min_ms;
  r.fused_tflops = r.fused_ms > 0 ? s.flops() / (r.fused_ms / 1e3) / 1e12 : 0;
  return r;
}

FusedResult run_fused_set(const Api& api, cudnnHandle_t handle, CUstream stream, const std::vector<ConvShape>& layers, unsigned major,
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
  const auto check = run_fused_layer(api, handle, stream, small, major, run, &y, &x, &w, &bias);
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
  for (const auto& s : layers) out.layers.push_back(run_fused_layer(api, handle, stream, s, major, run));
  return out;
}

} // namespace cudnnctl

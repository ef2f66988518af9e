#include "fused_graph.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/gpu/status_names.hpp"

namespace cudnnctl {

using namespace abi;

std::vector<std::int64_t> nhwc_strides(std::int64_t c, std::int64_t h, std::int64_t w) { return {c * h * w, 1, w * c, c}; }

std::string graph_failure_cause(int status, unsigned major, const std::string& step) {
  const auto name = cudnn_status_name(status, major);
  const bool not_supported = major >= 9 ? (status >= 3000 && status < 4000) : status == 9;
  const bool bad_param = major >= 9 ? (status >= 2000 && status < 3000) : status == 3;
  if (step == "planning" && not_supported)
    return fmt::format("{} while {}: no engine of this cuDNN fuses conv+bias+ReLU for this layer on this GPU; cuDNN's "
                       "runtime-fusion engines compile their kernels with NVRTC, so libnvrtc of the CUDA major must load",
                       name, step);
  if (major >= 9 && status == 2002)
    return fmt::format("{} while {}: cuDNN was given a null pointer (a handle or buffer that was never made)", name, step);
  if (bad_param)
    return fmt::format("{} while {}: cuDNN rejected the graph as described (an attribute's type, count or value, or a shape "
                       "that does not add up)",
                       name, step);
  if (name.find("EXECUTION_FAILED") != std::string::npos)
    return fmt::format("{} while {}: the GPU could not run the fused kernel (a cuDNN built for another GPU architecture)", name, step);
  return fmt::format("{} while {}", name, step);
}

namespace fused {

Backend::~Backend() {
  for (auto it = m_made.rbegin(); it != m_made.rend(); ++it) m_api.backend_destroy(*it);
}

std::string Backend::error() const {
  auto text = graph_failure_cause(m_status, m_major, m_step);
  if (!m_detail.empty()) text += " (cuDNN: " + m_detail + ")";
  return text;
}

bool Backend::check(int status, const char* step) {
  if (status == 0) return true;
  m_status = status;
  m_step = step;
  m_detail = last_error_text(m_api);
  return false;
}

cudnnBackendDescriptor_t Backend::make(int type, const char* step) {
  if (!ok()) return nullptr;
  cudnnBackendDescriptor_t d = nullptr;
  if (!check(m_api.backend_create(type, &d), step)) return nullptr;
  m_made.push_back(d);
  return d;
}

void Backend::set(cudnnBackendDescriptor_t d, int attr, int type, std::int64_t count, const void* values, const char* step) {
  if (ok() && d) check(m_api.backend_set(d, attr, type, count, values), step);
}
void Backend::set_desc(cudnnBackendDescriptor_t d, int attr, cudnnBackendDescriptor_t value, const char* step) {
  set(d, attr, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &value, step);
}
void Backend::set_i64(cudnnBackendDescriptor_t d, int attr, std::vector<std::int64_t> values, const char* step) {
  set(d, attr, CUDNN_TYPE_INT64, static_cast<std::int64_t>(values.size()), values.data(), step);
}
void Backend::set_int(cudnnBackendDescriptor_t d, int attr, int type, int value, const char* step) { set(d, attr, type, 1, &value, step); }
bool Backend::finalize(cudnnBackendDescriptor_t d, const char* step) { return ok() && d && check(m_api.backend_finalize(d), step); }

cudnnBackendDescriptor_t Backend::tensor(std::int64_t uid, std::vector<std::int64_t> dims, int dtype, bool is_virtual) {
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

std::pair<int, std::string> Backend::take_failure() {
  std::pair<int, std::string> f{m_status, error()};
  m_status = 0;
  m_detail.clear();
  return f;
}

cudnnBackendDescriptor_t build_graph(Backend& b, const GraphTarget& target, const ConvShape& s) {
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
  // deprecated in cuDNN 9 (and a null handle is rejected): set only when there is one
  if (target.handle) b.set(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &target.handle, step);
  b.finalize(graph, step);
  return graph;
}

Planning make_plans(Backend& b, const Api& api, const GraphTarget& target, cudnnBackendDescriptor_t graph, int wanted) {
  Planning out;
  int index = 0;
  for (const int mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
    const char* step = "asking the heuristics for engines";
    auto heur = b.make(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, step);
    b.set_desc(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph, step);
    b.set_int(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, mode, step);
    if (target.device_properties) b.set_desc(heur, CUDNN_ATTR_ENGINEHEUR_DEVICEPROP, target.device_properties, step);
    if (!b.finalize(heur, step)) {
      out.last_failure = b.take_failure();
      continue;
    }
    std::int64_t count = 0;
    if (!b.check(api.backend_get(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr), step)) {
      out.last_failure = b.take_failure();
      continue;
    }
    if (count <= 0) continue;
    count = std::min<std::int64_t>(count, 16);
    std::vector<cudnnBackendDescriptor_t> configs;
    for (std::int64_t i = 0; i < count; ++i) configs.push_back(b.make(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, step));
    if (!b.ok()) return out;
    std::int64_t returned = 0;
    if (!b.check(api.backend_get(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned, configs.data()), step)) {
      out.last_failure = b.take_failure();
      continue;
    }
    out.configs += static_cast<int>(returned);
    for (std::int64_t i = 0; i < returned && static_cast<int>(out.plans.size()) < wanted; ++i, ++index) {
      step = "planning";
      ++out.tried;
      auto plan = b.make(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, step);
      if (target.handle) b.set(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &target.handle, step);
      if (target.device_properties) b.set_desc(plan, CUDNN_ATTR_EXECUTION_PLAN_DEVICEPROP, target.device_properties, step);
      b.set_desc(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, configs[static_cast<std::size_t>(i)], step);
      if (!b.finalize(plan, step)) {
        out.last_failure = b.take_failure();
        continue;
      }
      Plan p{plan, 0, index};
      std::int64_t n = 0;
      step = "reading the plan's workspace size";
      if (!b.check(api.backend_get(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n, &p.workspace), step)) {
        out.last_failure = b.take_failure();
        continue;
      }
      out.plans.push_back(p);
    }
    if (!out.plans.empty()) break;
  }
  return out;
}

GraphPlans plan_graph(Backend& b, const Api& api, const GraphTarget& target, const ConvShape& s, int wanted) {
  GraphPlans out;
  const auto graph = build_graph(b, target, s);
  if (!b.ok()) {
    out.status = b.status();
    out.error = b.error();
    return out;
  }
  out.planning = make_plans(b, api, target, graph, wanted);
  if (out.ok()) return out;
  const auto& last = out.planning.last_failure;
  out.status = last.first ? last.first : b.status();
  out.error = last.first ? last.second : b.ok() ? "the heuristics proposed no engine config for this graph" : b.error();
  return out;
}

} // namespace fused

GraphPlanReport plan_fused_layer(const Api& api, const GraphTarget& target, const ConvShape& s, unsigned major, int wanted) {
  GraphPlanReport r;
  fused::Backend b(api, major);
  const auto graph = fused::plan_graph(b, api, target, s, wanted);
  const auto& planning = graph.planning;
  r.configs = planning.configs;
  r.tried = planning.tried;
  r.plans = static_cast<int>(planning.plans.size());
  for (const auto& p : planning.plans) r.max_workspace = std::max(r.max_workspace, p.workspace);
  if (!graph.ok()) {
    r.status = graph.status ? graph.status : -1;
    r.error = graph.error;
  }
  return r;
}

Expected<DeviceProperties, std::string> DeviceProperties::from_json(const Api& api, unsigned major, const std::string& json) {
  cudnnBackendDescriptor_t d = nullptr;
  int st = api.backend_create(CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR, &d);
  DeviceProperties props(api, st == 0 ? d : nullptr);
  if (st == 0)
    st = api.backend_set(d, CUDNN_ATTR_DEVICEPROP_JSON_REPRESENTATION, CUDNN_TYPE_CHAR, static_cast<std::int64_t>(json.size()), json.data());
  if (st == 0) st = api.backend_finalize(d);
  if (st != 0) {
    auto text = fmt::format("{} while describing the GPU by its properties (cuDNN 9.8 and later)", cudnn_status_name(st, major));
    if (const auto detail = last_error_text(api); !detail.empty()) text += " (cuDNN: " + detail + ")";
    return Unexpected<std::string>(text);
  }
  return props;
}

DeviceProperties::~DeviceProperties() {
  if (m_desc) m_api->backend_destroy(m_desc);
}

} // namespace cudnnctl

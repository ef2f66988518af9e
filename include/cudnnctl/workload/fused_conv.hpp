#pragma once
// conv + bias + ReLU fused into one graph through cuDNN's graph API (backend descriptors: tensors, a
// convolution, two pointwise ops, the operation graph, heuristics, an execution plan, a variant pack),
// the way torch.compile and TensorRT run it. fp16 NHWC with float compute. The unfused legacy sequence it
// is timed beside (cudnnConvolutionForward, cudnnAddTensor, cudnnActivationForward) is the workload's
// own convolution with a bias + ReLU epilogue (conv_layer.hpp).
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/base/expected.hpp"
#include "cudnnctl/gpu/loaded_api.hpp"
#include "cudnnctl/workload/conv_check.hpp"
#include "cudnnctl/workload/conv_shape.hpp"
#include "cudnnctl/workload/results.hpp"

namespace cudnnctl {

/// NHWC strides of an N,C,H,W tensor (N's stride is C·H·W), as the graph API takes them (dimensions
/// stay in NCHW order).
std::vector<std::int64_t> nhwc_strides(std::int64_t c, std::int64_t h, std::int64_t w);

/// What a graph API failure at `step` most likely means.
std::string graph_failure_cause(int status, unsigned major, const std::string& step);

/// The GPU a graph is built for: a cuDNN handle (made on a GPU; cuDNN 9 no longer needs it for the
/// graph, only to run it), and/or a device-properties descriptor (cuDNN >= 9.8) that describes a GPU
/// without one, so heuristics and execution plans finalize on a machine with no GPU at all.
struct GraphTarget {
  abi::cudnnHandle_t handle = nullptr;
  abi::cudnnBackendDescriptor_t device_properties = nullptr;
};

/// A CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR made from cuDNN's JSON representation of a GPU (the form
/// `bench/dump_devprop.py` records on a device), destroyed with it.
class DeviceProperties {
public:
  /// The cuDNN status and cuDNN's text on failure (before 9.8 the descriptor type does not exist).
  static Expected<DeviceProperties, std::string> from_json(const Api& api, unsigned major, const std::string& json);
  ~DeviceProperties();
  DeviceProperties(DeviceProperties&& o) noexcept : m_api(o.m_api), m_desc(o.m_desc) { o.m_desc = nullptr; }
  DeviceProperties(const DeviceProperties&) = delete;
  DeviceProperties& operator=(const DeviceProperties&) = delete;
  DeviceProperties& operator=(DeviceProperties&&) = delete;
  abi::cudnnBackendDescriptor_t descriptor() const { return m_desc; }

private:
  DeviceProperties(const Api& api, abi::cudnnBackendDescriptor_t d) : m_api(&api), m_desc(d) {}
  const Api* m_api;
  abi::cudnnBackendDescriptor_t m_desc;
};

/// How far one layer's fused graph got without running it.
struct GraphPlanReport {
  int status = 0;
  std::string error;          // decoded, with the step that failed
  int configs = 0;            // engine configs the heuristics returned
  int tried = 0;              // of them, made into execution plans
  int plans = 0;              // execution plans that finalized
  std::int64_t max_workspace = 0;
};

/// The fused graph of `s` built, its heuristics asked and up to `wanted` execution plans finalized for
/// `target`; nothing runs (no buffers, no GPU needed with device properties).
GraphPlanReport plan_fused_layer(const Api& api, const GraphTarget& target, const ConvShape& s, unsigned major, int wanted);

struct FusedRun {
  int warmups = 3, timed_calls = 20, repeats = 3;
  int max_configs = 1;  // engine configs timed before the fastest is kept (benchmark mode: several)
};

/// One layer: the fused graph built, planned and timed on `stream` (unfused_ms is the caller's to fill).
FusedLayerResult run_fused_layer(const Api& api, const GraphTarget& target, abi::CUstream stream, const ConvShape& s, unsigned major,
                                 const FusedRun& run);

/// The correctness check on a small layer (run once, read back, compared with the CPU), then every
/// layer of the set.
FusedResult run_fused_set(const Api& api, const GraphTarget& target, abi::CUstream stream, const std::vector<ConvShape>& layers,
                          unsigned major, const FusedRun& run);

} // namespace cudnnctl

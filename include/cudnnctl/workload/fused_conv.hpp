#pragma once
// conv + bias + ReLU fused into one graph through cuDNN's graph API (backend descriptors: tensors, a
// convolution, two pointwise ops, the operation graph, heuristics, an execution plan, a variant pack),
// the way torch.compile and TensorRT run it. fp16 NHWC with float compute. The unfused legacy sequence it
// is timed beside (cudnnConvolutionForward, cudnnAddTensor, cudnnActivationForward) is the workload's
// own convolution with a bias + ReLU epilogue (conv_workload.cpp).
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/workload/conv_workload.hpp"
#include "cudnnctl/workload/loaded_api.hpp"

namespace cudnnctl {

/// NHWC strides of an N,C,H,W tensor (N's stride is C·H·W), as the graph API takes them (dimensions
/// stay in NCHW order).
std::vector<std::int64_t> nhwc_strides(std::int64_t c, std::int64_t h, std::int64_t w);

/// max(0, conv(x, w) + bias[k]) on the CPU, NCHW in and out.
std::vector<float> reference_conv_bias_relu(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& bias,
                                            const ConvShape& s);

/// What a graph API failure at `step` most likely means.
std::string graph_failure_cause(int status, unsigned major, const std::string& step);

struct FusedRun {
  int warmups = 3, timed_calls = 20, repeats = 3;
  int max_configs = 1;  // engine configs timed before the fastest is kept (benchmark mode: several)
};

/// One layer: the fused graph built, planned and timed (unfused_ms is the caller's to fill).
/// With `y_out`, uploads x, w, bias (NCHW floats, converted to fp16 NHWC), runs the fused graph once
/// and returns y (NCHW floats) instead of timing.
FusedLayerResult run_fused_layer(const Api& api, abi::cudnnHandle_t handle, abi::CUstream stream, const ConvShape& s, unsigned major,
                                 const FusedRun& run, std::vector<float>* y_out = nullptr, const std::vector<float>* x_in = nullptr,
                                 const std::vector<float>* w_in = nullptr, const std::vector<float>* b_in = nullptr);

/// The correctness check on a small layer, then every layer of the set.
FusedResult run_fused_set(const Api& api, abi::cudnnHandle_t handle, abi::CUstream stream, const std::vector<ConvShape>& layers,
                          unsigned major, const FusedRun& run);

} // namespace cudnnctl

#pragma once
// One convolution layer through cuDNN's legacy API (tensor, filter and convolution descriptors,
// cudnnGetConvolutionForwardAlgorithm_v7 / cudnnFindConvolutionForwardAlgorithmEx,
// cudnnConvolutionForward): timed, run once against given inputs, or with the unfused bias + ReLU
// after it (cudnnAddTensor, cudnnActivationForward) that the fused graph replaces.
#include <optional>
#include <vector>

#include "cudnnctl/base/expected.hpp"
#include "cudnnctl/gpu/loaded_api.hpp"
#include "cudnnctl/workload/conv_check.hpp"
#include "cudnnctl/workload/conv_shape.hpp"
#include "cudnnctl/workload/results.hpp"

namespace cudnnctl {

/// What every layer of one run shares.
struct LayerRun {
  const Api& api;
  abi::cudnnHandle_t handle;
  abi::CUstream stream;
  unsigned major = 9;
  bool find = false;  // time every algorithm first (cudnnFindConvolutionForwardAlgorithmEx), as torch.backends.cudnn.benchmark does
  int warmups = 3, timed_calls = 20, repeats = 3;
  std::optional<DevicePeak> peak;
  int warmup_ms = 0;  // besides `warmups` calls, keep calling for this long (the GPU's clocks ramp up)
};

/// x, w and y's descriptors and the convolution's (fp16 NHWC with tensor-core math, or fp32 NCHW with
/// FMA), destroyed with it. Needs no GPU: cuDNN checks them on the CPU.
class ConvDescriptors {
public:
  static Expected<ConvDescriptors, int> make(const Api& api, const ConvShape& s, bool fp16);
  ~ConvDescriptors();
  ConvDescriptors(ConvDescriptors&& o) noexcept;
  ConvDescriptors(const ConvDescriptors&) = delete;
  ConvDescriptors& operator=(const ConvDescriptors&) = delete;
  ConvDescriptors& operator=(ConvDescriptors&&) = delete;

  abi::cudnnTensorDescriptor_t x = nullptr, y = nullptr;
  abi::cudnnFilterDescriptor_t w = nullptr;
  abi::cudnnConvolutionDescriptor_t conv = nullptr;
  int n = 0, k = 0, p = 0, q = 0;  // y's dimensions as cuDNN computes them

private:
  explicit ConvDescriptors(const Api& api) : m_api(&api) {}
  const Api* m_api;
};

/// The layer timed: median and fastest ms per call, TFLOP/s, % of the peak.
LayerResult time_layer(const LayerRun& run, const ConvShape& s, bool fp16);

/// The unfused conv + bias + ReLU the fused graph replaces, timed: the fp16 NHWC convolution of
/// time_layer (the same algorithm choice), then cudnnAddTensor and cudnnActivationForward in place.
LayerResult time_unfused(const LayerRun& run, const ConvShape& s);

/// fp32 NCHW: check.y = conv(check.x, check.w) computed once on the GPU (the correctness check); the
/// result's error says what failed.
LayerResult run_layer_once(const LayerRun& run, ConvCheckData& check);

} // namespace cudnnctl

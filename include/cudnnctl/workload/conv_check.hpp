#pragma once
// The workload's correctness check, one for both convolutions it runs (the legacy fp32 one and the fused
// fp16 conv + bias + ReLU graph): a small convolution's inputs made on the host, the result the CPU
// computes for them, and the GPU's result held against it.
#include <vector>

#include "cudnnctl/workload/conv_shape.hpp"

namespace cudnnctl {

/// A check's host side: its shape, its inputs (NCHW floats) and where the GPU's result is read back.
struct ConvCheckData {
  ConvShape shape;
  std::vector<float> x, w;
  std::vector<float> bias;  // k values; empty for a check with no bias and ReLU
  std::vector<float> y;     // the GPU's result, NCHW
};

/// Inputs of `s` that fp16 holds exactly: x in steps of 1/8 in [-6/8, 6/8], w in steps of `w_step` in
/// [-5, 5]·w_step, and with `bias_relu` k biases in steps of 1/2 in [-1, 1].
ConvCheckData conv_check_data(const ConvShape& s, float w_step, bool bias_relu);

/// conv(x, w) on the CPU, NCHW in and out.
std::vector<float> reference_conv(const std::vector<float>& x, const std::vector<float>& w, const ConvShape& s);
/// max(0, conv(x, w) + bias[k]) on the CPU, NCHW in and out.
std::vector<float> reference_conv_bias_relu(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& bias,
                                            const ConvShape& s);

struct CheckVerdict {
  bool ok = false;
  double max_error = 1e30;  // 1e30 when there is no result to compare
};

/// d.y against the CPU's result for d (with bias and ReLU when d has a bias): ok when both have the same
/// size and every element is within abs_tol + rel_tol·|reference|.
CheckVerdict judge_check(const ConvCheckData& d, double abs_tol, double rel_tol);

} // namespace cudnnctl

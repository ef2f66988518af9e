#pragma once
// Private to the workload: why one step of a timed layer failed, for the plain convolution (conv_layer.cpp)
// and the fused graph (fused_conv.cpp) alike.
#include <string>
#include <utility>

namespace cudnnctl {

// cuDNN's status (-1: a driver call failed) and the decoded text
struct StepFailure {
  int status = -1;
  std::string error;
};

inline StepFailure driver_failure(std::string what) { return {-1, std::move(what)}; }

} // namespace cudnnctl

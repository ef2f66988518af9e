#pragma once
// The timed GPU convolution: the ResNet-50 layer set (cudnn-runtime.md section 5) in fp16 NHWC with
// tensor cores and fp32 NCHW with FMA math, and the fused conv+bias+ReLU beside the unfused sequence,
// through the driver API and cuDNN loaded at run time. Runs in a child process of cudnnctl (a crash or
// hang cannot take cudnnctl down) that prints one JSON line a step (child/child_channel.hpp).
#include <iosfwd>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/workload/conv_shape.hpp"
#include "cudnnctl/workload/results.hpp"

namespace cudnnctl {

struct WorkloadRequest {
  std::string cudnn_library;   // full path of libcudnn.so.N / cudnn64_N.dll
  unsigned major = 9;
  std::string driver_library = "libcuda.so.1";
  bool quick = true;
  bool fused = false;  // also the fused conv+bias+ReLU through the graph API, beside the unfused sequence
  int warmups = 3;
  int timed_calls = 20;
  int repeats = 3;
  int warmup_ms = 200;  // the first timed layer runs this long before timing, so the GPU's clocks are up
};

/// The child's side (`cudnnctl __workload`): runs the request, printing JSON lines to `out`.
int run_workload_child(const WorkloadRequest& request, std::ostream& out);
/// The parent's side: runs `self_exe __workload ...` with a time limit and reads what it printed.
Result<WorkloadResult> run_workload(const std::string& self_exe, const WorkloadRequest& request, int timeout_ms);

/// What a cuDNN failure during the workload most likely means.
std::string workload_failure_cause(int status, unsigned major);

} // namespace cudnnctl

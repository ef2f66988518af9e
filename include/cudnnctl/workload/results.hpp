#pragma once
// What the GPU workload measured: one row per layer and precision, the fused conv+bias+ReLU
// comparison, and the whole run. Mapped to JSON in one place (workload/workload_json.hpp).
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/workload/conv_shape.hpp"

namespace cudnnctl {

struct LayerResult {
  std::string layer;
  std::string precision;  // "fp16 NHWC" or "fp32 NCHW"
  std::string algo;
  std::string math;
  double workspace_mib = 0;
  double median_ms = 0;
  double min_ms = 0;
  double tflops = 0;
  std::optional<double> pct_of_peak;
  int status = 0;          // cuDNN status (0 ok; -1 a driver call failed)
  std::string error;       // decoded, with the likely cause
};

/// One layer of the fused conv+bias+ReLU comparison (workload/fused_conv.hpp).
struct FusedLayerResult {
  std::string layer;
  double fused_ms = 0, fused_min_ms = 0;
  double unfused_ms = 0, unfused_min_ms = 0;
  double fused_tflops = 0;  // the convolution's FLOPs over the fused time
  double speedup = 0;       // unfused time / fused time
  double workspace_mib = 0;
  int engine_config = -1;   // which of the heuristics' engine configs ran (0 = its first choice)
  int configs_tried = 0;
  int status = 0;
  std::string error;        // decoded, with the step that failed
};

struct FusedResult {
  bool attempted = false;
  bool correctness_ok = false;
  double correctness_max_error = 0;
  std::string correctness_error;
  std::vector<FusedLayerResult> layers;
  std::string error;  // a failure before any layer ran (no graph API)
};

struct WorkloadResult {
  std::string device;
  int cc_major = 0, cc_minor = 0;
  std::optional<DevicePeak> peak;
  bool correctness_ok = false;
  double correctness_max_error = 0;
  std::vector<LayerResult> layers;
  std::string error;        // a failure before any layer ran
  FusedResult fused;         // with WorkloadRequest::fused
  double wall_ms = 0;
  bool completed = false;
};

} // namespace cudnnctl

#pragma once
// The timed GPU convolution: the ResNet-50 layer set (cudnn-runtime.md section 5) in fp16 NHWC with
// tensor cores and fp32 NCHW with FMA math, through the driver API and cuDNN loaded at run time. Runs
// in the doctor's child process (a crash or hang cannot take cudnnctl down) and prints JSON lines.
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct ConvShape {
  std::string name;
  int n, c, h, w, k, r, s, stride, pad;
  int p() const { return (h + 2 * pad - r) / stride + 1; }
  int q() const { return (w + 2 * pad - s) / stride + 1; }
  double flops() const { return 2.0 * n * k * p() * q() * c * r * s; }  // 2·N·K·P·Q·C·R·S
};

/// quick (doctor): res2/res4/res5 3x3 and res3 1x1 at N=64; full (bench): all seven layers.
std::vector<ConvShape> resnet50_layers(bool quick);

struct DevicePeak {
  double fp16_dense_tflops;
  double fp32_tflops;
  std::string source;
};
/// Datasheet peaks by device name; nullopt for a device not in the table (no % is reported then).
std::optional<DevicePeak> peak_for(const std::string& device_name);

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
  int status = 0;          // cuDNN status (0 ok)
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

struct WorkloadRequest {
  std::string cudnn_library;   // full path of libcudnn.so.N / cudnn64_N.dll
  unsigned major = 9;
  std::string driver_library = "libcuda.so.1";
  bool quick = true;
  bool fused = false;  // also the fused conv+bias+ReLU through the graph API, beside the unfused sequence
  int warmups = 3;
  int timed_calls = 20;
  int repeats = 3;
};

int run_workload_child(const WorkloadRequest& request, std::ostream& out);
Result<WorkloadResult> run_workload(const std::string& self_exe, const WorkloadRequest& request, int timeout_ms);

/// The fused comparison as the child prints it and the parent reads it back.
nlohmann::json fused_json(const FusedResult& f);
FusedResult fused_from_json(const nlohmann::json& j);

/// What a cuDNN failure during the workload most likely means.
std::string workload_failure_cause(int status, unsigned major);

/// The reference result of a small fp32 NCHW convolution, computed on the CPU.
std::vector<float> reference_conv(const std::vector<float>& x, const std::vector<float>& w, const ConvShape& s);

} // namespace cudnnctl

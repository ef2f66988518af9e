#pragma once
// The convolutions the workload times: the ResNet-50 layer set (cudnn-runtime.md section 5), their
// FLOPs, the datasheet peaks they are compared with, and the CPU reference a result is checked against.
#include <optional>
#include <string>
#include <vector>

namespace cudnnctl {

struct ConvShape {
  std::string name;
  int n, c, h, w, k, r, s, stride, pad;
  int p() const { return (h + 2 * pad - r) / stride + 1; }
  int q() const { return (w + 2 * pad - s) / stride + 1; }
  double flops() const { return 2.0 * n * k * p() * q() * c * r * s; }  // 2·N·K·P·Q·C·R·S
  double tflops_at(double ms) const { return flops() / (ms / 1e3) / 1e12; }  // TFLOP/s at `ms` a call
};

/// quick (doctor): res2/res4/res5 3x3 and res3 1x1 at N=64; full (bench): all seven layers.
std::vector<ConvShape> resnet50_layers(bool quick);

/// The layers the fused conv+bias+ReLU runs on: fp16 NHWC engines need channels in multiples of 8
/// (the stem's 3 input channels are left out).
std::vector<ConvShape> fusable_layers(const std::vector<ConvShape>& layers);

struct DevicePeak {
  double fp16_dense_tflops;
  double fp32_tflops;
  std::string source;
};
/// Datasheet peaks by device name; nullopt for a device not in the table (no % is reported then).
std::optional<DevicePeak> peak_for(const std::string& device_name);

} // namespace cudnnctl

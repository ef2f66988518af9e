#include "cudnnctl/workload/conv_shape.hpp"

#include <cstddef>

namespace cudnnctl {

std::vector<ConvShape> resnet50_layers(bool quick) {
  // N = 64; MLPerf ResNet-50 v1.5 shapes (cudnn-runtime.md section 5)
  std::vector<ConvShape> quick_set = {{"res2 3x3", 64, 64, 56, 56, 64, 3, 3, 1, 1},
                                      {"res4 3x3", 64, 256, 14, 14, 256, 3, 3, 1, 1},
                                      {"res5 3x3", 64, 512, 7, 7, 512, 3, 3, 1, 1},
                                      {"res3 1x1 expand", 64, 128, 28, 28, 512, 1, 1, 1, 0}};
  if (quick) return quick_set;
  std::vector<ConvShape> full = {{"conv1 stem 7x7", 64, 3, 224, 224, 64, 7, 7, 2, 3}};
  full.insert(full.end(), quick_set.begin(), quick_set.end());
  full.push_back({"res3 3x3", 64, 128, 28, 28, 128, 3, 3, 1, 1});
  full.push_back({"res4 1x1 reduce", 64, 1024, 14, 14, 256, 1, 1, 1, 0});
  return full;
}

std::optional<DevicePeak> peak_for(const std::string& name) {
  // dense tensor-core fp16 and non-tensor fp32, NVIDIA datasheets as collected in cudnn-runtime.md section 5
  if (name.find("H200 NVL") != std::string::npos) return DevicePeak{835, 60, "NVIDIA H200 datasheet (NVL column)"};
  if (name.find("H200") != std::string::npos) return DevicePeak{989, 67, "NVIDIA H200 datasheet (SXM, dense)"};
  if (name.find("H100") != std::string::npos && name.find("PCIe") == std::string::npos)
    return DevicePeak{989.4, 66.9, "NVIDIA H100 SXM datasheet (dense)"};
  if (name.find("A100") != std::string::npos) return DevicePeak{312, 19.5, "NVIDIA A100 datasheet (dense)"};
  return std::nullopt;
}

std::vector<ConvShape> fusable_layers(const std::vector<ConvShape>& layers) {
  std::vector<ConvShape> out;
  for (const auto& s : layers)
    if (s.c % 8 == 0 && s.k % 8 == 0) out.push_back(s);
  return out;
}


} // namespace cudnnctl

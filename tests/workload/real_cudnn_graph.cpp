// Every graph the workload builds, against the real libcudnn of this machine, without a GPU (label
// real_cudnn): the legacy descriptors of each plain layer (fp16 NHWC and fp32 NCHW) with cuDNN's own
// output shape, and each fused conv+bias+ReLU graph up to finalized execution plans for an H200
// described by its properties (CUDNN_BACKEND_DEVICEPROP_DESCRIPTOR, cuDNN >= 9.8), no handle. The real
// library checks what the fake cannot: alignments, attribute counts, shapes that do not add up, an
// operation missing an input. Prints SKIP (CTest shows the test as skipped) when the library is absent.
//   real_cudnn_graph LIBCUDNN DEVICE_JSON
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/gpu/loaded_api.hpp"
#include "cudnnctl/gpu/status_names.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/workload/conv_layer.hpp"
#include "cudnnctl/workload/conv_shape.hpp"
#include "cudnnctl/workload/fused_conv.hpp"

using namespace cudnnctl;

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: real_cudnn_graph LIBCUDNN DEVICE_JSON\n");
    return 2;
  }
  const std::string lib_path = argv[1];
  if (!std::filesystem::exists(lib_path)) {
    std::printf("SKIP: no real cuDNN at %s (this test needs the toolkit's libcudnn, no GPU)\n", lib_path.c_str());
    return 0;
  }
  auto lib = platform::load_library(lib_path);
  if (!lib) {
    std::printf("FAIL: %s does not load: %s\n", lib_path.c_str(), lib.error().message.c_str());
    return 1;
  }
  using Version = std::size_t (*)();
  const auto version = reinterpret_cast<Version>(platform::find_symbol(*lib, "cudnnGetVersion"));
  const std::size_t v = version ? version() : 0;
  if (v < 90800) {
    std::printf("SKIP: cuDNN %zu has no device-properties descriptor (9.8 and later)\n", v);
    return 0;
  }
  std::vector<std::string> missing;
  const Api api = load_api(*lib, nullptr, missing);
  if (!missing.empty() || !api.has_graph_api()) {
    std::printf("FAIL: symbols missing from %s\n", lib_path.c_str());
    return 1;
  }
  std::ifstream in(argv[2]);
  const auto device = nlohmann::json::parse(in, nullptr, false);
  if (device.is_discarded() || !device.contains("cudnn_device_properties")) {
    std::printf("FAIL: %s is not a device file (cudnn_device_properties)\n", argv[2]);
    return 1;
  }
  const unsigned major = static_cast<unsigned>(v / 10000);
  auto props = DeviceProperties::from_json(api, major, device["cudnn_device_properties"].dump());
  if (!props) {
    std::printf("FAIL: %s\n", props.error().c_str());
    return 1;
  }
  std::printf("cuDNN %zu, device %s (%s)\n", v, device.value("device", "?").c_str(), device.value("recorded_from", "?").c_str());

  int failures = 0;
  // the plain layers as the workload runs them (legacy API), and its correctness check
  auto plain = resnet50_layers(false);
  plain.push_back({"check 3x3", 1, 4, 6, 6, 4, 3, 3, 1, 1});
  for (const auto& s : plain)
    for (const bool fp16 : {true, false}) {
      const auto d = ConvDescriptors::make(api, s, fp16);
      const bool shape_ok = d && d->n == s.n && d->k == s.k && d->p == s.p() && d->q == s.q();
      std::printf("%-5s %-18s %-9s legacy descriptors: %s\n", shape_ok ? "ok" : "FAIL", s.name.c_str(), fp16 ? "fp16 NHWC" : "fp32 NCHW",
                  !d          ? cudnn_status_name(d.error(), major).c_str()
                  : shape_ok ? fmt::format("y {}x{}x{}x{}", d->n, d->k, d->p, d->q).c_str()
                             : fmt::format("y {}x{}x{}x{}, the workload expects {}x{}x{}x{}", d->n, d->k, d->p, d->q, s.n, s.k, s.p(), s.q()).c_str());
      failures += !shape_ok;
    }
  // the fused graphs: every fusable layer and the fused correctness check, up to four plans each
  auto fused = fusable_layers(resnet50_layers(false));
  fused.push_back({"check 3x3 + bias + ReLU", 1, 8, 6, 6, 8, 3, 3, 1, 1});
  const GraphTarget h200{nullptr, props->descriptor()};
  for (const auto& s : fused) {
    const auto r = plan_fused_layer(api, h200, s, major, 4);
    const bool ok = r.status == 0 && r.plans >= 1;
    std::printf("%-5s %-24s fused graph: %s\n", ok ? "ok" : "FAIL", s.name.c_str(),
                ok ? fmt::format("{} engine configs, {} of {} plans finalized, workspace up to {} B", r.configs, r.plans, r.tried, r.max_workspace).c_str()
                   : r.error.c_str());
    failures += !ok;
  }
  if (failures) {
    std::printf("FAIL: %d graphs the real cuDNN rejects\n", failures);
    return 1;
  }
  std::printf("all %zu plain and %zu fused graphs accepted by the real cuDNN\n", plain.size() * 2, fused.size());
  return 0;
}

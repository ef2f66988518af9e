#include <catch2/catch.hpp>

#include <vector>

#include "cudnnctl/explain/capability_statement.hpp"

using namespace cudnnctl;

TEST_CASE("capabilities parse in every spelling frameworks print", "[capability]") {
  struct Row {
    const char* text;
    int major, minor;
  };
  const Row table[] = {{"8.6", 8, 6}, {"86", 8, 6}, {"sm_86", 8, 6}, {"compute_90", 9, 0}, {"sm_90a", 9, 0}, {"120", 12, 0},
                       {"sm_120", 12, 0}, {"12.0", 12, 0}, {"3.5", 3, 5}, {" 7.5 ", 7, 5}};
  for (const auto& r : table) {
    INFO(r.text);
    const auto cc = parse_capability(r.text);
    REQUIRE(cc);
    CHECK(cc->major == r.major);
    CHECK(cc->minor == r.minor);
  }
  CHECK_FALSE(parse_capability("sm_"));
  CHECK_FALSE(parse_capability("8.6.1"));
  CHECK_FALSE(parse_capability("eighty"));
}

// CUDA's rules: a cubin runs on its major with an equal or newer minor; PTX is JIT-compiled for any newer GPU;
// an arch-specific cubin (sm_90a) runs on that capability only.
TEST_CASE("capability_fit decides from the numbers whether a build runs on a GPU", "[capability]") {
  struct Row {
    const char* gpu;
    const char* build;
    CapabilityFit fit;
  };
  const Row table[] = {
      {"8.6", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", CapabilityFit::native},
      {"8.6", "sm_50 sm_60 sm_70 sm_75 sm_80", CapabilityFit::same_major},
      {"8.9", "sm_80 sm_86", CapabilityFit::same_major},
      {"12.0", "sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90", CapabilityFit::gpu_too_new},
      {"12.0", "sm_50 sm_80 sm_90 compute_90", CapabilityFit::ptx_jit},
      {"9.0", "sm_80 compute_80", CapabilityFit::ptx_jit},
      {"3.0", "sm_35 sm_50 sm_60", CapabilityFit::gpu_too_old},
      {"3.5", "sm_37 sm_50 compute_37", CapabilityFit::gpu_too_old},
      {"9.0", "sm_90a", CapabilityFit::native},
      {"10.3", "sm_100a", CapabilityFit::gpu_too_new},  // arch-specific code runs on 10.0 only
      {"8.7", "sm_80", CapabilityFit::same_major},
      {"7.0", "sm_75 sm_80", CapabilityFit::gpu_too_old},
  };
  for (const auto& r : table) {
    INFO(r.gpu << " on " << r.build);
    const auto build = build_targets_in(r.build);
    CHECK(capability_fit(*parse_capability(r.gpu), build) == r.fit);
  }
}

TEST_CASE("capability statements yield the GPU, the build's range and what follows", "[capability]") {
  struct Row {
    const char* line;
    const char* gpu;      // "" : none stated
    std::size_t targets;
    const char* minimum;  // "" : none
    bool refused;
    bool fit_known;
    CapabilityFit fit;
  };
  const Row table[] = {
      {"NVIDIA GeForce RTX 5070 Laptop GPU with CUDA capability sm_120 is not compatible with the current PyTorch installation. The current "
       "PyTorch install supports CUDA capabilities sm_37 sm_50 sm_60 sm_61 sm_70 sm_75 sm_80 sm_86 sm_90 compute_37.",
       "12.0", 10, "", true, true, CapabilityFit::ptx_jit},
      {"GeForce RTX 3080 with CUDA capability sm_86 is not compatible with the current PyTorch installation.", "8.6", 0, "", true, false,
       CapabilityFit::native},
      {"The current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.", "", 7, "", false, false,
       CapabilityFit::native},
      {"Found GPU0 GeForce GT 720 which is of cuda capability 3.5. PyTorch no longer supports this GPU because it is too old. The minimum cuda "
       "capability supported by this library is 3.7.",
       "3.5", 0, "3.7", true, true, CapabilityFit::gpu_too_old},
      {"    PyTorch no longer supports this GPU because it is too old.", "", 0, "", true, false, CapabilityFit::native},
      {"W tensorflow/core/common_runtime/gpu/gpu_device.cc:2431] TensorFlow was not built with CUDA kernel binaries compatible with compute "
       "capability 12.0. CUDA kernels will be jit-compiled from PTX, which could take 30 minutes or longer.",
       "12.0", 0, "", false, true, CapabilityFit::ptx_jit},
      {"Ignoring visible gpu device (device: 0, name: Tesla K40m, pci bus id: 0000:02:00.0, compute capability: 3.5) with Cuda compute "
       "capability 3.5. The minimum required Cuda capability is 3.7.",
       "3.5", 0, "3.7", true, true, CapabilityFit::gpu_too_old},
  };
  for (const auto& r : table) {
    INFO(r.line);
    const auto c = capability_statement_in(r.line);
    REQUIRE(c);
    CHECK((c->gpu ? c->gpu->text() : std::string()) == r.gpu);
    CHECK(c->build.size() == r.targets);
    CHECK((c->minimum ? c->minimum->text() : std::string()) == r.minimum);
    CHECK(c->gpu_refused == r.refused);
    REQUIRE(c->fit.has_value() == r.fit_known);
    if (r.fit_known) CHECK(*c->fit == r.fit);
  }
  CHECK_FALSE(capability_statement_in("Device 0: compute capability 8.6, 82 SMs"));
  CHECK_FALSE(capability_statement_in("loss 0.3 at step 86"));
}

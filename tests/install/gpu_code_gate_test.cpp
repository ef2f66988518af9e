#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cudnnctl/install/gpu_code_gate.hpp"

#include "../archive/test_archives.hpp"
#include "../loader/crafted_fatbin.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {

void write_bytes(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

// SASS sm_75, sm_80, sm_86, sm_90: what a release built before sm_120 carries
std::string sm75_to_sm90() {
  return crafted_container({{.kind = 2, .arch = 75}, {.kind = 2, .arch = 80}, {.kind = 2, .arch = 86}, {.kind = 2, .arch = 90}});
}

} // namespace

TEST_CASE("GPU-code gate: a Windows archive's staged bin/ folder is judged by its DLLs' fat binaries", "[gpu_code_gate]") {
  TempDir tmp;
  const auto bin = tmp.path() / "cudnn-windows-x86_64-9.1.0.70_cuda12-archive" / "bin";
  write_bytes(bin / "cudnn64_9.dll", crafted_pe_with_section(".rdata", "no GPU code in the main library"));
  write_bytes(bin / "cudnn_ops64_9.dll", crafted_pe_with_section(".nv_fatb", sm75_to_sm90()));
  write_bytes(bin / "cudnn_engines_precompiled64_9.dll", crafted_pe_with_section(".nv_fatb", sm75_to_sm90()));
  const std::string dir = bin.string() + "/";  // as the installer names it

  const auto refused = check_gpu_code_for_devices(dir, {{"NVIDIA GeForce RTX 5090", {12, 0}}}, "cudnn-windows.zip");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::no_gpu_code);
  CHECK_THAT(refused.error().message, Catch::Contains("GPU 0 NVIDIA GeForce RTX 5090 (compute 12.0) has no code in "
                                                      "cudnn_engines_precompiled64_9.dll, cudnn_ops64_9.dll"));
  CHECK_THAT(refused.error().message, Catch::Contains("sm_75 sm_80 sm_86 sm_90"));
  CHECK_THAT(refused.error().message, !Catch::Contains("cudnn64_9.dll"));  // no fat binary: not judged
  CHECK_THAT(refused.error().hint, Catch::Contains("sm_120"));

  CHECK(check_gpu_code_for_devices(dir, {{"NVIDIA H100", {9, 0}}, {"NVIDIA A10", {8, 6}}}, "cudnn-windows.zip"));
  CHECK(check_gpu_code_for_devices(dir, {}, "cudnn-windows.zip"));  // no GPU: nothing to compare
  const auto old = check_gpu_code_for_devices(dir, {{"H100", {9, 0}}, {"GTX 1080", {6, 1}}}, "cudnn-windows.zip");
  REQUIRE_FALSE(old);
  CHECK_THAT(old.error().message, Catch::Contains("GPU 1 GTX 1080 (compute 6.1)"));
  CHECK_THAT(old.error().message, !Catch::Contains("GPU 0"));
}

TEST_CASE("GPU-code gate: PTX in a DLL the driver can compile for the GPU lets it through", "[gpu_code_gate]") {
  TempDir tmp;
  const auto bin = tmp.path() / "bin";
  write_bytes(bin / "cudnn_ops64_9.dll", crafted_pe_with_section(".nv_fatb", sm75_to_sm90() + crafted_container({{.kind = 1, .arch = 90}})));
  CHECK(check_gpu_code_for_devices(bin.string(), {{"NVIDIA GeForce RTX 5090", {12, 0}}}, "cudnn-windows.zip"));
}

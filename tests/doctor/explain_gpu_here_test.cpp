#include <catch2/catch.hpp>

#include <filesystem>

#include "../archive/test_archives.hpp"
#include "../skip.hpp"

#include "cudnnctl/doctor/explain_gpu_here.hpp"
#include "cudnnctl/explain/signatures.hpp"

using namespace cudnnctl;

namespace {

ExplainMatch match_of(std::string_view id) {
  ExplainMatch m;
  m.signature = &signature(id);
  return m;
}

FatbinEntry here_entry(FatbinKind kind, unsigned arch, std::uint16_t isa_major = 0) {
  FatbinEntry e;
  e.kind = kind;
  e.arch.number = arch;
  e.ptx_isa_major = isa_major;
  return e;
}

// a cuDNN for CUDA 13 built for sm_75..sm_90 with PTX compute_90 (ISA 9.0), and one library without PTX
GpuHereFacts facts_with(std::vector<GpuDevice> devices, std::string driver_version = "", std::optional<int> api = 13000) {
  GpuHereFacts f;
  f.os = Os::linux_os;
  f.machine.driver_found = true;
  f.machine.devices = std::move(devices);
  f.machine.driver_version = std::move(driver_version);
  f.machine.driver_api_version = api;
  f.cudnn_dir = "/opt/cudnn/lib";
  GpuCode ops;
  ops.has_fatbin = true;
  ops.entries = {here_entry(FatbinKind::sass, 75), here_entry(FatbinKind::sass, 90), here_entry(FatbinKind::ptx, 90, 9)};
  GpuCode precompiled;
  precompiled.has_fatbin = true;
  precompiled.entries = {here_entry(FatbinKind::sass, 75), here_entry(FatbinKind::sass, 80), here_entry(FatbinKind::sass, 90)};
  f.libraries = {{"/opt/cudnn/lib/libcudnn_engines_precompiled.so.9", precompiled}, {"/opt/cudnn/lib/libcudnn_ops.so.9", ops}};
  return f;
}

} // namespace

TEST_CASE("explain --here: the message families that ask about the GPU and the driver", "[explain_gpu_here]") {
  CHECK(gpu_message_family(match_of("device.arch.too-new-gpu")) == GpuMessageFamily::kernel);
  CHECK(gpu_message_family(match_of("device.arch.dropped")) == GpuMessageFamily::kernel);
  CHECK(gpu_message_family(match_of("device.arch.program-build")) == GpuMessageFamily::kernel);
  CHECK(gpu_message_family(match_of("driver.version")) == GpuMessageFamily::driver);
  CHECK(gpu_message_family(match_of("driver.stub")) == GpuMessageFamily::none);
  CHECK(gpu_message_family(ExplainMatch{}) == GpuMessageFamily::none);
}

TEST_CASE("explain --here: each GPU against the cuDNN's code", "[explain_gpu_here]") {
  // sm_120: plain PTX compute_90 in libcudnn_ops JITs on it, but the precompiled engines have nothing
  const auto rtx = gpu_here_findings(facts_with({{"NVIDIA GeForce RTX 5090", {12, 0}}}), GpuMessageFamily::kernel);
  REQUIRE(rtx.size() == 1);
  CHECK_THAT(rtx[0], Catch::StartsWith("GPU 0 NVIDIA GeForce RTX 5090 is sm_120 (compute 12.0); the libcudnn_engines_precompiled.so.9 at "
                                       "/opt/cudnn/lib/libcudnn_engines_precompiled.so.9 carries SASS sm_75 sm_80 sm_90: no kernel for it; "
                                       "fix: install a cuDNN built for sm_120"));
  // two GPUs: one served, one not
  const auto two = gpu_here_findings(facts_with({{"H100", {9, 0}}, {"GTX 1080", {6, 1}}}), GpuMessageFamily::kernel);
  REQUIRE(two.size() == 2);
  CHECK_THAT(two[0], Catch::Contains("GPU 0 H100 is sm_90") && Catch::Contains("has code for it in every library (sm_90 in") &&
                         Catch::Contains("device.arch.program-build"));
  CHECK_THAT(two[1], Catch::Contains("GPU 1 GTX 1080 is sm_61") && Catch::Contains("no kernel for it"));
  // what is not known is said, not guessed
  auto none = facts_with({});
  CHECK(gpu_here_findings(none, GpuMessageFamily::kernel) == std::vector<std::string>{"the driver sees no GPU here"});
  none.machine.driver_found = false;
  CHECK_THAT(gpu_here_findings(none, GpuMessageFamily::kernel)[0], Catch::Contains("no NVIDIA driver answered"));
  auto no_cudnn = facts_with({{"H100", {9, 0}}});
  no_cudnn.libraries.clear();
  no_cudnn.cudnn_dir.clear();
  CHECK_THAT(gpu_here_findings(no_cudnn, GpuMessageFamily::kernel)[0], Catch::Contains("no cuDNN on this machine's loader search order"));
  CHECK(gpu_here_findings(facts_with({{"H100", {9, 0}}}), GpuMessageFamily::none).empty());
}

TEST_CASE("explain --here: the driver against NVIDIA's floor for the cuDNN's CUDA major", "[explain_gpu_here]") {
  CHECK(cuda_major_of_ptx(facts_with({}).libraries) == 13u);
  CHECK_FALSE(cuda_major_of_ptx({}).has_value());
  const auto old = gpu_here_findings(facts_with({}, "550.54.15", 12040), GpuMessageFamily::driver);
  REQUIRE(old.size() == 1);
  CHECK_THAT(old[0], Catch::StartsWith("driver 550.54.15 runs CUDA up to 12.4; the cuDNN at /opt/cudnn/lib is for CUDA 13 (NVIDIA's "
                                       "floor: 580.65.06): update the driver to 580.65.06 or newer"));
  // the floor by version alone (no API version read)
  CHECK_THAT(gpu_here_findings(facts_with({}, "575.51.03", std::nullopt), GpuMessageFamily::driver)[0],
             Catch::Contains("update the driver to 580.65.06"));
  const auto fine = gpu_here_findings(facts_with({}, "580.95.05", 13000), GpuMessageFamily::driver);
  CHECK_THAT(fine[0], Catch::Contains("new enough for it") && !Catch::Contains("update the driver"));
  auto no_ptx = facts_with({}, "550.54.15", 12040);
  no_ptx.libraries.resize(1);  // the precompiled engines only: SASS, no PTX to tell the CUDA major
  CHECK_THAT(gpu_here_findings(no_ptx, GpuMessageFamily::driver)[0], Catch::Contains("is not known"));
}

TEST_CASE("explain --here: the cuDNN folder's libraries come from the loader's one scan, each file once, others left out",
          "[explain_gpu_here]") {
  namespace fs = std::filesystem;
  const fs::path real = "/usr/local/cuda/lib64/libcudnn_cnn.so.9";
  if (!fs::exists(real)) CUDNNCTL_SKIP("no cuDNN 9 in /usr/local/cuda/lib64 to copy");
  TempDir tmp;
  const auto dir = tmp.path();
  fs::copy_file(real, dir / "libcudnn_cnn.so.9.19.0");
  fs::create_symlink("libcudnn_cnn.so.9.19.0", dir / "libcudnn_cnn.so.9");  // the link is not read a second time
  fs::copy_file(real, dir / "libother_kernels.so.1");                        // GPU code, but not cuDNN's
  fs::copy_file(real, dir / "libcudnn_cnn.a");                              // not a library a loader maps
  const auto libs = cudnn_code_in(dir.string());
  REQUIRE(libs.size() == 1);
  CHECK(fs::path(libs[0].path).filename() == "libcudnn_cnn.so.9.19.0");
  CHECK_FALSE(libs[0].code.entries.empty());
  CHECK(cudnn_code_in((dir / "missing").string()).empty());
}

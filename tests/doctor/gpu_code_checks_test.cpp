// The GPU-code checks (files.gpu_code, bundles.gpu_code, device.gpu_code): gathered through a FakeSystem whose
// libraries' fat binaries are the image's real cuDNN 9.19 ones or a library nvcc builds here, with a scripted
// probe whose GPU has the compute capability under test.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "../skip.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

const std::string k_real_lib = "/usr/local/cuda/lib64";
const char* const k_real_names[] = {"libcudnn.so.9", "libcudnn_adv.so.9", "libcudnn_cnn.so.9", "libcudnn_engines_precompiled.so.9",
                                    "libcudnn_engines_runtime_compiled.so.9", "libcudnn_graph.so.9", "libcudnn_heuristic.so.9", "libcudnn_ops.so.9"};

// A Linux toolkit whose lib64 lists cuDNN 9's libraries, a probe that loads them, a driver and one GPU.
struct GpuSetup {
  TempDir tmp;
  std::filesystem::path root = linux_toolkit(tmp.path(), "13.0");
  std::string lib = (root / "lib64").string();
  FakeSystem sys;
  DoctorOptions o;
  explicit GpuSetup(int cc_major, int cc_minor, const std::string& gpu = "NVIDIA Test GPU") {
    ProbeResult p;
    p.version = 91900;
    p.driver_loaded = true;
    p.cu_init = 0;
    p.devices = {{gpu, cc_major, cc_minor}};
    sys.probe_result = p;
    o.cuda_path = root.string();
    o.only_checks = {"files.gpu_code", "device.gpu_code"};
    sys.dirs[lib] = {"libcudnn.so.9"};  // the main library names the major (it carries no GPU code)
  }
  // lists `name` in lib64 with the GPU code read from `real` (a file on this machine)
  void library(const std::string& name, const std::string& real) {
    if (name != "libcudnn.so.9") sys.dirs[lib].push_back(name);
    sys.gpu_code.emplace(lib + "/" + name, read_gpu_code_file(real));
  }
  DoctorReport run() { return run_doctor(o, platform::MapEnvironment(std::map<std::string, std::string>{}), sys); }
};

const Check* find_gpu_check(const DoctorReport& r, const std::string& id, CheckStatus status) {
  for (const auto& c : r.checks)
    if (c.id == id && c.status == status) return &c;
  return nullptr;
}

bool real_cudnn_here() { return std::filesystem::exists(k_real_lib + "/libcudnn_ops.so.9"); }

// A shared library nvcc builds here for `gencode` (SASS sm_75..sm_90 only, say); empty when there is no nvcc.
std::string nvcc_library(const TempDir& tmp, const std::string& gencode) {
  const std::string nvcc = "/usr/local/cuda/bin/nvcc";
  if (!std::filesystem::exists(nvcc)) return {};
  const auto cu = tmp.path() / "scale.cu", so = tmp.path() / "libscale.so";
  put(cu, "__global__ void scale(float* x) { x[threadIdx.x] *= 2.0f; }\nextern \"C\" void launch(float* x) { scale<<<1, 32>>>(x); }\n");
  const auto cmd = nvcc + " -shared -Xcompiler -fPIC -o '" + so.string() + "' '" + cu.string() + "' " + gencode + " >/dev/null 2>&1";
  REQUIRE(std::system(cmd.c_str()) == 0);
  return so.string();
}

} // namespace

TEST_CASE("doctor: a GeForce 10xx (sm_61) with the image's real cuDNN 9.19 fails, naming the GPU, the code found and the fix", "[doctor][gpu_code]") {
  if (!real_cudnn_here()) CUDNNCTL_SKIP("no cuDNN 9 in " + k_real_lib);
  GpuSetup s(6, 1, "NVIDIA GeForce GTX 1080");
  for (const auto* n : k_real_names) s.library(n, k_real_lib + "/" + n);
  const auto r = s.run();
  const auto* shown = find_gpu_check(r, "files.gpu_code", CheckStatus::pass);
  REQUIRE(shown);
  CHECK_THAT(shown->finding, Catch::Contains("SASS") && Catch::Contains("sm_75") && Catch::Contains("sm_90a") && Catch::Contains("compute_121"));
  const auto* failed = find_gpu_check(r, "device.gpu_code", CheckStatus::fail);
  REQUIRE(failed);
  CHECK_THAT(failed->finding, Catch::Contains("GeForce GTX 1080") && Catch::Contains("compute 6.1") && Catch::Contains("libcudnn_ops.so.9") &&
                                  Catch::Contains("sm_80") && Catch::Contains("none of it runs on sm_61"));
  CHECK_THAT(failed->fix, Catch::Contains("sm_61") && Catch::Contains("Maxwell, Pascal and Volta GPUs (compute 6.1) need cuDNN 9.10.2 or older"));
  CHECK_FALSE(failed->cause.empty());
  CHECK(doctor_exit_code(r) == ExitCode::problems_found);

  // the same libraries on an Ampere GPU (8.6: sm_80 SASS runs) and a Blackwell RTX 50 (12.0: sm_120f) pass
  for (const auto& [major, minor] : {std::pair{8, 6}, std::pair{12, 0}, std::pair{9, 0}}) {
    GpuSetup ok(major, minor);
    for (const auto* n : k_real_names) ok.library(n, k_real_lib + "/" + n);
    INFO(major << "." << minor);
    CHECK(find_gpu_check(ok.run(), "device.gpu_code", CheckStatus::pass));
  }
}

TEST_CASE("doctor: a library built for sm_75..sm_90 only fails on an sm_120 GPU and passes on sm_90", "[doctor][gpu_code]") {
  TempDir build;
  const auto so = nvcc_library(build, "-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 "
                                      "-gencode arch=compute_86,code=sm_86 -gencode arch=compute_90,code=sm_90");
  if (so.empty()) CUDNNCTL_SKIP("no nvcc in /usr/local/cuda/bin");
  GpuSetup rtx50(12, 0, "NVIDIA GeForce RTX 5090");
  rtx50.library("libcudnn.so.9", so);  // the main library without code is left out of the comparison
  rtx50.library("libcudnn_ops.so.9", so);
  const auto r = rtx50.run();
  const auto* failed = find_gpu_check(r, "device.gpu_code", CheckStatus::fail);
  REQUIRE(failed);
  CHECK_THAT(failed->finding, Catch::Contains("RTX 5090") && Catch::Contains("compute 12.0") &&
                                  Catch::Contains("SASS sm_75 sm_80 sm_86 sm_90; PTX none") && Catch::Contains("sm_120"));
  CHECK_THAT(failed->fix, Catch::Contains("sm_120"));
  GpuSetup hopper(9, 0, "NVIDIA H100");
  hopper.library("libcudnn_ops.so.9", so);
  const auto ok = hopper.run();
  CHECK(find_gpu_check(ok, "device.gpu_code", CheckStatus::pass));
  CHECK_FALSE(find_gpu_check(ok, "device.gpu_code", CheckStatus::fail));
  // PTX only (compute_80): the driver compiles it for sm_120, so that passes too
  TempDir ptx_build;
  const auto ptx = nvcc_library(ptx_build, "-gencode arch=compute_80,code=compute_80");
  GpuSetup jit(12, 0);
  jit.library("libcudnn_ops.so.9", ptx);
  CHECK(find_gpu_check(jit.run(), "device.gpu_code", CheckStatus::pass));
}

TEST_CASE("doctor: an unreadable fat binary warns, and without a driver no GPU is compared", "[doctor][gpu_code]") {
  GpuSetup s(8, 0);
  s.sys.dirs[s.lib] = {"libcudnn.so.9", "libcudnn_ops.so.9"};
  s.sys.gpu_code.emplace(s.lib + "/libcudnn_ops.so.9", Result<GpuCode>(fail(ErrorCode::archive_corrupt, "'libcudnn_ops.so.9' holds a malformed CUDA fat binary: x")));
  const auto r = s.run();
  const auto* warned = find_gpu_check(r, "files.gpu_code", CheckStatus::warn);
  REQUIRE(warned);
  CHECK_THAT(warned->finding, Catch::Contains("libcudnn_ops.so.9") && Catch::Contains("malformed"));
  CHECK_FALSE(find_gpu_check(r, "device.gpu_code", CheckStatus::pass));  // nothing with code: nothing to compare with
  CHECK_FALSE(find_gpu_check(r, "device.gpu_code", CheckStatus::fail));

  GpuSetup no_driver(8, 0);
  no_driver.sys.probe_result->driver_loaded = false;
  GpuCode code;
  code.has_fatbin = true;
  code.entries.push_back({FatbinKind::sass, 2, {75, ArchVariant::plain}, false, 0, 0, 8, 0});
  no_driver.sys.dirs[no_driver.lib] = {"libcudnn.so.9", "libcudnn_ops.so.9"};
  no_driver.sys.gpu_code.emplace(no_driver.lib + "/libcudnn_ops.so.9", code);
  const auto nd = no_driver.run();
  CHECK(find_gpu_check(nd, "files.gpu_code", CheckStatus::pass));
  CHECK_FALSE(find_gpu_check(nd, "device.gpu_code", CheckStatus::fail));
  CHECK_FALSE(find_gpu_check(nd, "device.gpu_code", CheckStatus::pass));
}

TEST_CASE("doctor: this PyTorch build has no kernels for sm_120 (a framework's CUDA library beside its cuDNN bundle)", "[doctor][gpu_code]") {
  GpuSetup s(12, 0, "NVIDIA GeForce RTX 5090");
  s.o.only_checks = {"bundles.gpu_code", "device.gpu_code_framework"};
  s.o.bundle_sites = {"/site"};
  Bundle b;
  b.dir = "/site/nvidia/cudnn/lib";
  b.files = {"libcudnn.so.9"};
  b.cudnn_major = 9;
  b.owner = BundleOwner{"nvidia-cudnn-cu12", "9.1.0.70", "/site/nvidia_cudnn_cu12-9.1.0.70.dist-info", "/site", {}, 12};
  s.sys.bundle_scan.views.push_back({b, {}});
  s.sys.files["/site/torch/lib/libtorch_cuda.so"] = "";
  GpuCode torch;
  torch.has_fatbin = true;
  for (unsigned a : {50u, 60u, 70u, 75u, 80u, 86u, 90u}) torch.entries.push_back({FatbinKind::sass, 2, {a, ArchVariant::plain}, true, 0, 0, 8, 24});
  s.sys.gpu_code.emplace("/site/torch/lib/libtorch_cuda.so", torch);
  const auto r = s.run();
  const auto* shown = find_gpu_check(r, "bundles.gpu_code", CheckStatus::pass);
  REQUIRE(shown);
  CHECK_THAT(shown->finding, Catch::Contains("PyTorch") && Catch::Contains("libtorch_cuda.so") && Catch::Contains("sm_50"));
  const auto* failed = find_gpu_check(r, "device.gpu_code_framework", CheckStatus::fail);
  REQUIRE(failed);
  CHECK_THAT(failed->finding, Catch::Contains("this PyTorch build has no kernels for sm_120") && Catch::Contains("/site/torch/lib/libtorch_cuda.so"));
  CHECK_THAT(failed->fix, Catch::Contains("cu128"));
  // an sm_86 GPU runs it
  GpuSetup ampere(8, 6);
  ampere.o.only_checks = s.o.only_checks;
  ampere.o.bundle_sites = s.o.bundle_sites;
  ampere.sys.bundle_scan = s.sys.bundle_scan;
  ampere.sys.files = s.sys.files;
  ampere.sys.gpu_code.emplace("/site/torch/lib/libtorch_cuda.so", torch);
  CHECK(find_gpu_check(ampere.run(), "device.gpu_code_framework", CheckStatus::pass));
}

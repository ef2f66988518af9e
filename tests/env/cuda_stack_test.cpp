#include <catch2/catch.hpp>

#include "cudnnctl/env/cuda_stack.hpp"

using namespace cudnnctl;

TEST_CASE("the CUDA major of a library comes from its name or its wheel folder", "[cuda_stack]") {
  CHECK(cuda_major_of_file("/usr/local/cuda/lib64/libcudart.so.13") == 13);
  CHECK(cuda_major_of_file("/venv/site-packages/nvidia/cublas/lib/libcublasLt.so.12") == 12);
  CHECK(cuda_major_of_file("libnvrtc-builtins.so.13.0") == 13);
  CHECK(cuda_major_of_file("C:\\CUDA\\v12.4\\bin\\cudart64_12.dll") == 12);
  CHECK(cuda_major_of_file("cudart64_110.dll") == 11);
  CHECK(cuda_major_of_file("nvrtc64_120_0.dll") == 12);
  CHECK(cuda_major_of_file("/venv/site-packages/nvidia/cu13/lib/libcudnn.so.9") == 13);
  CHECK(cuda_major_of_file("/usr/lib/libcudnn.so.9") == 0);
  CHECK(cuda_major_of_wheel("nvidia_cudnn_cu12-9.1.0.70.dist-info") == 12);
  CHECK(cuda_major_of_wheel("nvidia_cublas_cu13-13.1.0.3.dist-info") == 13);
  CHECK(cuda_major_of_wheel("nvidia_cublas-13.1.0.3.dist-info") == 0);
}

TEST_CASE("one CUDA major across the stack: CUDA 12 wheels beside a CUDA 13 toolkit fail", "[cuda_stack]") {
  CHECK(check_one_cuda_major({}).verdict == StackVerdict::pass);
  CHECK(check_one_cuda_major({{"/t/libcudart.so.13", "toolkit", 13}, {"/t/libcublasLt.so.13", "toolkit", 13}}).verdict == StackVerdict::pass);
  const auto f = check_one_cuda_major({{"/t/libcudart.so.13", "toolkit", 13},
                                       {"/v/nvidia/cublas/lib/libcublasLt.so.12", "pip wheel", 12},
                                       {"/v/nvidia/cudnn/lib/libcudnn.so.9", "pip wheel nvidia_cudnn_cu12", 12}});
  CHECK(f.verdict == StackVerdict::fail);
  CHECK(f.signature == "loader.cuda-majors");
  CHECK(f.finding.find("CUDA 12: /v/nvidia/cublas/lib/libcublasLt.so.12 (pip wheel)") != std::string::npos);
  CHECK(f.finding.find("CUDA 13: /t/libcudart.so.13 (toolkit)") != std::string::npos);
}

TEST_CASE("cuda-compat's libcuda in front of a newer host driver fails, in front of an older one passes", "[cuda_stack]") {
  const std::string compat = "/usr/local/cuda-13.0/compat/libcuda.so.580.65.06";
  auto f = check_cuda_compat(compat, "590.44.01");
  CHECK(f.verdict == StackVerdict::fail);
  CHECK(f.signature == "driver.compat-shadows");
  CHECK(f.finding.find("host driver is newer (590.44.01)") != std::string::npos);
  CHECK(check_cuda_compat(compat, "535.183.01").verdict == StackVerdict::pass);
  CHECK(check_cuda_compat(compat, "").verdict == StackVerdict::warn);
  CHECK(check_cuda_compat("/usr/lib/x86_64-linux-gnu/libcuda.so.590.44.01", "590.44.01").verdict == StackVerdict::pass);
}

TEST_CASE("WSL2: copies in /usr/lib/wsl/lib warn, a Linux driver first in the cache fails", "[cuda_stack]") {
  CHECK(check_wsl({}).empty());
  WslFacts f{true, true, true, {"/usr/lib/wsl/lib/libcuda.so.1"}, false};
  auto out = check_wsl(f);
  REQUIRE(out.size() == 1);
  CHECK(out[0].signature == "driver.wsl.copies");
  CHECK(out[0].verdict == StackVerdict::warn);
  f.ld_cache_libcuda = {"/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib/wsl/lib/libcuda.so.1"};
  out = check_wsl(f);
  REQUIRE(out.size() == 2);
  CHECK(out[0].signature == "driver.wsl.linux-driver");
  CHECK(out[0].verdict == StackVerdict::fail);
  f = {true, false, false, {}, false};
  CHECK(check_wsl(f).at(0).signature == "driver.none");
  f = {true, true, false, {"/usr/lib/wsl/lib/libcuda.so.1"}, true};
  CHECK(check_wsl(f).at(0).verdict == StackVerdict::pass);
}

TEST_CASE("CUDNN_PATH naming another copy than the loader takes warns", "[cuda_stack]") {
  const auto same = [](const std::string& a, const std::string& b) { return a == b; };
  CHECK(check_cudnn_path(std::nullopt, "/usr/local/cuda/lib64", same).verdict == StackVerdict::pass);
  CHECK(check_cudnn_path(std::string("/usr/local/cuda"), "/usr/local/cuda/lib64", same).verdict == StackVerdict::pass);
  const auto f = check_cudnn_path(std::string("/opt/cudnn-9.1"), "/usr/local/cuda/lib64", same);
  CHECK(f.verdict == StackVerdict::warn);
  CHECK(f.signature == "files.cudnn-path");
  CHECK(f.finding.find("CUDNN_PATH=/opt/cudnn-9.1 names another cuDNN than the loader takes (/usr/local/cuda/lib64)") != std::string::npos);
  CHECK(check_cudnn_path(std::string("/opt/cudnn"), "", same).verdict == StackVerdict::warn);
}

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fake_workload.hpp"
#include "cudnnctl/workload/conv_workload.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("the ResNet-50 layer set and its FLOPs (2·N·K·P·Q·C·R·S)", "[workload]") {
  const auto full = resnet50_layers(false);
  REQUIRE(full.size() == 7);
  CHECK(full[0].p() == 112);
  CHECK(std::fabs(full[0].flops() / 1e9 - 15.1) < 0.1);  // conv1 stem at N=64
  const auto quick = resnet50_layers(true);
  REQUIRE(quick.size() == 4);
  CHECK(std::fabs(quick[0].flops() / 1e9 - 14.8) < 0.1);   // res2 3x3
  CHECK(std::fabs(quick[3].flops() / 1e9 - 6.6) < 0.1);    // res3 1x1 expand
  double total = 0;
  for (const auto& s : quick) total += s.flops();
  CHECK(std::fabs(total / 1e9 - 50.9) < 0.3);  // cudnn-runtime.md: 50.9 GFLOP per precision
}

TEST_CASE("peaks are known for datasheet devices only", "[workload]") {
  CHECK(peak_for("NVIDIA H200")->fp16_dense_tflops == 989);
  CHECK(peak_for("NVIDIA H200 NVL")->fp16_dense_tflops == 835);
  CHECK(peak_for("NVIDIA A100-SXM4-80GB")->fp32_tflops == 19.5);
  CHECK_FALSE(peak_for("NVIDIA GeForce RTX 4090"));
}

TEST_CASE("the CPU reference convolution", "[workload]") {
  const ConvShape s{"t", 1, 1, 3, 3, 1, 3, 3, 1, 1};
  const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9}, w = {0, 0, 0, 0, 1, 0, 0, 0, 0};  // identity kernel
  CHECK(reference_conv(x, w, s) == x);
  const std::vector<float> ones(9, 1.f);
  CHECK(reference_conv(x, ones, s)[4] == 45.f);  // the centre sums everything
}

TEST_CASE("timings, TFLOP/s and % of peak through the fake driver and cuDNN", "[workload]") {
  ScopedEnv env;
  env.set("FAKE_EVENT_MS", "2.0");  // 20 calls in 2 ms: 0.1 ms a call
  env.set("FAKE_GPU_NAME", "NVIDIA H200");
  const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
  REQUIRE(r);
  INFO(r->error);
  CHECK(r->completed);
  CHECK(r->device == "NVIDIA H200");
  CHECK(r->correctness_ok);
  REQUIRE(r->layers.size() == 8);
  const auto& first = r->layers[0];
  CHECK(first.layer == "res2 3x3");
  CHECK(first.precision == "fp16 NHWC");
  CHECK(first.math == "TENSOR_OP_MATH");
  CHECK(first.algo == "IMPLICIT_PRECOMP_GEMM");
  CHECK(std::fabs(first.median_ms - 0.1) < 1e-6);
  const double expected_tflops = resnet50_layers(true)[0].flops() / 1e-4 / 1e12;
  CHECK(std::fabs(first.tflops - expected_tflops) < 1e-6);
  REQUIRE(first.pct_of_peak);
  CHECK(std::fabs(*first.pct_of_peak - 100.0 * expected_tflops / 989) < 1e-6);
  CHECK(r->layers[1].math == "FMA_MATH");
}

TEST_CASE("failures are decoded: some layers only, architecture, memory, wrong results", "[workload]") {
  {
    ScopedEnv env;
    env.set("FAKE_CONV_FAIL_C", "512");
    env.set("FAKE_CONV_STATUS", "5000");
    const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
    REQUIRE(r);
    int failed = 0;
    for (const auto& l : r->layers)
      if (!l.error.empty()) {
        ++failed;
        CHECK(l.layer == "res5 3x3");
        CHECK_THAT(l.error, Catch::Contains("EXECUTION_FAILED") && Catch::Contains("some layers work"));
      }
    CHECK(failed == 2);
  }
  {
    ScopedEnv env;
    env.set("FAKE_CONV_FAIL_C", "64");
    env.set("FAKE_CONV_STATUS", "3007");
    const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
    REQUIRE(r);
    CHECK_THAT(r->layers[0].error, Catch::Contains("ARCH_MISMATCH") && Catch::Contains("no kernels for the GPU's architecture"));
  }
  {
    ScopedEnv env;
    env.set("FAKE_OOM", "1");
    const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
    REQUIRE(r);
    CHECK_FALSE(r->correctness_ok);
    CHECK_THAT(r->layers[0].error, Catch::Contains("CUDA_ERROR_OUT_OF_MEMORY"));
  }
  {
    ScopedEnv env;
    env.set("FAKE_WRONG_RESULT", "1");
    const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
    REQUIRE(r);
    CHECK_FALSE(r->correctness_ok);
    CHECK(r->correctness_max_error >= 0.99);
  }
}

TEST_CASE("cudnnctl bench --json on a fake toolkit", "[workload][cli]") {
  TempDir tmp;
  const auto [rc, out] = run_fake_bench(fake_cudnn_toolkit(tmp.path()), "--json");
  REQUIRE(rc == 0);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["layers"].size() == 14);  // seven layers, two precisions
  CHECK(j["correctness"]["ok"] == true);
  CHECK(j["peak"].is_null());      // the fake GPU is in no datasheet
  CHECK(j["layers"][0]["pct_of_peak"].is_null());
}

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fake_workload.hpp"
#include "cudnnctl/workload/conv_check.hpp"
#include "cudnnctl/workload/conv_workload.hpp"
#include "cudnnctl/workload/workload_json.hpp"

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

TEST_CASE("a failed CUDA event call is an error, not 0 ms", "[workload]") {
  for (const char* call : {"cuEventElapsedTime=400", "cuEventRecord=700", "cuEventSynchronize=999", "cuEventCreate=2"}) {
    INFO(call);
    ScopedEnv env;
    env.set("FAKE_CU_FAIL", call);
    const auto r = run_workload(CUDNNCTL_BINARY, fake_request(true), 60000);
    REQUIRE(r);
    REQUIRE(r->layers.size() == 8);
    for (const auto& l : r->layers) {
      CHECK(l.status == -1);
      CHECK(l.median_ms == 0);
      CHECK(l.tflops == 0);
      CHECK_THAT(l.error, Catch::StartsWith("timing the convolution: cuEvent"));
    }
    for (const auto& f : r->fused.layers) CHECK_THAT(f.error, Catch::Contains("timing the fused graph: cuEvent") || Catch::Contains("unfused"));
  }
  ScopedEnv env;
  env.set("FAKE_CU_FAIL", "cuEventElapsedTime=400");
  const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
  REQUIRE(r);
  CHECK_THAT(r->layers[0].error, Catch::Contains("cuEventElapsedTime failed: CUDA_ERROR_INVALID_HANDLE"));
}

TEST_CASE("cudnnctl bench fails (exit 10) when the GPU's timer fails, no 0 ms row", "[workload][cli]") {
  TempDir tmp;
  const auto [rc, out] = run_fake_bench(fake_cudnn_toolkit(tmp.path()), "--json", "FAKE_CU_FAIL=cuEventElapsedTime=400");
  CHECK(rc == 10);
  const auto j = nlohmann::json::parse(out);
  CHECK_THAT(j["layers"][0]["error"].get<std::string>(), Catch::Contains("cuEventElapsedTime failed"));
  CHECK(j["layers"][0]["median_ms"] == 0);
}

TEST_CASE("cudnnctl bench that cannot run the workload at all is bench.not-run, exit 17, not an I/O error", "[workload][cli]") {
  TempDir tmp;
  // cuInit fails with CUDA_ERROR_NO_DEVICE: nothing can be measured
  const auto [rc, out] = run_fake_bench(fake_cudnn_toolkit(tmp.path()), "--json", "FAKE_CU_INIT=100");
  CHECK(rc == 17);
  const auto j = nlohmann::json::parse(out);
  CHECK(j["error"]["code"] == "bench.not-run");
  CHECK(j["error"]["exit_code"] == 17);
}

TEST_CASE("the cuDNN handle is destroyed before its stream, and the run completes", "[workload]") {
  // the fake cudnnDestroy aborts when the handle's stream is already gone: the "done" line would be lost
  const auto r = run_workload(CUDNNCTL_BINARY, fake_request(true), 60000);
  REQUIRE(r);
  INFO(r->error);
  CHECK(r->error.empty());
  CHECK(r->completed);
}

TEST_CASE("inputs are uploaded on the stream the layers run on", "[workload]") {
  // the fake driver lands a synchronous (legacy-stream) copy only when the legacy stream synchronizes,
  // which a non-blocking stream does not wait for: inputs copied that way are zeros when the check runs
  const auto r = run_workload(CUDNNCTL_BINARY, fake_request(true), 60000);
  REQUIRE(r);
  CHECK(r->correctness_ok);
  CHECK(r->correctness_max_error < 1e-3);
  CHECK(r->fused.correctness_ok);
}

TEST_CASE("every driver call of the session is checked", "[workload]") {
  for (const auto& [call, text] : std::vector<std::pair<const char*, const char*>>{
           {"cuDeviceGet=101", "cuDeviceGet failed: CUDA_ERROR_INVALID_DEVICE"},
           {"cuDevicePrimaryCtxRetain=2", "cuDevicePrimaryCtxRetain failed: CUDA_ERROR_OUT_OF_MEMORY"},
           {"cuCtxSetCurrent=201", "cuCtxSetCurrent failed: CUDA_ERROR_INVALID_CONTEXT"},
           {"cuStreamCreate=2", "cuStreamCreate failed: CUDA_ERROR_OUT_OF_MEMORY"}}) {
    INFO(call);
    ScopedEnv env;
    env.set("FAKE_CU_FAIL", call);
    const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
    REQUIRE(r);
    CHECK(r->error == text);
    CHECK(r->layers.empty());
    CHECK_FALSE(r->completed);
  }
  ScopedEnv env;
  env.set("FAKE_CU_FAIL", "cuMemcpyHtoDAsync=700");
  const auto r = run_workload(CUDNNCTL_BINARY, fake_request(), 60000);
  REQUIRE(r);
  CHECK_FALSE(r->correctness_ok);
  CHECK_THAT(r->layers[0].error, Catch::Contains("uploading the inputs failed") && Catch::Contains("CUDA_ERROR_ILLEGAL_ADDRESS"));
}

TEST_CASE("one JSON mapping per result: empty texts are null, a round trip keeps every field", "[workload]") {
  LayerResult l;
  l.layer = "res2 3x3";
  l.precision = "fp16 NHWC";
  l.median_ms = 0.25;
  l.pct_of_peak = 42.0;
  nlohmann::json j = l;
  CHECK(j["error"].is_null());
  CHECK(j["pct_of_peak"] == 42.0);
  const auto back = j.get<LayerResult>();
  CHECK(back.layer == l.layer);
  CHECK(back.median_ms == 0.25);
  CHECK(back.pct_of_peak == l.pct_of_peak);
  l.pct_of_peak.reset();
  l.error = "running the convolution: X";
  j = l;
  CHECK(j["pct_of_peak"].is_null());
  CHECK(j.get<LayerResult>().error == l.error);
  CHECK_FALSE(j.get<LayerResult>().pct_of_peak);

  FusedResult f;
  f.attempted = true;
  f.correctness_ok = true;
  f.layers.push_back({"res4 3x3", 0.1, 0.09, 0.2, 0.19, 100, 2, 0.5, 1, 3, 0, ""});
  const nlohmann::json fj = f;
  CHECK(fj["error"].is_null());
  const auto fb = fj.get<FusedResult>();
  CHECK(fb.attempted);
  CHECK(fb.correctness_ok);
  REQUIRE(fb.layers.size() == 1);
  CHECK(fb.layers[0].speedup == 2);
  CHECK(fb.layers[0].configs_tried == 3);
}

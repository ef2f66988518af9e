#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fake_workload.hpp"
#include "cudnnctl/platform/dynlib.hpp"
#include "cudnnctl/gpu/abi.hpp"
#include "cudnnctl/workload/conv_workload.hpp"
#include "cudnnctl/workload/fused_conv.hpp"
#include "cudnnctl/gpu/half.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {
// the workload with the fused comparison, the fake's behaviour set by FAKE_* variables for this run
WorkloadResult run_fused_with(std::initializer_list<std::pair<const char*, const char*>> vars) {
  ScopedEnv env;
  for (const auto& [name, value] : vars) env.set(name, value);
  auto r = run_workload(CUDNNCTL_BINARY, fake_request(true), 60000);
  REQUIRE(r);
  return *r;
}

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream in(p);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::size_t index_of(const std::vector<std::string>& v, const std::string& line, std::size_t from = 0) {
  const auto it = std::find(v.begin() + static_cast<std::ptrdiff_t>(std::min(from, v.size())), v.end(), line);
  return static_cast<std::size_t>(it - v.begin());
}
} // namespace

TEST_CASE("fp16 conversion: exact values, rounding to nearest even, subnormals, overflow", "[fused_conv]") {
  CHECK(float_to_half(1.f) == 0x3C00);
  CHECK(float_to_half(-2.f) == 0xC000);
  CHECK(float_to_half(0.5f) == 0x3800);
  CHECK(float_to_half(65504.f) == 0x7BFF);
  CHECK(float_to_half(1e6f) == 0x7C00);                   // overflow: infinity
  CHECK(float_to_half(5.9604645e-8f) == 0x0001);          // the smallest subnormal
  CHECK(float_to_half(1.f + 1.f / 2048) == 0x3C00);       // a tie rounds to even (down)
  CHECK(float_to_half(1.f + 3.f / 2048) == 0x3C02);       // a tie rounds to even (up)
  CHECK(half_to_float(0x3C00) == 1.f);
  CHECK(half_to_float(0x0001) == 5.9604645e-8f);
  CHECK(half_to_float(0x03FF) == 6.097555e-5f);            // the largest subnormal
  CHECK(std::isinf(half_to_float(0x7C00)));
  CHECK(std::isnan(half_to_float(0x7E00)));
  for (int i = -2048; i <= 2048; ++i) CHECK(half_to_float(float_to_half(static_cast<float>(i) / 128.f)) == static_cast<float>(i) / 128.f);
}

TEST_CASE("NHWC strides and the CPU reference of conv + bias + ReLU", "[fused_conv]") {
  CHECK(nhwc_strides(256, 14, 14) == std::vector<std::int64_t>{256 * 14 * 14, 1, 14 * 256, 256});
  const ConvShape s{"t", 1, 1, 3, 3, 2, 3, 3, 1, 1};
  const std::vector<float> x(9, 1.f);
  std::vector<float> w(18, 1.f);
  for (int i = 9; i < 18; ++i) w[static_cast<std::size_t>(i)] = -1.f;
  const auto y = reference_conv_bias_relu(x, w, {0.5f, 2.f}, s);
  REQUIRE(y.size() == 18);
  CHECK(y[4] == 9.5f);   // k = 0: the centre sums all nine, plus its bias
  CHECK(y[0] == 4.5f);   // a corner sees four
  CHECK(y[9 + 4] == 0.f);  // k = 1: -9 + 2 clipped by ReLU
  CHECK(y[9 + 0] == 0.f);
}

TEST_CASE("the fused graph is built, planned and run in cuDNN's order through the fake", "[fused_conv]") {
  TempDir tmp;
  const auto log = (tmp.path() / "calls.log").string();
  const auto r = run_fused_with({{"FAKE_BACKEND_LOG", log.c_str()}, {"FAKE_EVENT_MS", "2.0"}});
  INFO(r.error);
  REQUIRE(r.fused.attempted);
  CHECK(r.fused.error.empty());
  CHECK(r.fused.correctness_ok);
  CHECK(r.fused.correctness_max_error < 1e-3);
  REQUIRE(r.fused.layers.size() == 4);  // the quick set
  for (const auto& l : r.fused.layers) {
    INFO(l.layer << ": " << l.error);
    CHECK(l.status == 0);
    CHECK(std::fabs(l.fused_ms - 0.1) < 1e-9);
    CHECK(std::fabs(l.unfused_ms - 0.1) < 1e-9);
    CHECK(std::fabs(l.speedup - 1.0) < 1e-9);
    CHECK(l.engine_config == 0);
    CHECK(std::fabs(l.workspace_mib - 4096.0 / 1048576.0) < 1e-12);
  }
  CHECK(std::fabs(r.fused.layers[0].fused_tflops - resnet50_layers(true)[0].flops() / 1e-4 / 1e12) < 1e-6);

  const auto calls = lines_of(tmp.path() / "calls.log");
  REQUIRE_FALSE(calls.empty());
  // the first graph (the correctness check): six tensors, each finalized before the next is made
  std::size_t at = 0;
  for (int t = 0; t < 6; ++t) {
    const auto made = index_of(calls, "create 17", at);
    const auto done = index_of(calls, "finalize 17", made);
    REQUIRE(done < calls.size());
    CHECK(index_of(calls, "create 17", made + 1) > done);
    at = done + 1;
  }
  const auto conv = index_of(calls, "finalize 1", at);
  const auto conv_op = index_of(calls, "finalize 10", at);
  const auto graph = index_of(calls, "finalize 15", at);
  const auto heur = index_of(calls, "finalize 4", at);
  const auto count = index_of(calls, "get 4 202", heur);
  const auto cfg = index_of(calls, "create 3", count);
  const auto fill = index_of(calls, "get 4 202", count + 1);
  const auto plan = index_of(calls, "finalize 5", fill);
  const auto ws = index_of(calls, "get 5 402", plan);
  const auto pack = index_of(calls, "finalize 16", ws);
  const auto exec = index_of(calls, "execute", pack);
  CHECK(conv < conv_op);
  CHECK(conv_op < graph);
  CHECK(graph < heur);
  CHECK(heur < count);
  CHECK(count < cfg);
  CHECK(cfg < fill);
  CHECK(fill < plan);
  CHECK(plan < ws);
  CHECK(ws < pack);
  CHECK(pack < exec);
  CHECK(exec < calls.size());
  // two pointwise ops (add, ReLU) in the graph, the handle on the graph and on the plan
  CHECK(std::count(calls.begin(), calls.begin() + static_cast<std::ptrdiff_t>(graph), "finalize 13") == 2);
  CHECK(index_of(calls, "set 15 800", at) < graph);
  CHECK(index_of(calls, "set 5 400", fill) < plan);
  // everything made is destroyed
  CHECK(std::count_if(calls.begin(), calls.end(), [](const std::string& l) { return l.rfind("create ", 0) == 0; }) ==
        std::count_if(calls.begin(), calls.end(), [](const std::string& l) { return l.rfind("destroy ", 0) == 0; }));
}

TEST_CASE("fused failures are decoded with the step and the likely cause", "[fused_conv]") {
  SECTION("no engine can plan the graph") {
    const auto r = run_fused_with({{"FAKE_PLAN_STATUS", "3000"}, {"FAKE_LAST_ERROR", "no valid engine configs for conv_bias_relu"}});
    REQUIRE_FALSE(r.fused.layers.empty());
    const auto& l = r.fused.layers[0];
    CHECK(l.status == 3000);
    CHECK(l.configs_tried == 4);  // heuristics mode A's two configs, then the fallback list's two
    CHECK_THAT(l.error, Catch::Contains("CUDNN_STATUS_NOT_SUPPORTED while planning") && Catch::Contains("NVRTC") &&
                            Catch::Contains("(cuDNN: no valid engine configs for conv_bias_relu)"));
    CHECK(l.unfused_ms == 0);  // no fused time: nothing to compare the unfused sequence with
    CHECK_FALSE(r.fused.correctness_ok);
    CHECK_THAT(r.fused.correctness_error, Catch::Contains("NOT_SUPPORTED"));
  }
  SECTION("the first engine config cannot run it: the next one is used") {
    const auto r = run_fused_with({{"FAKE_PLAN_FAIL_FIRST", "1"}});
    CHECK(r.fused.correctness_ok);
    REQUIRE_FALSE(r.fused.layers.empty());
    CHECK(r.fused.layers[0].error.empty());
    CHECK(r.fused.layers[0].engine_config == 1);
    CHECK(r.fused.layers[0].configs_tried == 2);
  }
  SECTION("the kernel fails on the GPU") {
    const auto r = run_fused_with({{"FAKE_EXECUTE_STATUS", "5000"}});
    REQUIRE_FALSE(r.fused.layers.empty());
    CHECK_THAT(r.fused.layers[0].error, Catch::Contains("EXECUTION_FAILED while running the fused graph") &&
                                            Catch::Contains("another GPU architecture"));
  }
  SECTION("the heuristics reject the graph") {
    const auto r = run_fused_with({{"FAKE_HEUR_STATUS", "2000"}});
    REQUIRE_FALSE(r.fused.layers.empty());
    CHECK(r.fused.layers[0].status == 2000);
    CHECK_THAT(r.fused.layers[0].error, Catch::Contains("CUDNN_STATUS_BAD_PARAM while asking the heuristics") &&
                                            Catch::Contains("rejected the graph"));
  }
  SECTION("the unfused sequence fails on the layers it cannot run") {
    const auto r = run_fused_with({{"FAKE_CONV_FAIL_C", "256"}, {"FAKE_CONV_STATUS", "5000"}});
    REQUIRE(r.fused.layers.size() == 4);
    CHECK(r.fused.layers[0].error.empty());
    CHECK(r.fused.layers[1].layer == "res4 3x3");
    CHECK_THAT(r.fused.layers[1].error, Catch::StartsWith("the unfused sequence: running the convolution") &&
                                            Catch::Contains("EXECUTION_FAILED"));
  }
  SECTION("wrong results are caught by the CPU reference") {
    const auto r = run_fused_with({{"FAKE_WRONG_FUSED", "1"}});
    CHECK_FALSE(r.fused.correctness_ok);
    CHECK(std::fabs(r.fused.correctness_max_error - 0.5) < 1e-3);
  }
}

TEST_CASE("a cuDNN without the graph API is said so, nothing called", "[fused_conv]") {
  auto cudnn = platform::load_library((fakes_dir / "libcudnn.so.9").string());
  auto driver = platform::load_library((fakes_dir / "libcuda.so.1").string());
  REQUIRE(cudnn);
  REQUIRE(driver);
  std::vector<std::string> missing;
  Api api = load_api(*cudnn, *driver, missing);
  CHECK(missing.empty());
  CHECK(api.has_graph_api());
  api.backend_execute = nullptr;  // as in cuDNN 7
  const auto r = run_fused_set(api, GraphTarget{}, nullptr, resnet50_layers(true), 9, FusedRun{});
  CHECK(r.attempted);
  CHECK_THAT(r.error, Catch::Contains("no graph API"));
  CHECK(r.layers.empty());
}

TEST_CASE("cudnnctl bench shows the fused comparison, as a table and in JSON", "[fused_conv][cli]") {
  TempDir tmp;
  const auto toolkit = fake_cudnn_toolkit(tmp.path());
  const auto [rc, json_text] = run_fake_bench(toolkit, "--json");
  REQUIRE(rc == 0);
  const auto j = nlohmann::json::parse(json_text);
  REQUIRE(j["fused"].is_object());
  CHECK(j["fused"]["correctness"]["ok"] == true);
  CHECK(j["fused"]["layers"].size() == 6);  // seven layers but the 3-channel stem
  CHECK(j["fused"]["layers"][0]["layer"] == "res2 3x3");
  CHECK(j["fused"]["layers"][0]["speedup"].is_number());

  const auto [text_rc, text] = run_fake_bench(toolkit, "");
  CHECK(text_rc == 0);
  CHECK_THAT(text, Catch::Contains("fused conv+bias+ReLU (graph API, fp16 NHWC)") && Catch::Contains("unfused ms") &&
                       Catch::Contains("res4 1x1 reduce"));

  // a fused failure makes the run a failure (exit 10)
  CHECK(run_fake_bench(toolkit, "--json", "FAKE_PLAN_STATUS=3000").first == 10);
}

TEST_CASE("without a GPU: no handle, the GPU described by its properties, plans finalized", "[fused_conv]") {
  TempDir tmp;
  const auto log = (tmp.path() / "calls.log").string();
  ScopedEnv env;
  env.set("FAKE_BACKEND_LOG", log.c_str());
  auto cudnn = platform::load_library((fakes_dir / "libcudnn.so.9").string());
  REQUIRE(cudnn);
  std::vector<std::string> missing;
  const Api api = load_api(*cudnn, nullptr, missing);  // no driver at all
  CHECK(missing.empty());
  CHECK_FALSE(api.cu_init);
  auto props = DeviceProperties::from_json(api, 9, R"({"deviceName": "NVIDIA H200", "deviceVer": 900})");
  REQUIRE(props);
  const auto r = plan_fused_layer(api, GraphTarget{nullptr, props->descriptor()}, resnet50_layers(true)[0], 9, 4);
  INFO(r.error);
  CHECK(r.status == 0);
  CHECK(r.configs == 2);  // the fake's heuristics propose two
  CHECK(r.plans == 2);
  CHECK(r.max_workspace == 4096);
  const auto calls = lines_of(log);
  CHECK(index_of(calls, "set 38 2702") < calls.size());
  CHECK(index_of(calls, "set 4 204") < calls.size());   // heuristics for that GPU
  CHECK(index_of(calls, "set 5 407") < calls.size());   // plans for that GPU
  CHECK(index_of(calls, "set 15 800") == calls.size());  // no handle on the graph
  CHECK(index_of(calls, "set 5 400") == calls.size());   // nor on the plan
}

TEST_CASE("a null handle is named as such when the graph runs", "[fused_conv]") {
  auto cudnn = platform::load_library((fakes_dir / "libcudnn.so.9").string());
  auto driver = platform::load_library((fakes_dir / "libcuda.so.1").string());
  REQUIRE(cudnn);
  REQUIRE(driver);
  std::vector<std::string> missing;
  const Api api = load_api(*cudnn, *driver, missing);
  const auto r = run_fused_set(api, GraphTarget{}, nullptr, {resnet50_layers(true)[0]}, 9, FusedRun{});
  REQUIRE(r.layers.size() == 1);
  CHECK(r.layers[0].status == 2002);
  CHECK_THAT(r.layers[0].error, Catch::Contains("CUDNN_STATUS_BAD_PARAM_NULL_POINTER while running the fused graph") &&
                                    Catch::Contains("null pointer"));
  CHECK_THAT(graph_failure_cause(2010, 9, "describing the tensors"), Catch::StartsWith("CUDNN_STATUS_BAD_PARAM_ATTRIBUTE_TYPE"));
}

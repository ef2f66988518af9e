#include <catch2/catch.hpp>

#include "cudnnctl/loader/gpu_arch.hpp"

using namespace cudnnctl;

namespace {
GpuArch test_arch(unsigned n, ArchVariant v = ArchVariant::plain) { return {n, v}; }
constexpr auto k_a = ArchVariant::arch_specific;
constexpr auto k_f = ArchVariant::family;
} // namespace

TEST_CASE("GPU architecture names and compute capabilities", "[gpu_arch]") {
  CHECK(sass_name(test_arch(90, k_a)) == "sm_90a");
  CHECK(sass_name(test_arch(100, k_f)) == "sm_100f");
  CHECK(ptx_name(test_arch(121)) == "compute_121");
  CHECK(cc_text({12, 0}) == "12.0");
  CHECK(cc_sm_name({6, 1}) == "sm_61");
  CHECK(parse_compute_capability("8.6") == ComputeCapability{8, 6});
  CHECK(parse_compute_capability("12.0") == ComputeCapability{12, 0});
  CHECK(parse_compute_capability("sm_120") == ComputeCapability{12, 0});
  CHECK(parse_compute_capability("sm_61") == ComputeCapability{6, 1});
  for (const char* bad : {"", "8", "8.", ".6", "8.10", "x.y", "sm_", "sm_9", "sm_90a", "0.5", "1234.5"}) {
    INFO(bad);
    CHECK_FALSE(parse_compute_capability(bad));
  }
}

TEST_CASE("SASS runs on the same major with a minor at least as new, a only on its own, f on its family", "[gpu_arch]") {
  CHECK(sass_runs_on(test_arch(80), {8, 0}));
  CHECK(sass_runs_on(test_arch(80), {8, 6}));
  CHECK(sass_runs_on(test_arch(86), {8, 9}));
  CHECK_FALSE(sass_runs_on(test_arch(86), {8, 0}));
  CHECK_FALSE(sass_runs_on(test_arch(80), {9, 0}));   // no SASS crosses a major
  CHECK_FALSE(sass_runs_on(test_arch(75), {6, 1}));
  CHECK(sass_runs_on(test_arch(90, k_a), {9, 0}));
  CHECK_FALSE(sass_runs_on(test_arch(100, k_a), {10, 3}));
  CHECK(sass_runs_on(test_arch(100, k_f), {10, 3}));
  CHECK(sass_runs_on(test_arch(120, k_f), {12, 1}));
  CHECK_FALSE(sass_runs_on(test_arch(121, k_f), {12, 0}));
  CHECK_FALSE(sass_runs_on(test_arch(100, k_f), {12, 0}));
  CHECK(sass_runs_on(test_arch(120), {12, 1}));
}

TEST_CASE("PTX is compiled for any newer GPU, a and f PTX only within their own target", "[gpu_arch]") {
  CHECK(ptx_jits_on(test_arch(80), {8, 0}));
  CHECK(ptx_jits_on(test_arch(80), {12, 0}));
  CHECK_FALSE(ptx_jits_on(test_arch(80), {7, 5}));
  CHECK(ptx_jits_on(test_arch(121), {12, 1}));
  CHECK_FALSE(ptx_jits_on(test_arch(121), {12, 0}));
  CHECK(ptx_jits_on(test_arch(120, k_a), {12, 0}));
  CHECK_FALSE(ptx_jits_on(test_arch(120, k_a), {12, 1}));
  CHECK(ptx_jits_on(test_arch(100, k_f), {10, 3}));
  CHECK_FALSE(ptx_jits_on(test_arch(100, k_f), {12, 0}));
}

TEST_CASE("code fit: the closest SASS first, then PTX, else none", "[gpu_arch]") {
  // cuDNN 9.19's libcudnn_ops.so.9: SASS 75 80 90a 100f 120f 121, PTX 121
  const std::vector<GpuArch> sass{test_arch(75), test_arch(80), test_arch(90, k_a), test_arch(100, k_f), test_arch(120, k_f), test_arch(121)};
  const std::vector<GpuArch> ptx{test_arch(121)};
  CHECK(code_fit(sass, ptx, {8, 6}).kind == CodeFit::Kind::sass);
  CHECK(code_fit(sass, ptx, {8, 6}).arch == test_arch(80));
  CHECK(code_fit(sass, ptx, {9, 0}).arch == test_arch(90, k_a));
  CHECK(code_fit(sass, ptx, {10, 3}).arch == test_arch(100, k_f));
  CHECK(code_fit(sass, ptx, {12, 1}).arch == test_arch(121));
  CHECK(code_fit(sass, ptx, {6, 1}).kind == CodeFit::Kind::none);  // a GeForce 10xx
  CHECK(code_fit(sass, ptx, {7, 0}).kind == CodeFit::Kind::none);
  const auto future = code_fit(sass, ptx, {13, 0});
  CHECK(future.kind == CodeFit::Kind::ptx);
  CHECK(future.arch == test_arch(121));
  // a build for sm_75..sm_90 only on an RTX 50 (sm_120): nothing
  CHECK(code_fit({test_arch(75), test_arch(80), test_arch(86), test_arch(90)}, {}, {12, 0}).kind == CodeFit::Kind::none);
  CHECK(code_fit({test_arch(75), test_arch(80), test_arch(86), test_arch(90)}, {}, {9, 0}).kind == CodeFit::Kind::sass);
  CHECK(code_fit({}, {test_arch(80)}, {12, 0}).kind == CodeFit::Kind::ptx);
}

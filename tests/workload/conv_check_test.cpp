#include <catch2/catch.hpp>

#include "cudnnctl/workload/conv_check.hpp"

using namespace cudnnctl;

TEST_CASE("the check inputs are fixed sign-mixed patterns that fp16 holds exactly", "[conv_check]") {
  const ConvShape s{"check", 1, 4, 6, 6, 4, 3, 3, 1, 1};
  const auto d = conv_check_data(s, 1.f / 4.f, false);
  REQUIRE(d.x.size() == 1u * 4 * 6 * 6);
  REQUIRE(d.w.size() == 4u * 4 * 3 * 3);
  CHECK(d.bias.empty());
  CHECK(d.y.empty());
  CHECK(d.x[0] == -6.f / 8.f);  // (0·7 mod 13) - 6
  CHECK(d.x[1] == 1.f / 8.f);   // (7 mod 13) - 6
  CHECK(d.x[2] == -5.f / 8.f);  // (14 mod 13) - 6
  CHECK(d.w[1] == 0.f);         // (5 mod 11) - 5
  CHECK(d.w[2] == 5.f / 4.f);   // (10 mod 11) - 5
  CHECK(d.w[3] == -1.f / 4.f);  // (15 mod 11) - 5
  for (float v : d.x) CHECK((v >= -0.75f && v <= 0.75f));
  const auto b = conv_check_data({"b", 1, 8, 6, 6, 8, 3, 3, 1, 1}, 1.f / 16.f, true);
  CHECK(b.bias == std::vector<float>{-1.f, -0.5f, 0.f, 0.5f, 1.f, -1.f, -0.5f, 0.f});
}

TEST_CASE("the verdict holds the GPU result against the CPU result within the tolerances", "[conv_check]") {
  auto d = conv_check_data({"check", 1, 2, 4, 4, 2, 3, 3, 1, 1}, 1.f / 4.f, false);
  CHECK_FALSE(judge_check(d, 1e-3, 0).ok);  // no result read back
  CHECK(judge_check(d, 1e-3, 0).max_error == 1e30);
  d.y = reference_conv(d.x, d.w, d.shape);
  const auto same = judge_check(d, 1e-3, 0);
  CHECK(same.ok);
  CHECK(same.max_error == 0);
  d.y[3] += 0.01f;
  const auto off = judge_check(d, 1e-3, 0);
  CHECK_FALSE(off.ok);
  CHECK(off.max_error == Approx(0.01).epsilon(1e-3));
  CHECK(judge_check(d, 0.02, 0).ok);
  d.y.pop_back();
  CHECK_FALSE(judge_check(d, 1, 1).ok);  // a result of another size

  // with a bias the reference is max(0, conv + bias): a plain convolution's result fails it
  auto b = conv_check_data({"b", 1, 8, 6, 6, 8, 3, 3, 1, 1}, 1.f / 16.f, true);
  b.y = reference_conv(b.x, b.w, b.shape);
  CHECK_FALSE(judge_check(b, 2e-3, 1e-3).ok);
  b.y = reference_conv_bias_relu(b.x, b.w, b.bias, b.shape);
  CHECK(judge_check(b, 2e-3, 1e-3).ok);
}

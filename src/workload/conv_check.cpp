#include "cudnnctl/workload/conv_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace cudnnctl {

namespace {
// `count` values of `step`·((i·mul mod m) - m/2): a fixed, sign-mixed pattern
std::vector<float> pattern(std::size_t count, int mul, int m, float step) {
  std::vector<float> v(count);
  for (std::size_t i = 0; i < count; ++i) v[i] = static_cast<float>(static_cast<int>(i * mul % m) - m / 2) * step;
  return v;
}
} // namespace

ConvCheckData conv_check_data(const ConvShape& s, float w_step, bool bias_relu) {
  ConvCheckData d{s, {}, {}, {}, {}};
  d.x = pattern(static_cast<std::size_t>(s.n) * s.c * s.h * s.w, 7, 13, 1.f / 8.f);
  d.w = pattern(static_cast<std::size_t>(s.k) * s.c * s.r * s.s, 5, 11, w_step);
  if (bias_relu) d.bias = pattern(static_cast<std::size_t>(s.k), 1, 5, 1.f / 2.f);
  return d;
}

std::vector<float> reference_conv(const std::vector<float>& x, const std::vector<float>& w, const ConvShape& s) {
  const int P = s.p(), Q = s.q();
  std::vector<float> y(static_cast<std::size_t>(s.n) * s.k * P * Q, 0.f);
  for (int n = 0; n < s.n; ++n)
    for (int k = 0; k < s.k; ++k)
      for (int p = 0; p < P; ++p)
        for (int q = 0; q < Q; ++q) {
          double acc = 0;
          for (int c = 0; c < s.c; ++c)
            for (int r = 0; r < s.r; ++r)
              for (int t = 0; t < s.s; ++t) {
                const int h = p * s.stride - s.pad + r, ww = q * s.stride - s.pad + t;
                if (h < 0 || h >= s.h || ww < 0 || ww >= s.w) continue;
                acc += static_cast<double>(x[((static_cast<std::size_t>(n) * s.c + c) * s.h + h) * s.w + ww]) *
                       w[((static_cast<std::size_t>(k) * s.c + c) * s.r + r) * s.s + t];
              }
          y[((static_cast<std::size_t>(n) * s.k + k) * P + p) * Q + q] = static_cast<float>(acc);
        }
  return y;
}

std::vector<float> reference_conv_bias_relu(const std::vector<float>& x, const std::vector<float>& w, const std::vector<float>& bias,
                                            const ConvShape& s) {
  auto y = reference_conv(x, w, s);
  const std::size_t plane = static_cast<std::size_t>(s.p()) * s.q();
  for (std::size_t i = 0; i < y.size(); ++i) y[i] = std::max(0.f, y[i] + bias[(i / plane) % static_cast<std::size_t>(s.k)]);
  return y;
}

CheckVerdict judge_check(const ConvCheckData& d, double abs_tol, double rel_tol) {
  const auto ref = d.bias.empty() ? reference_conv(d.x, d.w, d.shape) : reference_conv_bias_relu(d.x, d.w, d.bias, d.shape);
  if (d.y.size() != ref.size() || ref.empty()) return {};
  CheckVerdict v{true, 0.0};
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const double err = std::fabs(static_cast<double>(d.y[i]) - ref[i]);
    v.max_error = std::max(v.max_error, err);
    v.ok = v.ok && err <= abs_tol + rel_tol * std::fabs(static_cast<double>(ref[i]));
  }
  return v;
}

} // namespace cudnnctl

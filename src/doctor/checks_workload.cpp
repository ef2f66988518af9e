// Layer 5: a small convolution on the GPU, checked against the CPU and timed.
#include <fmt/format.h>

#include "cudnnctl/doctor/check_table.hpp"

namespace cudnnctl {

namespace {

void check_workload(const DoctorFacts& f, Checks& out) {
  if (!f.tk()) return;
  if (f.offline) {
    out.push_back(make_check("workload.skipped", 5, CheckStatus::skip, "skipped: offline: no GPU work is run"));
    return;
  }
  if (!f.probe || !*f.probe) {
    out.push_back(make_check("workload.skipped", 5, CheckStatus::skip, "skipped: layer 4 did not run"));
    return;
  }
  if (f.no_gpu) {
    out.push_back(make_check("workload.conv", 5, CheckStatus::skip, "skipped: --no-gpu"));
    return;
  }
  if (!gpu_usable(f) || !f.workload) {
    out.push_back(make_check("workload.conv", 5, CheckStatus::skip, "skipped: layer 4 found no usable GPU"));
    return;
  }
  const auto& r = *f.workload;
  if (!r || (!r->error.empty() && r->layers.empty())) {
    out.push_back(make_check("workload.conv", 5, CheckStatus::fail, "the GPU workload could not run: " + (r ? r->error : r.error().message),
                             "workload.could-not-run"));
    return;
  }
  if (!r->correctness_ok)
    out.push_back(make_check("workload.correctness", 5, CheckStatus::fail,
                             fmt::format("a small convolution on the GPU differs from the CPU reference (max error {:.3g})", r->correctness_max_error),
                             "workload.correctness"));
  else
    out.push_back(make_check("workload.correctness", 5, CheckStatus::pass, "a small convolution matches the CPU reference"));
  std::vector<std::string> failures;
  double best = 0;
  std::optional<double> best_pct;
  for (const auto& l : r->layers) {
    if (l.status != 0 || !l.error.empty()) failures.push_back(fmt::format("{} {}: {}", l.layer, l.precision, l.error));
    if (l.precision.starts_with("fp16") && l.tflops > best) {
      best = l.tflops;
      best_pct = l.pct_of_peak;
    }
  }
  if (!failures.empty())
    out.push_back(make_check("workload.conv", 5, CheckStatus::fail,
                             fmt::format("{} of {} layer runs failed: {}", failures.size(), r->layers.size(), failures.front()), "workload.failed-layers"));
  else if (best_pct && *best_pct < 10)
    out.push_back(make_check("workload.conv", 5, CheckStatus::warn,
                             fmt::format("fp16 convolutions reach only {:.1f} TFLOP/s ({:.0f}% of {}'s peak)", best, *best_pct, r->device), "workload.slow"));
  else
    out.push_back(make_check("workload.conv", 5, CheckStatus::pass,
                             fmt::format("{} layer runs on {}; fp16 best {:.1f} TFLOP/s{}", r->layers.size(), r->device, best,
                                         best_pct ? fmt::format(" ({:.0f}% of peak)", *best_pct) : std::string())));
}

} // namespace

const std::vector<CheckSpec>& workload_check_rows() {
  static const std::vector<CheckSpec> rows{
      {"workload.conv", 5, need_probe | need_workload, &check_workload, "in a child process: a small fp32 convolution checked against a CPU reference, then ResNet-50 layers timed in fp16 NHWC and fp32 NCHW", "workload.correctness workload.skipped"},
  };
  return rows;
}

} // namespace cudnnctl

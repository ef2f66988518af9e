// What every rendering of a report shares: status words, layer names, the exit code and the summary.
#include <regex>

#include "cudnnctl/doctor/doctor.hpp"

namespace cudnnctl {

std::string_view to_string(CheckStatus s) {
  switch (s) {
  case CheckStatus::pass: return "pass";
  case CheckStatus::warn: return "warn";
  case CheckStatus::fail: return "fail";
  case CheckStatus::skip: return "skip";
  }
  return "?";
}

std::string_view layer_name(int layer) {
  static constexpr std::string_view names[] = {"", "toolkit", "files", "loader", "driver and device", "workload"};
  return layer >= 1 && layer <= 5 ? names[layer] : std::string_view("?");
}

ExitCode doctor_exit_code(const DoctorReport& r) {
  bool gpu_skipped = false;
  for (const auto& c : r.checks) {
    if (c.status == CheckStatus::fail) return ExitCode::problems_found;
    if (c.layer >= 4 && c.status == CheckStatus::skip) gpu_skipped = true;
  }
  return gpu_skipped ? ExitCode::gpu_layers_skipped : ExitCode::ok;
}

DoctorSummary summarize(const DoctorReport& r) {
  DoctorSummary s;
  for (const auto& c : r.checks) {
    switch (c.status) {
    case CheckStatus::pass: ++s.passed; break;
    case CheckStatus::warn: ++s.warnings; break;
    case CheckStatus::fail: ++s.failed; break;
    case CheckStatus::skip: ++s.skipped; break;
    }
  }
  s.code = doctor_exit_code(r);
  s.verdict = s.code == ExitCode::ok              ? "healthy"
              : s.code == ExitCode::problems_found ? "problems found"
                                                  : "healthy up to the GPU layers, which were skipped";
  return s;
}

} // namespace cudnnctl

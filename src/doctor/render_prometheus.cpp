// doctor --prometheus: the report as node_exporter textfile metrics (Prometheus text format 0.0.4).
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "cudnnctl/doctor/fleet_formats.hpp"

namespace cudnnctl {

namespace {

// Label values escape backslash, double quote and line feed (exposition_formats.md).
std::string label_value(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

void family(std::string& out, std::string_view name, std::string_view help) {
  out += fmt::format("# HELP {} {}\n# TYPE {} gauge\n", name, help, name);
}

int severity(CheckStatus s) {
  switch (s) {
  case CheckStatus::skip: return 0;
  case CheckStatus::pass: return 1;
  case CheckStatus::warn: return 2;
  case CheckStatus::fail: return 3;
  }
  return 0;
}

} // namespace

std::string doctor_prometheus(const DoctorReport& r, std::int64_t now) {
  std::string out;
  if (r.cudnn) {
    family(out, "cudnnctl_cudnn_info", "The cuDNN cudnnctl doctor found in the toolkit (always 1).");
    out += fmt::format("cudnnctl_cudnn_info{{version=\"{}\",cuda_major=\"{}\",toolkit=\"{}\",owner=\"{}\"}} 1\n", label_value(r.cudnn->version),
                       label_value(r.cudnn->cuda_major), label_value(r.toolkit ? r.toolkit->root : std::string()),
                       label_value(r.cudnn->owner));
  }
  // one result per check id, in report order: a check reported more than once counts at its worst
  std::vector<const Check*> order;
  std::map<std::string, CheckStatus> worst;
  for (const auto& c : r.checks) {
    auto [it, inserted] = worst.try_emplace(c.id, c.status);
    if (inserted) order.push_back(&c);
    else if (severity(c.status) > severity(it->second)) it->second = c.status;
  }
  family(out, "cudnnctl_check_status", "The result of one doctor check: exactly one of its four status series is 1.");
  int failed = 0;
  for (const auto* c : order) {
    const auto status = worst.at(c->id);
    if (status == CheckStatus::fail) ++failed;
    for (auto s : {CheckStatus::pass, CheckStatus::warn, CheckStatus::fail, CheckStatus::skip})
      out += fmt::format("cudnnctl_check_status{{check=\"{}\",layer=\"{}\",status=\"{}\"}} {}\n", label_value(c->id), c->layer, to_string(s),
                         s == status ? 1 : 0);
  }
  family(out, "cudnnctl_checks_failed", "The number of doctor checks that failed.");
  out += fmt::format("cudnnctl_checks_failed {}\n", failed);
  family(out, "cudnnctl_doctor_exit_code", "The doctor's exit code: 0 healthy, 10 problems found, 11 healthy up to the skipped GPU layers.");
  out += fmt::format("cudnnctl_doctor_exit_code {}\n", to_int(doctor_exit_code(r)));
  family(out, "cudnnctl_doctor_last_run_timestamp_seconds", "When the doctor wrote this file, in Unix seconds.");
  out += fmt::format("cudnnctl_doctor_last_run_timestamp_seconds {}\n", now);
  return out;
}

} // namespace cudnnctl

// doctor --nfd: the report as a Node Feature Discovery local feature file, every line checked against
// Kubernetes' label rules before it is returned.
#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/doctor/fleet_formats.hpp"
#include "cudnnctl/doctor/k8s_labels.hpp"

namespace cudnnctl {

std::string rfc3339_utc(std::int64_t unix_seconds) {
  using namespace std::chrono;
  const sys_seconds t{seconds{unix_seconds}};
  const auto day = floor<days>(t);
  const year_month_day ymd{day};
  const hh_mm_ss hms{t - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                     static_cast<unsigned>(ymd.day()), hms.hours().count(), hms.minutes().count(), hms.seconds().count());
}

namespace {

struct Feature {
  std::string name;   // after the namespace
  std::string value;
  bool no_label = false;
};

Result<std::string> feature_line(const Feature& f) {
  const auto key = fmt::format("{}/{}", k_nfd_namespace, f.name);
  auto value = to_label_value(f.value);
  auto problem = nfd_label_key_problem(key);
  if (!problem && !value) problem = fmt::format("the value '{}' cannot be made a label value", f.value);
  if (!problem) problem = label_value_problem(*value);
  if (problem)
    return fail(ErrorCode::internal, fmt::format("the NFD feature '{}' breaks Kubernetes' label rules: {}", key, *problem),
                "nothing was written; report this as a bug of cudnnctl");
  return fmt::format("{}{}={}\n", f.no_label ? "# +no-label\n" : "", key, *value);
}

} // namespace

Result<std::string> doctor_nfd(const DoctorReport& r, std::int64_t now, std::int64_t expiry_seconds) {
  std::vector<Feature> features;
  if (r.cudnn) {
    const auto parts = split(r.cudnn->version, '.');
    const char* names[] = {"cudnn-version.major", "cudnn-version.minor", "cudnn-version.patch"};
    for (std::size_t i = 0; i < parts.size() && i < 3; ++i) features.push_back({names[i], std::string(parts[i])});
    features.push_back({"cudnn-version.full", r.cudnn->version});
    features.push_back({"cudnn.cuda-major", r.cudnn->cuda_major});
  }
  const auto summary = summarize(r);
  features.push_back({"cudnn.healthy", summary.failed == 0 && r.cudnn ? "true" : "false"});
  features.push_back({"cudnn.checks-failed", std::to_string(summary.failed)});
  for (const auto& c : r.checks) {
    if (c.status != CheckStatus::fail && c.status != CheckStatus::warn) continue;
    const bool fails = std::any_of(r.checks.begin(), r.checks.end(), [&](const Check& o) { return o.id == c.id && o.status == CheckStatus::fail; });
    features.push_back({"check." + c.id, fails ? "fail" : "warn", true});  // a check reported twice counts at its worst
  }

  std::string out = fmt::format("# cudnnctl doctor --nfd: cuDNN labels for Node Feature Discovery (docs/fleets.md)\n# +expiry-time={}\n",
                                rfc3339_utc(now + expiry_seconds));
  std::vector<std::string> seen;
  for (const auto& f : features) {
    if (std::find(seen.begin(), seen.end(), f.name) != seen.end()) continue;  // a check reported twice: one line
    seen.push_back(f.name);
    CUDNNCTL_TRY_ASSIGN(const auto line, feature_line(f));
    out += line;
  }
  if (out.size() >= k_nfd_file_max)
    return fail(ErrorCode::internal, fmt::format("the NFD feature file would have {} bytes; NFD ignores files of 64 KiB or more", out.size()),
                "nothing was written; report this as a bug of cudnnctl");
  return out;
}

} // namespace cudnnctl

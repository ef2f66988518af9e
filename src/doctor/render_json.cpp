// The doctor's report: the body of its JSON document (schema cudnnctl.doctor/2; the envelope is the app's).
#include <map>

#include <nlohmann/json.hpp>

#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/env/shadow_report_json.hpp"
#include "cudnnctl/env/toolkit_json.hpp"

namespace cudnnctl {

nlohmann::json doctor_json(const DoctorReport& r) {
  using nlohmann::json;
  auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  json checks = json::array();
  for (const auto& c : r.checks)
    checks.push_back({{"id", c.id}, {"layer", c.layer}, {"status", std::string(to_string(c.status))}, {"finding", c.finding},
                      {"cause", or_null(c.cause)}, {"fix", or_null(c.fix)}});
  std::map<std::string, int> counts;
  for (const auto& c : r.checks) ++counts[std::string(to_string(c.status))];
  const json cudnn = r.cudnn ? json{{"version", r.cudnn->version}, {"major", r.cudnn->major}, {"cuda_major", or_null(r.cudnn->cuda_major)},
                                     {"owner", r.cudnn->owner}}
                            : json(nullptr);
  return {{"host", or_null(r.host)},
          {"cudnn", cudnn},
          {"toolkit", r.toolkit ? toolkit_json(*r.toolkit) : json(nullptr)},
          {"offline", r.offline},
          {"notes", r.notes},
          {"shadow_scan", r.search ? shadow_report_json(*r.search, r.search_origin) : json(nullptr)},
          {"checks", checks},
          {"counts", counts},
          {"exit_code", to_int(doctor_exit_code(r))}};
}

} // namespace cudnnctl

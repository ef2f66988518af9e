// The doctor's report: the body of its JSON document (schema cudnnctl.doctor/2; the envelope is the app's).
#include <map>

#include <nlohmann/json.hpp>

#include "cudnnctl/owner/installer_entry.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/env/shadow_report_json.hpp"
#include "cudnnctl/env/toolkit_json.hpp"
#include "cudnnctl/owner/owner.hpp"

namespace cudnnctl {

namespace {

// NVIDIA's Windows installer's copies (files.windows_installer); null when not looked for (a Linux toolkit, no drive mapped).
nlohmann::json windows_installer_json(const DoctorReport& r) {
  using nlohmann::json;
  if (!r.facts || !r.facts->installer.gathered) return nullptr;
  const auto& in = r.facts->installer;
  const auto* fit = installer_copy_for_toolkit(*r.facts);
  json copies = json::array();
  for (const auto& c : in.copies)
    copies.push_back({{"dir", c.dir},
                      {"release", c.release},
                      {"cuda", c.cuda},
                      {"version", c.version.empty() ? json(nullptr) : json(c.version)},
                      {"dlls", c.dlls},
                      {"on_path", c.on_path},
                      {"fits_toolkit", fit == &c},
                      {"owner", owner_json(windows_installer_owner_here(c.release))}});
  return {{"root", in.root}, {"copies", copies}, {"bin_on_path", in.bin_on_path}};
}

}  // namespace

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
          {"windows_installer", windows_installer_json(r)},
          {"checks", checks},
          {"counts", counts},
          {"exit_code", to_int(doctor_exit_code(r))}};
}

} // namespace cudnnctl

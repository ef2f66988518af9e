// The doctor's report as one JSON document (schema cudnnctl.doctor/1).
#include <map>

#include <nlohmann/json.hpp>

#include "cudnnctl/doctor/doctor.hpp"

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
  json search = nullptr;
  if (r.search) {
    search = {{"origin", r.search_origin}, {"order", json::array()}, {"copies", json::array()}};
    for (const auto& d : r.search->order) search["order"].push_back({{"dir", d.dir}, {"via", d.via}, {"local", or_null(d.local)}});
    for (const auto& c : r.search->copies)
      search["copies"].push_back({{"dir", c.dir}, {"via", c.via}, {"major", c.major}, {"file", c.main_file}, {"version", c.version},
                                  {"wins", c.wins}, {"installed", c.installed}});
  }
  return {{"schema", "cudnnctl.doctor/1"},
          {"toolkit", r.toolkit ? json{{"root", r.toolkit->root}, {"version", r.toolkit->version}, {"os", std::string(to_string(r.toolkit->os))}}
                                : json(nullptr)},
          {"offline", r.offline},
          {"notes", r.notes},
          {"search_path", search},
          {"checks", checks},
          {"counts", counts},
          {"exit_code", to_int(doctor_exit_code(r))}};
}

} // namespace cudnnctl

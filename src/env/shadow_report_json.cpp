#include "cudnnctl/env/shadow_report_json.hpp"

#include <nlohmann/json.hpp>

namespace cudnnctl {

nlohmann::json shadow_report_json(const ShadowReport& report, const std::string& origin) {
  using nlohmann::json;
  const auto or_null = [](const std::string& s) { return s.empty() ? json(nullptr) : json(s); };
  json order = json::array();
  for (const auto& d : report.order) order.push_back({{"dir", d.dir}, {"via", d.via}, {"local", or_null(d.local)}});
  json copies = json::array();
  for (const auto& c : report.copies)
    copies.push_back({{"dir", c.dir}, {"via", c.via}, {"file", c.main_file}, {"major", c.major}, {"version", c.version},
                      {"wins", c.wins}, {"installed", c.installed}, {"machine", c.machine}, {"other_machine", c.other_machine},
                      {"owner", owner_json(c.owner)}});
  return {{"origin", or_null(origin)}, {"order", order}, {"copies", copies}, {"explanations", report.explanations}};
}

} // namespace cudnnctl

// cudnnctl report's text and JSON (schema cudnnctl.report/1; the envelope is the app's).
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/fleet/fleet_report.hpp"

namespace cudnnctl {

namespace {

std::string names(const std::vector<std::string>& v, std::size_t max = 8) {
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < v.size() && i < max; ++i) shown.push_back(terminal_safe(v[i]));
  return fmt::format("{}{}", fmt::join(shown, ", "), v.size() > max ? fmt::format(" and {} more", v.size() - max) : "");
}

} // namespace

std::string fleet_text(const FleetReport& f) {
  std::string out = fmt::format("{} node{}, {} release{}", f.nodes.size(), f.nodes.size() == 1 ? "" : "s", f.releases.size(),
                                f.releases.size() == 1 ? "" : "s");
  if (!f.majority.empty()) out += fmt::format("; the majority runs cuDNN {} ({} of {})", f.majority, f.releases.front().nodes.size(), f.nodes.size());
  out += "\n\nReleases:\n";
  for (const auto& r : f.releases) out += fmt::format("  {:<22} {:>5}  {}\n", r.release, r.nodes.size(), names(r.nodes));
  out += fmt::format("\nNodes that differ ({}):\n", f.outliers.size());
  if (f.outliers.empty()) out += "  none: every node runs the majority release and passes its checks\n";
  for (const auto& o : f.outliers) {
    out += fmt::format("  {}\n", terminal_safe(o.name));
    for (const auto& why : o.reasons) out += fmt::format("    - {}\n", terminal_safe(why));
  }
  out += "\nChecks by hosts (pass/warn/fail/skip):\n";
  for (const auto& c : f.checks) {
    out += fmt::format("  {} {:<22} {:>4} {:>4} {:>4} {:>4}", c.layer, terminal_safe(c.id), c.pass, c.warn, c.fail, c.skip);
    if (!c.failing.empty()) out += fmt::format("  fail: {}", names(c.failing));
    if (!c.warning.empty()) out += fmt::format("  warn: {}", names(c.warning));
    out += "\n";
  }
  if (!f.unreadable.empty()) {
    out += fmt::format("\nNot doctor documents ({}):\n", f.unreadable.size());
    for (const auto& u : f.unreadable) out += fmt::format("  {}\n", terminal_safe(u.why));
  }
  return out;
}

nlohmann::json fleet_json(const FleetReport& f) {
  using nlohmann::json;
  json nodes = json::array(), releases = json::array(), outliers = json::array(), checks = json::array(), unreadable = json::array();
  for (const auto& n : f.nodes)
    nodes.push_back({{"name", n.name}, {"host", n.host.empty() ? json(nullptr) : json(n.host)}, {"file", n.file},
                     {"cudnn", n.cudnn ? json(*n.cudnn) : json(nullptr)}, {"cuda_major", n.cuda_major.empty() ? json(nullptr) : json(n.cuda_major)},
                     {"toolkit", n.toolkit.empty() ? json(nullptr) : json(n.toolkit)}, {"exit_code", n.exit_code}});
  for (const auto& r : f.releases) releases.push_back({{"release", r.release}, {"count", r.nodes.size()}, {"nodes", r.nodes}});
  for (const auto& o : f.outliers) outliers.push_back({{"name", o.name}, {"reasons", o.reasons}});
  for (const auto& c : f.checks)
    checks.push_back({{"id", c.id}, {"layer", c.layer}, {"pass", c.pass}, {"warn", c.warn}, {"fail", c.fail}, {"skip", c.skip},
                      {"failing", c.failing}, {"warning", c.warning}});
  for (const auto& u : f.unreadable) unreadable.push_back({{"file", u.file}, {"why", u.why}});
  return {{"majority", f.majority.empty() ? json(nullptr) : json(f.majority)},
          {"releases", releases},
          {"nodes", nodes},
          {"outliers", outliers},
          {"checks", checks},
          {"unreadable", unreadable}};
}

} // namespace cudnnctl

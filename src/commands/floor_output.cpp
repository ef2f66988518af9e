#include "cudnnctl/commands/floor_output.hpp"

#include <nlohmann/json.hpp>
#include <algorithm>
#include <ostream>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cudnnctl {

namespace {
constexpr const char* k_families[] = {"GLIBC", "GLIBCXX", "CXXABI"};
}

nlohmann::json floor_to_json(const LibraryFloorReport& report, const HostSymbolVersions& host) {
  nlohmann::json floor = nlohmann::json::object();
  for (const auto* family : k_families) {
    const auto it = report.floor.highest.find(family);
    if (it == report.floor.highest.end()) continue;
    const auto h = host.highest.find(family);
    floor[family] = {{"needs", it->second.version.text()},
                     {"library", it->second.library},
                     {"host", h == host.highest.end() ? nlohmann::json(nullptr) : nlohmann::json(h->second.text())}};
  }
  nlohmann::json short_of = nlohmann::json::array();
  for (const auto& s : floor_shortfalls(report.floor, host)) short_of.push_back(s.needed.version.family);
  return {{"libraries", report.floor.libraries}, {"floor", floor}, {"machines", report.machines},
          {"unreadable", report.unreadable}, {"host_too_old", short_of}, {"host_libstdcxx", host.libstdcxx_path}};
}

void print_floor(std::ostream& out, const LibraryFloorReport& report, const HostSymbolVersions& host) {
  if (report.floor.libraries == 0) {
    out << fmt::format("  {:<18}{}\n", "C/C++ runtime", "no Linux shared libraries in the archive");
    return;
  }
  const auto short_of = floor_shortfalls(report.floor, host);
  for (const auto* family : k_families) {
    const auto it = report.floor.highest.find(family);
    if (it == report.floor.highest.end()) continue;
    const auto h = host.highest.find(family);
    const std::string host_text = h == host.highest.end() ? "unknown on this host" : "this host has " + h->second.text();
    const bool low = std::any_of(short_of.begin(), short_of.end(), [&](const auto& s) { return s.needed.version.family == family; });
    out << fmt::format("  {:<18}{} (first needed by {}; {}){}\n", std::string(family) + " floor", it->second.version.text(),
                       it->second.library, host_text, low ? ": TOO OLD" : "");
  }
  out << fmt::format("  {:<18}{} read ({})\n", "libraries", report.floor.libraries, fmt::join(report.machines, ", "));
  for (const auto& u : report.unreadable) out << fmt::format("  {:<18}{}\n", "unreadable", u);
}

nlohmann::json advisories_to_json(const std::vector<Advisory>& advisories) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& a : advisories)
    out.push_back({{"id", a.id}, {"from", a.from.release_label()}, {"before", a.before.release_label()}, {"fixed_in", a.fixed_in},
                   {"symptom", a.symptom}, {"affected", a.affected}, {"workaround", a.workaround}, {"sources", a.sources}});
  return out;
}

} // namespace cudnnctl

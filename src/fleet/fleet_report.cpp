// The fleet view: nodes named, releases counted, outliers and their reasons, every check across the hosts.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/fleet/fleet_report.hpp"

namespace cudnnctl {

namespace {

std::string release_of(const NodeDocument& n) {
  if (!n.cudnn) return "none";
  return n.cuda_major.empty() ? *n.cudnn : fmt::format("{} (CUDA {})", *n.cudnn, n.cuda_major);
}

// The host, or the file's name where another document has the same host (or there is none).
void name_nodes(std::vector<NodeDocument>& nodes) {
  std::map<std::string, int> per_host;
  for (const auto& n : nodes) ++per_host[n.host];
  for (auto& n : nodes) n.name = !n.host.empty() && per_host[n.host] == 1 ? n.host : std::string(base_name(n.file));
  std::sort(nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return std::tie(a.name, a.file) < std::tie(b.name, b.file); });
}

std::vector<ReleaseCount> count_releases(const std::vector<NodeDocument>& nodes) {
  std::map<std::string, ReleaseCount> by;
  std::map<std::string, const NodeDocument*> example;
  for (const auto& n : nodes) {
    auto& r = by[release_of(n)];
    r.release = release_of(n);
    r.nodes.push_back(n.name);
    example.try_emplace(r.release, &n);
  }
  std::vector<ReleaseCount> out;
  for (auto& [_, r] : by) out.push_back(std::move(r));
  // most nodes first; a tie goes to the newer cuDNN, then the newer CUDA ("none" last)
  std::stable_sort(out.begin(), out.end(), [&](const ReleaseCount& a, const ReleaseCount& b) {
    if (a.nodes.size() != b.nodes.size()) return a.nodes.size() > b.nodes.size();
    const auto* x = example[a.release];
    const auto* y = example[b.release];
    if (x->cudnn.has_value() != y->cudnn.has_value()) return x->cudnn.has_value();
    if (x->cudnn && *x->cudnn != *y->cudnn) return compare_versions(*x->cudnn, *y->cudnn) > 0;
    return compare_versions(x->cuda_major, y->cuda_major) > 0;
  });
  return out;
}

std::vector<CheckAcrossNodes> checks_across(const std::vector<NodeDocument>& nodes) {
  std::map<std::pair<int, std::string>, CheckAcrossNodes> by;
  for (const auto& n : nodes) {
    std::map<std::string, std::string> worst;  // a check reported twice on a node counts once, at its worst
    for (const auto& c : n.checks) {
      auto& w = worst[c.id];
      auto rank = [](const std::string& s) { return s == "fail" ? 3 : s == "warn" ? 2 : s == "pass" ? 1 : 0; };
      if (w.empty() || rank(c.status) > rank(w)) w = c.status;
      auto& row = by[{c.layer, c.id}];
      row.id = c.id;
      row.layer = c.layer;
    }
    for (const auto& [id, status] : worst) {
      const auto layer = std::find_if(n.checks.begin(), n.checks.end(), [&](const NodeCheck& c) { return c.id == id; })->layer;
      auto& row = by[{layer, id}];
      if (status == "pass") ++row.pass;
      else if (status == "warn") ++row.warn, row.warning.push_back(n.name);
      else if (status == "fail") ++row.fail, row.failing.push_back(n.name);
      else ++row.skip;
    }
  }
  std::vector<CheckAcrossNodes> out;
  for (auto& [_, row] : by) out.push_back(std::move(row));
  return out;
}

std::vector<std::string> reasons_for(const NodeDocument& n, const FleetReport& f) {
  std::vector<std::string> why;
  if (release_of(n) != f.majority)
    why.push_back(n.cudnn ? fmt::format("runs cuDNN {}, not the majority's {}", release_of(n), f.majority)
                          : fmt::format("no cuDNN found in its toolkit{}; the majority runs {}", n.toolkit.empty() ? "" : " " + n.toolkit, f.majority));
  for (const auto& c : n.checks) {
    if (c.status == "fail") why.push_back(fmt::format("{} failed: {}", c.id, c.finding));
    if (c.status != "warn") continue;
    const auto row = std::find_if(f.checks.begin(), f.checks.end(), [&](const CheckAcrossNodes& r) { return r.id == c.id; });
    if (row != f.checks.end() && row->pass * 2 > f.nodes.size()) why.push_back(fmt::format("{} warns where most nodes pass: {}", c.id, c.finding));
  }
  return why;
}

} // namespace

FleetReport build_fleet_report(std::vector<NodeDocument> nodes, std::vector<Unreadable> unreadable) {
  FleetReport f;
  name_nodes(nodes);
  f.nodes = std::move(nodes);
  f.unreadable = std::move(unreadable);
  f.releases = count_releases(f.nodes);
  if (!f.releases.empty()) f.majority = f.releases.front().release;
  f.checks = checks_across(f.nodes);
  for (const auto& n : f.nodes)
    if (auto why = reasons_for(n, f); !why.empty()) f.outliers.push_back({n.name, std::move(why)});
  return f;
}

ExitCode fleet_exit_code(const FleetReport& f) {
  return f.outliers.empty() && f.unreadable.empty() ? ExitCode::ok : ExitCode::problems_found;
}

} // namespace cudnnctl

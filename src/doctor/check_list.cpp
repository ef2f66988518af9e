// `doctor --list-checks`: the check table as text, JSON and Markdown (docs/doctor.md's list is generated
// from it, so the documented checks are the checks that run).
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/fix.hpp"

namespace cudnnctl {

namespace {

/// The facts a row needs gathered, by name (what --check ID will gather).
std::vector<std::string> need_names(unsigned needs) {
  static const std::pair<unsigned, const char*> names[] = {
      {need_receipt, "receipt"},   {need_search_path, "search_path"},
      {need_linkage, "linkage"},   {need_probe, "probe"},             {need_workload, "workload"},
      {need_driver_files, "driver_files"}, {need_stack, "stack"}, {need_bundles, "bundles"}, {need_gpu_code, "gpu_code"}};
  std::vector<std::string> out{"toolkit"};
  for (const auto& [bit, name] : names)
    if (needs & bit) out.emplace_back(name);
  return out;
}

std::string also_list(const CheckSpec& row, std::string_view quote) {
  std::string out;
  for (const auto id : reported_ids(row))
    if (id != row.id) out += fmt::format("{}{}{}{}", out.empty() ? "" : ", ", quote, id, quote);
  return out;
}

nlohmann::json fix_json(const CheckSpec& row) {
  const auto* rule = automatic_fix(row.id);
  if (!rule) return {{"kind", "printed"}};
  return {{"kind", "automatic"}, {"operation", std::string(to_string(rule->operation))}, {"command", std::string(rule->command)},
          {"fixes", std::string(rule->fixes)}};
}

} // namespace

nlohmann::json doctor_checks_json() {
  auto checks = nlohmann::json::array();
  for (const auto& row : check_table()) {
    auto also = nlohmann::json::array();
    for (const auto id : reported_ids(row))
      if (id != row.id) also.push_back(std::string(id));
    checks.push_back({{"id", std::string(row.id)}, {"layer", row.layer}, {"layer_name", std::string(layer_name(row.layer))},
                      {"what", std::string(row.what)}, {"also_reports", also}, {"needs", need_names(row.needs)}, {"fix", fix_json(row)}});
  }
  return {{"schema", "cudnnctl.doctor-checks/1"}, {"checks", checks}};
}

std::string doctor_checks_text() {
  std::string out;
  int layer = 0;
  for (const auto& row : check_table()) {
    if (row.layer != layer) out += fmt::format("{}layer {}  {}\n", layer == 0 ? "" : "\n", row.layer, layer_name(row.layer));
    layer = row.layer;
    out += fmt::format("  {:<22} {}\n", row.id, row.what);
    if (const auto also = also_list(row, ""); !also.empty()) out += fmt::format("  {:<22} (also reports {})\n", "", also);
    if (const auto* rule = automatic_fix(row.id)) out += fmt::format("  {:<22} fix: automatic (doctor --fix): {}\n", "", rule->fixes);
  }
  out += "\nRun some: cudnnctl doctor --check ID [--check ID]... (with what they need, nothing else)\n";
  out += "Fixes: every other check's fix is printed with its finding; doctor --fix applies the automatic ones\n";
  return out;
}

std::string doctor_checks_markdown() {
  std::string out = "| id | layer | what it checks | also reports | fix |\n| --- | --- | --- | --- | --- |\n";
  for (const auto& row : check_table()) {
    const auto* rule = automatic_fix(row.id);
    out += fmt::format("| `{}` | {} {} | {} | {} | {} |\n", row.id, row.layer, layer_name(row.layer), row.what, also_list(row, "`"),
                       rule ? "automatic: " + std::string(rule->fixes) : std::string("printed"));
  }
  return out;
}

} // namespace cudnnctl

#include "cudnnctl/doctor/check_table.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "cudnnctl/explain/signatures.hpp"

namespace cudnnctl {

const std::vector<CheckSpec>& check_table() {
  // each layer file's rows, in this order within a layer
  static const std::vector<CheckSpec> table = [] {
    std::vector<CheckSpec> all;
    for (const auto* rows : {&toolkit_check_rows(), &files_check_rows(), &installer_check_rows(), &release_check_rows(), &bundles_check_rows(),
                             &mixed_check_rows(), &gpu_code_check_rows(), &loader_check_rows(), &driver_check_rows(), &driver_floor_check_rows(),
                             &stack_check_rows(), &workload_check_rows()})
      all.insert(all.end(), rows->begin(), rows->end());
    std::stable_sort(all.begin(), all.end(), [](const CheckSpec& x, const CheckSpec& y) { return x.layer < y.layer; });
    return all;
  }();
  return table;
}

unsigned needs_for_layer(int only_layer, bool offline) {
  unsigned needs = 0;
  for (const auto& row : check_table())
    if (only_layer == 0 || row.layer == only_layer) needs |= row.needs;
  if (offline) needs &= ~(need_probe | need_workload);
  return needs;
}

const CheckSpec* find_check(std::string_view id) {
  for (const auto& row : check_table())
    if (row_reports(row, id)) return &row;
  return nullptr;
}

std::vector<std::string_view> reported_ids(const CheckSpec& row) {
  std::vector<std::string_view> ids{row.id};
  std::string_view rest = row.also;
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    const auto word = rest.substr(0, space);
    if (!word.empty()) ids.push_back(word);
    rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
  }
  return ids;
}

bool row_reports(const CheckSpec& row, std::string_view id) {
  const auto ids = reported_ids(row);
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

unsigned needs_for_checks(const std::vector<std::string>& ids, bool offline) {
  unsigned needs = 0;
  for (const auto& id : ids)
    if (const auto* row = find_check(id)) needs |= row->needs;
  if (offline) needs &= ~(need_probe | need_workload);
  return needs;
}

std::string_view layer_id_prefix(int layer) {
  static constexpr std::string_view prefixes[] = {"", "toolkit", "files", "loader", "driver", "workload"};
  return layer >= 1 && layer <= 5 ? prefixes[layer] : std::string_view{};
}

Check make_check(std::string id, int layer, CheckStatus status, std::string finding, std::string_view signature_id) {
  Check c{std::move(id), layer, status, std::move(finding), {}, {}};
  if (!signature_id.empty()) {
    const auto& sig = signature(signature_id);
    c.cause = std::string(sig.cause);
    c.fix = std::string(sig.fix);
  }
  return c;
}

} // namespace cudnnctl

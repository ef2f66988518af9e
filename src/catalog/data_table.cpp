#include "cudnnctl/catalog/data_table.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace cudnnctl {

Result<void> read_data_table(std::string_view json_text, const std::string& origin, const DataTable& table,
                             const std::function<Result<void>(const nlohmann::json& row, const TableRowError& bad)>& row) {
  const auto hint = fmt::format("fix the {} ({}) and rebuild", table.name, table.data_file);
  if (json_text.size() > k_data_table_max_bytes)
    return fail(ErrorCode::catalog_invalid,
                fmt::format("{} is {} bytes, more than a {} may be ({})", origin, json_text.size(), table.name, k_data_table_max_bytes), hint,
                origin);
  const auto doc = nlohmann::json::parse(json_text, nullptr, false);
  const std::string key(table.list_key);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains(key) || !doc[key].is_array())
    return fail(ErrorCode::catalog_invalid, fmt::format("{} is not a {} (no '{}' list)", origin, table.name, key), hint, origin);
  const auto& rows = doc[key];
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const TableRowError bad = [&](const std::string& why) {
      return fail(ErrorCode::catalog_invalid, fmt::format("{}: {} #{} {}", origin, table.row, i, why), hint, origin);
    };
    if (!rows[i].is_object()) return bad("is not an object");
    CUDNNCTL_TRY(row(rows[i], bad));
  }
  return {};
}

std::string row_text(const nlohmann::json& row, const char* key) {
  return row.contains(key) && row[key].is_string() ? row[key].get<std::string>() : std::string();
}

bool row_texts(const nlohmann::json& row, const char* key, std::vector<std::string>& out) {
  if (!row.contains(key)) return true;
  if (!row[key].is_array()) return false;
  for (const auto& v : row[key]) {
    if (!v.is_string()) return false;
    out.push_back(v.get<std::string>());
  }
  return true;
}

}  // namespace cudnnctl

#pragma once
// The one reader of cudnnctl's sourced tables in data/ (advisories, driver floors, architecture spans): a JSON
// object whose list (`advisories`, `floors`, `spans`) holds one object a row. The reader bounds the text, checks
// the document and each row's shape and gives every failure the same form (catalog.invalid, the origin, the
// row's number, why, and the data file to fix); each table only reads the fields of its own rows.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct DataTable {
  std::string_view name;       // "advisory table": what the document is
  std::string_view row;        // "advisory": what one row is
  std::string_view list_key;   // "advisories": the document's list of rows
  std::string_view data_file;  // "data/cudnn-advisories.json": where the table is kept
};

/// The largest table text read (the embedded tables are a few KiB; a user's file is checked as hostile).
inline constexpr std::size_t k_data_table_max_bytes = std::size_t{4} << 20;

/// Makes one row's error: `bad("is not an object")` -> "<origin>: advisory #3 is not an object".
using TableRowError = std::function<Unexpected<Error>(const std::string& why)>;

/// Reads the table's rows in order: `row` gets each one (always a JSON object) and the row's error maker; the
/// first error stops the reading and is returned.
Result<void> read_data_table(std::string_view json_text, const std::string& origin, const DataTable& table,
                             const std::function<Result<void>(const nlohmann::json& row, const TableRowError& bad)>& row);

/// Reads the table into rows: `parse_row` reads one (it also sees the rows before it, for a table whose rows
/// must differ); the first error stops the reading.
template <class Row>
Result<std::vector<Row>> read_table_rows(std::string_view json_text, const std::string& origin, const DataTable& table,
                                         Result<Row> (*parse_row)(const nlohmann::json& row, const TableRowError& bad,
                                                                  const std::vector<Row>& before)) {
  std::vector<Row> rows;
  CUDNNCTL_TRY(read_data_table(json_text, origin, table, [&](const nlohmann::json& row, const TableRowError& bad) -> Result<void> {
    CUDNNCTL_TRY_ASSIGN(auto parsed, parse_row(row, bad, rows));
    rows.push_back(std::move(parsed));
    return {};
  }));
  return rows;
}

/// The rows of the built-in (embedded) table, read on first use, or none when it does not parse (each table's
/// tests check that it parses); its origin in errors is "built-in <table name>". One table per row type.
template <class Row>
const std::vector<Row>& builtin_table_rows(const DataTable& table, std::string_view json_text,
                                           Result<Row> (*parse_row)(const nlohmann::json& row, const TableRowError& bad,
                                                                    const std::vector<Row>& before)) {
  static const std::vector<Row> rows = [&] {
    auto parsed = read_table_rows(json_text, "built-in " + std::string(table.name), table, parse_row);
    return parsed ? std::move(*parsed) : std::vector<Row>{};
  }();
  return rows;
}

/// A row's text field, or "" when it is missing or not a string.
std::string row_text(const nlohmann::json& row, const char* key);

/// Appends a row's list of strings to `out`: true when the key is missing or is such a list, false otherwise.
bool row_texts(const nlohmann::json& row, const char* key, std::vector<std::string>& out);

}  // namespace cudnnctl

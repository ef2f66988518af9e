#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "cudnnctl/catalog/data_table.hpp"

using namespace cudnnctl;

namespace {
constexpr DataTable k_test_table{"test table", "test row", "rows", "data/test-rows.json"};

// Reads the table, collecting each row's "name" (a row without one is refused through its error maker).
Result<std::vector<std::string>> names_of(std::string_view text) {
  std::vector<std::string> out;
  CUDNNCTL_TRY(read_data_table(text, "t.json", k_test_table, [&](const nlohmann::json& row, const TableRowError& bad) -> Result<void> {
    auto name = row_text(row, "name");
    if (name.empty()) return bad("has no name");
    out.push_back(std::move(name));
    return {};
  }));
  return out;
}
}  // namespace

TEST_CASE("data tables: rows in order, each failure with the origin, the row and the file to fix", "[data_table]") {
  const auto ok = names_of(R"({"rows": [{"name": "a"}, {"name": "b", "extra": 1}]})");
  REQUIRE(ok);
  CHECK(*ok == std::vector<std::string>{"a", "b"});
  CHECK(names_of(R"({"rows": []})"));

  for (const char* doc : {"[]", "not json", R"({"other": []})", R"({"rows": {}})", ""}) {
    INFO(doc);
    const auto r = names_of(doc);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::catalog_invalid);
    CHECK(r.error().message == "t.json is not a test table (no 'rows' list)");
    CHECK(r.error().hint == "fix the test table (data/test-rows.json) and rebuild");
    CHECK(r.error().path == "t.json");
  }
  const auto not_object = names_of(R"({"rows": [{"name": "a"}, 7]})");
  REQUIRE_FALSE(not_object);
  CHECK(not_object.error().message == "t.json: test row #1 is not an object");
  const auto nameless = names_of(R"({"rows": [{"name": "a"}, {"name": "b"}, {"name": 3}]})");
  REQUIRE_FALSE(nameless);
  CHECK(nameless.error().message == "t.json: test row #2 has no name");
  CHECK(nameless.error().hint == "fix the test table (data/test-rows.json) and rebuild");
}

TEST_CASE("data tables: a text larger than any table is refused before it is parsed", "[data_table]") {
  std::string huge = R"({"rows": [)";
  while (huge.size() <= k_data_table_max_bytes) huge += R"({"name": "row"},)";
  huge += R"({"name": "last"}]})";
  const auto r = names_of(huge);
  REQUIRE_FALSE(r);
  CHECK_THAT(r.error().message, Catch::Contains("t.json is ") && Catch::Contains("more than a test table may be"));
}

TEST_CASE("data tables: a row's strings and lists of strings", "[data_table]") {
  const auto row = nlohmann::json::parse(R"({"s": "x", "n": 1, "list": ["a", "b"], "mixed": ["a", 2], "scalar": "a"})");
  CHECK(row_text(row, "s") == "x");
  CHECK(row_text(row, "n").empty());
  CHECK(row_text(row, "missing").empty());
  std::vector<std::string> out;
  CHECK(row_texts(row, "list", out));
  CHECK(out == std::vector<std::string>{"a", "b"});
  CHECK(row_texts(row, "missing", out));
  CHECK(out.size() == 2);
  CHECK_FALSE(row_texts(row, "mixed", out));
  CHECK_FALSE(row_texts(row, "scalar", out));
}

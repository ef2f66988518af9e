#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "cudnnctl/explain/signatures.hpp"

using namespace cudnnctl;

namespace {
std::string table_with(const std::string& rows) { return R"({"schema": 1, "signatures": [)" + rows + "]}"; }
const std::string k_row = R"({"id": "a.b", "check": "a.b", "layer": 2, "title": "T", "cause": "C", "fix": "F"})";
} // namespace

TEST_CASE("the built-in signature table is data/failure-signatures.json, and it is sound", "[signatures]") {
  std::ifstream in(std::string(CUDNNCTL_SOURCE_DIR) + "/data/failure-signatures.json", std::ios::binary);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  CHECK_FALSE(signature_table_problem(text.str()));
  REQUIRE(signatures().size() >= 50);
  CHECK(signature("toolkit.found").layer == 1);
  CHECK(signature("loader.factory-registered").harmless);
  CHECK_FALSE(signature("files.stale").harmless);
  CHECK(signature("files.complete").symptom.find("cudnn_cnn_infer64_8.dll") != std::string_view::npos);
}

TEST_CASE("a signature table with a fault is refused with the fault named", "[signatures]") {
  CHECK_FALSE(signature_table_problem(table_with(k_row)));
  CHECK(signature_table_problem("{").has_value());
  CHECK(*signature_table_problem(R"({"schema": 2, "signatures": []})") == "schema is not 1");
  CHECK_THAT(*signature_table_problem(table_with(k_row + "," + k_row)), Catch::Contains("'a.b' is listed twice"));
  CHECK_THAT(*signature_table_problem(table_with(R"({"id": "x", "check": "x", "layer": 6, "title": "T", "cause": "C", "fix": "F"})")),
             Catch::Contains("layer 6"));
  CHECK_THAT(*signature_table_problem(table_with(R"({"id": "x", "check": "x", "layer": 1, "title": "T", "cause": "C"})")),
             Catch::Contains("no \"fix\""));
  CHECK_THAT(*signature_table_problem(table_with(R"({"id": "x", "check": "x", "layer": 1, "title": "", "cause": "C", "fix": "F"})")),
             Catch::Contains("empty \"title\""));
  CHECK(signature_table_problem(table_with(R"({"id": 5, "check": "x", "layer": 1, "title": "T", "cause": "C", "fix": "F"})")).has_value());
}

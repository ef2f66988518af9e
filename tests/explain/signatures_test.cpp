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

// One knowledge base: a doctor check that detects a condition a program would report declares the messages that
// condition prints (explain reads them from the row), or says why it prints none.
TEST_CASE("every doctor check's signature declares its messages or why it is silent", "[signatures]") {
  std::size_t declared = 0;
  for (const auto& s : signatures()) {
    if (s.check == "explain") continue;  // explain's own rows: its patterns and decoders name them
    INFO(s.id << " (check " << s.check << ")");
    CHECK(s.messages.empty() != s.silent.empty());
    declared += s.messages.size();
    for (const auto& m : s.messages) {
      CHECK_FALSE(m.all_of[0].empty());
      for (auto a : m.also)
        if (!a.empty()) CHECK(signature(a).id == a);
    }
  }
  CHECK(declared >= 40);
  CHECK(signature("driver.compat-shadows").messages.size() >= 2);  // the conditions issue 54 named
  CHECK_FALSE(signature("driver.wsl.copies").messages.empty());
  CHECK_FALSE(signature("driver.stub").messages.empty());
  CHECK_FALSE(signature("toolkit.found").silent.empty());
}

TEST_CASE("a message shape that cannot match or names no row is refused", "[signatures]") {
  const auto row = [](const std::string& extra) {
    return table_with(R"({"id": "x", "check": "x", "layer": 1, "title": "T", "cause": "C", "fix": "F", )" + extra + "}");
  };
  CHECK_FALSE(signature_table_problem(row(R"("messages": [{"shape": ["a b"], "first": true}])")));
  CHECK_FALSE(signature_table_problem(row(R"("silent": "prints nothing")")));
  CHECK_THAT(*signature_table_problem(row(R"("messages": [{"shape": ["Upper"]}])")), Catch::Contains("not lower case"));
  CHECK_THAT(*signature_table_problem(row(R"("messages": [{"shape": []}])")), Catch::Contains("0 pieces"));
  CHECK_THAT(*signature_table_problem(row(R"("messages": [{"shape": ["a", "b", "c", "d"]}])")), Catch::Contains("4 pieces"));
  CHECK_THAT(*signature_table_problem(row(R"("messages": [{"shape": ["a"], "also": ["nowhere"]}])")), Catch::Contains("no row"));
  CHECK_THAT(*signature_table_problem(row(R"("messages": [{"shape": ["a"]}], "silent": "s")")), Catch::Contains("silent"));
}

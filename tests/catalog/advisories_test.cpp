#include <catch2/catch.hpp>

#include "cudnnctl/catalog/advisories.hpp"

using namespace cudnnctl;

namespace {
Version v(const char* s) { return *parse_version(s); }
} // namespace

TEST_CASE("the built-in advisory table parses, and every row is sourced", "[advisories]") {
  const auto& table = builtin_advisories();
  REQUIRE(table.size() >= 3);
  for (const auto& a : table) {
    INFO(a.id);
    CHECK_FALSE(a.sources.empty());
    CHECK(a.from < a.before);
    CHECK_FALSE(a.fixed_in.empty());
  }
}

TEST_CASE("a version inside a range is warned about, with the release that fixes it", "[advisories]") {
  const auto& table = builtin_advisories();
  auto ids = [&](const char* ver) {
    std::vector<std::string> out;
    for (const auto& a : advisories_for(v(ver), table)) out.push_back(a.id);
    return out;
  };
  CHECK(ids("9.10.1.4").empty());
  CHECK(ids("9.10.2.21") == std::vector<std::string>{"conv3d-tf32-wrong-results"});
  CHECK(ids("9.12.0.46").size() == 3);
  CHECK(ids("9.15.1.9").size() == 1);
  CHECK(ids("9.16.0.29").empty());
  CHECK(ids("9.19.0.56").empty());
  CHECK(ids("9").empty());
  const auto w = advisory_warning(v("9.12.0.46"), advisories_for(v("9.12.0.46"), table).front());
  CHECK_THAT(w, Catch::Contains("cuDNN 9.12.0") && Catch::Contains("fixed in 9.16.0") && Catch::Contains("https://"));
}

TEST_CASE("an advisory table without sources or with an empty range is refused", "[advisories]") {
  CHECK_FALSE(parse_advisories(R"({"advisories":[{"id":"x","from":"9.1.0","before":"9.2.0","symptom":"s","affected":"a","sources":[]}]})", "t"));
  CHECK_FALSE(parse_advisories(R"({"advisories":[{"id":"x","from":"9.2.0","before":"9.2.0","symptom":"s","affected":"a","sources":["https://x"]}]})", "t"));
  CHECK_FALSE(parse_advisories("[]", "t"));
  CHECK(parse_advisories(R"({"advisories":[{"id":"x","from":"9.1.0","before":"9.2.0","symptom":"s","affected":"a","sources":["https://x"]}]})", "t"));
}

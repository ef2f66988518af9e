#include <catch2/catch.hpp>

#include <set>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/catalog/catalog.hpp"

using namespace cudnnctl;

TEST_CASE("the built-in catalog is intact", "[catalog]") {
  const auto& c = Catalog::embedded();
  REQUIRE(c.archives().size() >= 491);
  std::set<std::pair<std::string, std::string>> pairs;
  std::set<std::string> names;
  for (const auto& a : c.archives()) {
    INFO(a.filename);
    CHECK(names.insert(a.filename).second);  // one entry per file name; further hashes live inside it
    REQUIRE_FALSE(a.hashes.empty());
    for (const auto& h : a.hashes) {
      CHECK(is_sha256_hex(h.sha256));
      CHECK(to_lower_ascii(h.sha256) == h.sha256);
      CHECK_FALSE(h.sources.empty());
      CHECK_FALSE(h.confidence.empty());
      CHECK(pairs.emplace(a.filename, h.sha256).second);
    }
    CHECK(a.url.rfind("https://developer.download.nvidia.com/", 0) == 0);
  }
  CHECK_FALSE(c.support().empty());
  for (const auto& s : c.support()) CHECK_FALSE(s.source.empty());
}

TEST_CASE("the seed's archive has NVIDIA's hash and size", "[catalog]") {
  const auto* a = Catalog::embedded().find_archive("cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  REQUIRE(a);
  REQUIRE(a->hashes.size() == 1);
  CHECK(a->hashes[0].sha256 == "3083b5bf20b0b2b29305de088e0b2cdbb78b5190655a27e8a7c596e47042eedf");
  CHECK(a->hashes[0].size == 669629858u);
  CHECK(a->hashes[0].md5 == "4d5580576848aceaa2c2d07caac9c9c9");
  CHECK(a->hashes[0].confidence == "A");
}

TEST_CASE("9.1 cuda12 supports CUDA 12.0-12.4, not the seed's 12.0-12.2", "[catalog]") {
  const auto rows = Catalog::embedded().support_for("9.1.0", "12");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0]->cuda_toolkits.front() == "12.0");
  CHECK(rows[0]->cuda_toolkits.back() == "12.4");
  CHECK(rows[0]->min_driver_linux == "525.60.13");
  CHECK(rows[0]->min_driver_windows == "527.41");
  CHECK_THAT(rows[0]->notes.front(), Catch::Contains("12.0-12.2"));
}

TEST_CASE("names NVIDIA re-issued keep every known hash", "[catalog]") {
  const auto* a = Catalog::embedded().find_archive("cudnn-linux-x86_64-8.3.2.44_cuda11.5-archive.tar.xz");
  REQUIRE(a);
  CHECK(a->hashes.size() >= 2);
}

TEST_CASE("the newest release is known with its date", "[catalog]") {
  const auto* r = Catalog::embedded().newest_release();
  REQUIRE(r);
  CHECK(r->label == "9.27.0");
  CHECK(r->date == "2026-09-29");
  CHECK(compare_dotted("9.10.0", "9.9.0") > 0);
  CHECK(compare_dotted("12.4", "12.4") == 0);
}

TEST_CASE("invalid catalogs are refused with the reason", "[catalog]") {
  const auto not_json = Catalog::parse("{", "x.json");
  REQUIRE_FALSE(not_json);
  CHECK(not_json.error().code == ErrorCode::catalog_invalid);
  CHECK(exit_code_for(not_json.error().code) == ExitCode::bad_catalog);

  const auto bad_hex = Catalog::parse(R"({"schema_version":1,"archives":[{"filename":"a.zip","hashes":[{"sha256":"abc","sources":["s"]}]}]})", "x.json");
  REQUIRE_FALSE(bad_hex);
  CHECK_THAT(bad_hex.error().message, Catch::Contains("64 hex"));

  const std::string h(64, 'a');
  const auto no_source = Catalog::parse(R"({"schema_version":1,"archives":[{"filename":"a.zip","hashes":[{"sha256":")" + h + R"(","sources":[]}]}]})", "x.json");
  REQUIRE_FALSE(no_source);
  CHECK_THAT(no_source.error().message, Catch::Contains("no source"));

  const auto dup = Catalog::parse(R"({"schema_version":1,"archives":[{"filename":"a.zip","hashes":[{"sha256":")" + h +
                                      R"(","sources":["s"]},{"sha256":")" + h + R"(","sources":["t"]}]}]})",
                                  "x.json");
  REQUIRE_FALSE(dup);
  CHECK_THAT(dup.error().message, Catch::Contains("twice"));

  const std::string one_archive = R"({"filename":"a.zip","hashes":[{"sha256":")" + h + R"(","sources":["s"]}]})";
  const auto wrong_type = Catalog::parse(R"({"schema_version":1,"archives":[)" + one_archive +
                                             R"(],"support":[{"release":9,"source":"s"}]})",
                                         "x.json");
  REQUIRE_FALSE(wrong_type);
  CHECK(wrong_type.error().code == ErrorCode::catalog_invalid);
  CHECK_THAT(wrong_type.error().message, Catch::Contains("x.json") && Catch::Contains("must be string"));

  const auto negative_size = Catalog::parse(R"({"schema_version":1,"archives":[{"filename":"a.zip","hashes":[{"sha256":")" + h +
                                                R"(","size":-5,"sources":["s"]}]}]})",
                                            "x.json");
  REQUIRE_FALSE(negative_size);
  CHECK_THAT(negative_size.error().message, Catch::Contains("not a byte count"));

  // null is "not known", the same as a field left out
  const auto nulls = Catalog::parse(R"({"schema_version":1,"archives":[{"filename":"a.zip","url":null,"hashes":[{"sha256":")" + h +
                                        R"(","size":null,"md5":null,"sources":["s"]}]}],"support":[{"release":"9.1.0","source":"s","min_driver_linux":null}]})",
                                    "x.json");
  REQUIRE(nulls);
  CHECK(nulls->archives().at(0).url.empty());
  CHECK_FALSE(nulls->archives().at(0).hashes.at(0).size);
  CHECK(nulls->support().at(0).min_driver_linux.empty());
  CHECK(nulls->support().at(0).release == "9.1.0");

  // nested far deeper than any catalog record: refused or read, never a crash
  const std::string deep = R"({"schema_version":1,"archives":[],"support":)" + std::string(200000, '[') + std::string(200000, ']') + "}";
  CHECK_FALSE(Catalog::parse(deep, "deep.json"));

  const auto version = Catalog::parse(R"({"schema_version":2,"archives":[]})", "x.json");
  REQUIRE_FALSE(version);

  const auto missing = Catalog::load_file("/nonexistent/catalog.json");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == ErrorCode::catalog_unreadable);
}

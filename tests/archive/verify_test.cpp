#include <catch2/catch.hpp>

#include "cudnnctl/archive/verify.hpp"

using namespace cudnnctl;

namespace {
const std::string A(64, 'a');
const std::string B(64, 'b');
} // namespace

TEST_CASE("sha256sum text: matching line, star form, bare hash, bad lines", "[verify]") {
  CHECK(*hash_from_sha256sum_text(A + "  other.zip\n" + B + " *x.zip\n", "x.zip", "f") == B);
  CHECK(*hash_from_sha256sum_text(A + "\n", "x.zip", "f") == A);
  CHECK(*hash_from_sha256sum_text("# comment\r\n" + std::string(64, 'A') + "  x.zip\r\n", "x.zip", "f") == A);
  CHECK(*hash_from_sha256sum_text(A + "  /some/dir/x.zip\n", "x.zip", "f") == A);
  CHECK(hash_from_sha256sum_text("not a hash  x.zip\n", "x.zip", "f").error().code == ErrorCode::hash_bad_input);
  CHECK(hash_from_sha256sum_text("", "x.zip", "f").error().code == ErrorCode::hash_bad_input);
  CHECK(hash_from_sha256sum_text(A + "  a.zip\n" + B + "  b.zip\n", "x.zip", "f").error().code == ErrorCode::hash_bad_input);
}

TEST_CASE("a mismatch says what it most likely means", "[verify]") {
  const std::vector<ExpectedHash> catalog{{A, "catalog", 1000}};
  const auto short_file = judge_hash("x.zip", 400, B, catalog, false);
  REQUIRE_FALSE(short_file);
  CHECK(short_file.error().code == ErrorCode::hash_mismatch);
  CHECK_THAT(short_file.error().message, Catch::Contains("incomplete download") && Catch::Contains("40.0%") && Catch::Contains(A) &&
                                             Catch::Contains(B));
  CHECK_THAT(judge_hash("x.zip", 1000, B, catalog, false).error().message, Catch::Contains("unknown build of a known name"));
  CHECK_THAT(judge_hash("x.zip", 5000, B, catalog, false).error().message, Catch::Contains("different file"));
  CHECK_THAT(judge_hash("x.zip", 5000, B, {{A, "--sha256", std::nullopt}}, false).error().message, Catch::Contains("different file"));
  CHECK(exit_code_for(ErrorCode::hash_mismatch) == ExitCode::verification_failed);
}

TEST_CASE("a match names its origin, no expected hash fails closed", "[verify]") {
  const auto ok = judge_hash("x.zip", 1000, A, {{B, "first", 1000}, {A, "second", std::nullopt}}, false);
  REQUIRE(ok);
  CHECK(ok->matched->origin == "second");
  const auto none = judge_hash("x.zip", 1, A, {}, false);
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::hash_unknown);
  CHECK(exit_code_for(none.error().code) == ExitCode::unverifiable);
  const auto allowed = judge_hash("x.zip", 1, A, {}, true);
  REQUIRE(allowed);
  CHECK_FALSE(allowed->matched);
}

TEST_CASE("expected hashes come from --sha256, then the catalog", "[verify]") {
  std::vector<std::string> warnings;
  const auto& catalog = Catalog::embedded();
  const auto given = expected_hashes("/nowhere/x.zip", "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", {A, ""}, catalog, warnings);
  REQUIRE(given);
  REQUIRE(given->size() == 1);
  CHECK((*given)[0].origin == "--sha256");
  const auto from_catalog = expected_hashes("/nowhere/cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip",
                                            "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip", {}, catalog, warnings);
  REQUIRE(from_catalog);
  REQUIRE(from_catalog->size() == 1);
  CHECK((*from_catalog)[0].sha256 == "3083b5bf20b0b2b29305de088e0b2cdbb78b5190655a27e8a7c596e47042eedf");
  CHECK((*from_catalog)[0].size == 669629858u);
  CHECK(expected_hashes("x.zip", "x.zip", {"xyz", ""}, catalog, warnings).error().code == ErrorCode::hash_bad_input);
}

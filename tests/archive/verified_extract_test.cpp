#include <catch2/catch.hpp>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <tuple>

#include "cudnnctl/archive/verified_extract.hpp"
#include "test_archives.hpp"

using namespace cudnnctl;
using cudnnctl::testing::L91;
using cudnnctl::testing::W91;
using cudnnctl::testing::TempDir;
using cudnnctl::testing::options_for;
using cudnnctl::testing::test_archive;
namespace fs = std::filesystem;

namespace {
ExtractOptions two_threads() {  // the hash and two inflating workers at once, as an install runs
  auto o = options_for(W91);
  o.threads = 2;
  return o;
}

} // namespace

TEST_CASE("verified extraction: an archive written to while it is read is refused, staging dropped", "[verified_extract]") {
  TempDir tmp;
  const auto zip = (tmp.path() / (W91 + ".zip")).string();
  fs::copy_file(test_archive("odd/methods.zip"), zip);
  const auto staging = (tmp.path() / "staging").string();

  SECTION("unchanged: extracted, with the hash of the bytes read") {
    fs::create_directories(staging);
    const auto r = verify_and_extract(zip, ArchiveFormat::zip, {}, true, staging, two_threads(), {});
    INFO((r ? std::string() : r.error().message));
    REQUIRE(r);
    CHECK(fs::exists(fs::path(staging) / W91 / "bin" / "big.dll"));
  }
  SECTION("a byte appended while the members inflate") {
    fs::create_directories(staging);
    auto options = two_threads();
    std::atomic<bool> appended{false};  // on_bytes runs on every worker thread
    options.on_bytes = [&](std::uint64_t) {
      if (appended.exchange(true)) return;
      std::ofstream(zip, std::ios::binary | std::ios::app) << 'x';
    };
    const auto r = verify_and_extract(zip, ArchiveFormat::zip, {}, true, staging, options, {});
    REQUIRE(appended.load());
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::archive_corrupt);
    CHECK_THAT(r.error().message, Catch::Contains("changed while it was being read"));
    CHECK_THAT(r.error().hint, Catch::Contains("nothing was installed"));
    CHECK_FALSE(fs::exists(staging));
  }
  SECTION("replaced by another file of the same size while it is read") {
    fs::create_directories(staging);
    auto options = two_threads();
    std::atomic<bool> replaced{false};
    options.on_bytes = [&](std::uint64_t) {
      if (replaced.exchange(true)) return;
      const auto other = zip + ".new";
      fs::copy_file(zip, other);
      fs::rename(other, zip);
    };
    const auto r = verify_and_extract(zip, ArchiveFormat::zip, {}, true, staging, options, {});
    REQUIRE(replaced.load());
    REQUIRE_FALSE(r);
    CHECK_THAT(r.error().message, Catch::Contains("changed while it was being read"));
  }
}

TEST_CASE("verified extraction: a damaged zip is still judged by its hash first", "[verified_extract]") {
  // the member fails before any worker takes the hash job: verify_and_extract hashes afterwards
  TempDir tmp;
  const auto zip = (tmp.path() / (W91 + ".zip")).string();
  fs::copy_file(test_archive("odd/crc-deflated.zip"), zip);
  const auto staging = (tmp.path() / "staging").string();
  for (const unsigned threads : {1u, 2u}) {
    INFO(threads << " thread(s)");
    fs::create_directories(staging);
    auto options = options_for(W91);
    options.threads = threads;
    const std::vector<ExpectedHash> expected = {{std::string(64, 'a'), "--sha256", std::nullopt}};
    const auto mismatch = verify_and_extract(zip, ArchiveFormat::zip, expected, false, staging, options, {});
    REQUIRE_FALSE(mismatch);
    CHECK(mismatch.error().code == ErrorCode::hash_mismatch);
    CHECK_FALSE(fs::exists(staging));

    fs::create_directories(staging);
    const auto unverified = verify_and_extract(zip, ArchiveFormat::zip, {}, true, staging, options, {});
    REQUIRE_FALSE(unverified);
    CHECK(unverified.error().code == ErrorCode::archive_corrupt);
    CHECK_THAT(unverified.error().message, Catch::Contains("fails its CRC check"));
    CHECK_FALSE(fs::exists(staging));
  }
}

TEST_CASE("verified extraction: the hash is the archive's, whether a zip worker or its own thread computed it", "[verified_extract]") {
  for (const auto& [name, format, top] : {std::tuple{"python-" + W91 + ".zip", ArchiveFormat::zip, W91}, std::tuple{L91 + ".tar.xz", ArchiveFormat::tar_xz, L91}}) {
    INFO(name);
    TempDir tmp;
    const auto archive = test_archive("good/" + name);
    const auto staging = (tmp.path() / "staging").string();
    fs::create_directories(staging);
    auto options = options_for(top);
    options.threads = format == ArchiveFormat::zip ? 2 : 1;
    std::uint64_t hashed = 0;
    const auto r = verify_and_extract(archive, format, {}, true, staging, options, [&](std::uint64_t done, std::uint64_t) { hashed = done; });
    INFO((r ? std::string() : r.error().message));
    REQUIRE(r);
    const auto expected = sha256_file(archive);
    REQUIRE(expected);
    CHECK(r->verify.sha256 == *expected);
    CHECK(hashed == fs::file_size(archive));
    CHECK(r->extract.files > 0);
  }
}

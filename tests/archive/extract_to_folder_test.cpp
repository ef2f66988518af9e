#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "cudnnctl/archive/extract_to_folder.hpp"
#include "test_archives.hpp"

using namespace cudnnctl;
using cudnnctl::testing::L91;
using cudnnctl::testing::TempDir;
using cudnnctl::testing::test_archive;
namespace fs = std::filesystem;

namespace {

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}
} // namespace

TEST_CASE("extract_to_new_folder: staging beside the folder, renamed into place, nothing left over", "[extract_to_folder]") {
  TempDir tmp;
  const auto a = staging_folder_for((tmp.path() / "out").string());
  const auto b = staging_folder_for((tmp.path() / "out").string());
  CHECK(a != b);
  CHECK(fs::path(a).parent_path() == tmp.path());
  CHECK_THAT(a, Catch::StartsWith((tmp.path() / "out.cudnnctl-staging-").string()));

  fs::create_directories(tmp.path() / "empty");  // an empty folder may be named
  const auto done = extract_to_new_folder(test_archive("good/" + L91 + ".tar.xz"), ArchiveFormat::tar_xz, {}, true,
                                          (tmp.path() / "empty").string(), {});
  REQUIRE(done);
  CHECK(done->folder == (tmp.path() / "empty").string());
  CHECK(done->result.extract.files > 0);
  CHECK(fs::exists(tmp.path() / "empty" / L91 / "include"));
  CHECK(entries_in(tmp.path()) == 1);  // no staging sibling stays
}

TEST_CASE("extract_to_new_folder: refuses a folder with files, and a failed check leaves nothing", "[extract_to_folder]") {
  TempDir tmp;
  const auto full = tmp.path() / "full";
  fs::create_directories(full);
  std::ofstream(full / "keep.txt") << "mine";
  const auto refused = extract_to_new_folder(test_archive("good/" + L91 + ".tar.xz"), ArchiveFormat::tar_xz, {}, true, full.string(), {});
  REQUIRE_FALSE(refused);
  CHECK(refused.error().code == ErrorCode::io);
  CHECK(entries_in(full) == 1);

  const std::vector<ExpectedHash> wrong{{std::string(64, 'e'), "test", std::nullopt}};
  const auto mismatch =
      extract_to_new_folder(test_archive("good/" + L91 + ".tar.xz"), ArchiveFormat::tar_xz, wrong, false, (tmp.path() / "new").string(), {});
  REQUIRE_FALSE(mismatch);
  CHECK(mismatch.error().code == ErrorCode::hash_mismatch);
  CHECK(entries_in(tmp.path()) == 1);  // only "full": neither "new" nor its staging folder
}

#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <map>

#include "../archive/test_archives.hpp"
#include "../skip.hpp"
#include "cudnnctl/platform/folder_listing.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
using FolderKind = platform::FolderEntry::Kind;
namespace fs = std::filesystem;

namespace {

std::map<std::string, FolderKind> listing_kinds(const platform::OpenFolder& folder) {
  std::vector<platform::FolderEntry> entries;
  REQUIRE(folder.list(entries));
  std::map<std::string, FolderKind> out;
  for (auto& e : entries) out.emplace(e.name, e.kind);
  REQUIRE(out.size() == entries.size());  // each name once
  return out;
}

} // namespace

TEST_CASE("folder listing: each entry once with its kind, no . or ..", "[folder_listing]") {
  TempDir t;
  fs::create_directories(t.path() / "sub" / "deeper");
  std::ofstream(t.path() / "file.so") << "x";
  fs::create_directory_symlink(t.path() / "sub", t.path() / "sub-link");
  fs::create_symlink(t.path() / "file.so", t.path() / "file-link");
  const auto folder = platform::OpenFolder::open(t.str());
  REQUIRE(folder);
  const auto kinds = listing_kinds(*folder);
  REQUIRE(kinds.size() == 4);
  if (std::all_of(kinds.begin(), kinds.end(), [](const auto& k) { return k.second == FolderKind::unknown; }))
    CUDNNCTL_SKIP("the temporary folder's file system gives no entry kinds (DT_UNKNOWN): only opening tells");
  CHECK(kinds.at("sub") == FolderKind::folder);
  CHECK(kinds.at("file.so") == FolderKind::other);
  CHECK(kinds.at("sub-link") == FolderKind::link);  // the link's own kind, not its target's
  CHECK(kinds.at("file-link") == FolderKind::link);
}

TEST_CASE("folder listing: a folder of thousands of names is listed whole", "[folder_listing]") {
  TempDir t;
  for (int i = 0; i < 3000; ++i) std::ofstream(t.path() / ("a-rather-long-file-name-to-fill-the-buffer-" + std::to_string(i) + ".py")) << "";
  const auto folder = platform::OpenFolder::open(t.str());
  REQUIRE(folder);
  CHECK(listing_kinds(*folder).size() == 3000);
}

TEST_CASE("folder listing: subfolders open by name, links and files do not", "[folder_listing]") {
  TempDir t;
  fs::create_directories(t.path() / "sub" / "deeper");
  std::ofstream(t.path() / "file.so") << "x";
  fs::create_directory_symlink(t.path() / "sub", t.path() / "sub-link");
  const auto folder = platform::OpenFolder::open(t.str());
  REQUIRE(folder);
  const auto sub = folder->open_child("sub");
  REQUIRE(sub);
  const auto below = listing_kinds(*sub);
  CHECK((below.size() == 1 && below.contains("deeper")));
  CHECK_FALSE(folder->open_child("sub-link"));
  CHECK_FALSE(folder->open_child("file.so"));
  CHECK_FALSE(folder->open_child("missing"));
  // the start of a walk may be a link to a folder; not a file or nothing
  CHECK(platform::OpenFolder::open((t.path() / "sub-link").string()));
  CHECK_FALSE(platform::OpenFolder::open((t.path() / "file.so").string()));
  CHECK_FALSE(platform::OpenFolder::open((t.path() / "missing").string()));
}

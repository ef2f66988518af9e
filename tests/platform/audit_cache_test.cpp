#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "../archive/test_archives.hpp"
#include "cudnnctl/platform/audit_cache.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
namespace fs = std::filesystem;

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
const std::string kModule = std::string("\x7f" "ELF stand-in audit module\0with a NUL", 36);
} // namespace

TEST_CASE("audit cache: the carried module is written into a private folder under a name from its hash", "[audit_cache]") {
  TempDir tmp;
  const auto dir = tmp.path() / "cache" / "cudnnctl" / "audit-1000";
  auto path = platform::write_audit_library(kModule, dir.string());
  REQUIRE(path);
  CHECK(fs::path(*path).parent_path() == dir);
  CHECK(fs::path(*path).filename().string().starts_with("libcudnnctl_audit-"));
  CHECK(slurp(*path) == kModule);
  CHECK((fs::status(dir).permissions() & fs::perms::all) == fs::perms::owner_all);
  CHECK((fs::status(*path).permissions() & (fs::perms::group_write | fs::perms::others_write)) == fs::perms::none);
  // a second run finds the same file and keeps it
  auto again = platform::write_audit_library(kModule, dir.string());
  REQUIRE(again);
  CHECK(*again == *path);
  // other bytes, another name: a new build never uses an old build's module
  auto other = platform::write_audit_library(kModule + "v2", dir.string());
  REQUIRE(other);
  CHECK(*other != *path);
}

TEST_CASE("audit cache: an existing file whose bytes do not hash right is replaced, never used", "[audit_cache]") {
  TempDir tmp;
  const auto dir = tmp.path() / "audit";
  auto path = platform::write_audit_library(kModule, dir.string());
  REQUIRE(path);
  fs::permissions(*path, fs::perms::owner_read | fs::perms::owner_write);
  std::ofstream(*path, std::ios::binary | std::ios::trunc) << "tampered";
  auto again = platform::write_audit_library(kModule, dir.string());
  REQUIRE(again);
  CHECK(*again == *path);
  CHECK(slurp(*again) == kModule);
}

TEST_CASE("audit cache: a link in the module's place is replaced, and what it pointed at is left alone", "[audit_cache]") {
  TempDir tmp;
  const auto dir = tmp.path() / "audit";
  auto path = platform::write_audit_library(kModule, dir.string());
  REQUIRE(path);
  const auto elsewhere = tmp.path() / "elsewhere.so";
  std::ofstream(elsewhere, std::ios::binary) << kModule;  // even the right bytes: a link is not trusted
  fs::remove(*path);
  fs::create_symlink(elsewhere, *path);
  auto again = platform::write_audit_library(kModule, dir.string());
  REQUIRE(again);
  CHECK_FALSE(fs::is_symlink(*again));
  CHECK(slurp(*again) == kModule);
  CHECK(fs::exists(elsewhere));
}

TEST_CASE("audit cache: a folder open to others is closed, a link as the folder is refused", "[audit_cache]") {
  TempDir tmp;
  const auto open_dir = tmp.path() / "open";
  fs::create_directories(open_dir);
  fs::permissions(open_dir, fs::perms::all);
  REQUIRE(platform::write_audit_library(kModule, open_dir.string()));
  CHECK((fs::status(open_dir).permissions() & fs::perms::all) == fs::perms::owner_all);

  const auto target = tmp.path() / "target";
  fs::create_directories(target);
  const auto linked = tmp.path() / "linked";
  fs::create_directory_symlink(target, linked);
  auto refused = platform::write_audit_library(kModule, linked.string());
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("not a folder owned by this user") != std::string::npos);
  CHECK(fs::is_empty(target));
}

TEST_CASE("audit cache: the default folder is per user, under XDG_CACHE_HOME or ~/.cache", "[audit_cache]") {
  const auto dir = platform::audit_cache_dir();
  CHECK(dir.find("cudnnctl") != std::string::npos);
  CHECK(dir.find("audit-") != std::string::npos);
}

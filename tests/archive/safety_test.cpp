#include <catch2/catch.hpp>

#include "cudnnctl/archive/safety.hpp"

using namespace cudnnctl;

namespace {
const std::string top = "cudnn-windows-x86_64-9.1.0.70_cuda12-archive";
ArchiveEntry file(std::string name, std::uint64_t size = 10, std::uint64_t compressed = 5) {
  ArchiveEntry e;
  e.name = std::move(name);
  e.size = size;
  e.compressed_size = compressed;
  return e;
}
ArchiveEntry link(std::string name, std::string target, EntryType t = EntryType::symlink) {
  ArchiveEntry e;
  e.name = std::move(name);
  e.type = t;
  e.link_target = std::move(target);
  return e;
}
Result<void> check(std::vector<ArchiveEntry> entries, std::string expected_top = top) {
  ArchiveListing l;
  l.entries = std::move(entries);
  SafetyPolicy p;
  p.archive = "a.zip";
  p.expected_top = std::move(expected_top);
  return check_listing(l, p);
}
} // namespace

TEST_CASE("a well-formed listing passes and names are normalised", "[safety]") {
  ArchiveListing l;
  l.entries = {file(top + "/bin/cudnn64_9.dll"), file(top + "\\include\\cudnn.h"), file(top + "/./lib//x64/cudnn.lib")};
  SafetyPolicy p;
  p.expected_top = top;
  REQUIRE(check_listing(l, p));
  CHECK(l.entries[1].name == top + "/include/cudnn.h");
  CHECK(l.entries[2].name == top + "/lib/x64/cudnn.lib");
  CHECK(check({file(top + "/lib/libcudnn.so.9.1.0"), link(top + "/lib/libcudnn.so.9", "libcudnn.so.9.1.0")}));
  CHECK(check({file(top + "/a"), link(top + "/lib/b", "../a")}));
}

TEST_CASE("every hostile name is refused, naming the entry", "[safety]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/etc/passwd", "absolute"},
      {"\\\\server\\share\\x.dll", "UNC"},
      {"//server/share/x.dll", "UNC"},
      {"C:/Windows/x.dll", "drive letter"},
      {"c:\\x.dll", "drive letter"},
      {top + "/../x", ".."},
      {top + "\\..\\..\\x", ".."},
      {top + "/bin/x.dll:Zone.Identifier", "alternate data stream"},
      {top + "/CON", "device name"},
      {top + "/include/nul.h", "device name"},
      {top + "/bin/Com7.dll", "device name"},
      {top + "/bin/LPT1.txt", "device name"},
      {top + "/bin/x.dll.", "dot or space"},
      {top + "/bin/x.dll ", "dot or space"},
      {top + "/bin/x|y", "Windows forbids"},
      {"other/x.dll", "outside the single top-level folder"},
      {"", "empty name"},
  };
  for (const auto& [name, why] : cases) {
    INFO(name);
    const auto r = check({file(top + "/LICENSE"), file(name)});
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::archive_hostile);
    CHECK_THAT(r.error().message, Catch::Contains(why));
    CHECK_THAT(r.error().message, Catch::Contains(name));
  }
  CHECK(check({file(top + "/bin/COM10.dll")}));  // only COM1-9 are devices
  CHECK(check({file(top + "/bin/console.dll")}));
}

TEST_CASE("duplicates, case collisions, links and bombs are refused", "[safety]") {
  CHECK_THAT(check({file(top + "/a"), file(top + "/a")}).error().message, Catch::Contains("twice"));
  CHECK_THAT(check({file(top + "/bin/A.dll"), file(top + "/BIN/a.dll")}).error().message, Catch::Contains("case-insensitive"));
  CHECK_THAT(check({link(top + "/x", "../../etc/passwd")}).error().message, Catch::Contains("outside"));
  CHECK_THAT(check({link(top + "/x", "/etc/passwd")}).error().message, Catch::Contains("absolute"));
  CHECK_THAT(check({link(top + "/x", "C:\\Windows")}).error().message, Catch::Contains("absolute"));
  CHECK_THAT(check({link(top + "/x", "..")}).error().message, Catch::Contains("outside"));
  CHECK_THAT(check({link(top + "/d", "."), file(top + "/d/x")}).error().message, Catch::Contains("below the link"));
  CHECK_THAT(check({link(top + "/h", "/etc/passwd", EntryType::hardlink)}).error().message, Catch::Contains("absolute"));
  CHECK_THAT(check({link(top + "/h", top + "/missing", EntryType::hardlink)}).error().message, Catch::Contains("not a file"));
  CHECK(check({file(top + "/f"), link(top + "/h", top + "/f", EntryType::hardlink)}));
  ArchiveEntry fifo = file(top + "/p");
  fifo.type = EntryType::other;
  CHECK_THAT(check({fifo}).error().message, Catch::Contains("device, pipe"));

  const auto bomb = check({file(top + "/z", 500u << 20, 500u << 10)});
  REQUIRE_FALSE(bomb);
  CHECK(bomb.error().code == ErrorCode::archive_too_large);
  ArchiveListing big;
  big.entries = {file(top + "/a", 5u << 20, 4u << 20), file(top + "/b", 5u << 20, 4u << 20)};
  SafetyPolicy p;
  p.max_total_size = 8u << 20;
  const auto capped = check_listing(big, p);
  REQUIRE_FALSE(capped);
  CHECK(capped.error().code == ErrorCode::archive_too_large);
}

TEST_CASE("without an expected top folder, one single folder is still required", "[safety]") {
  CHECK(check({file("a/x"), file("a/y")}, ""));
  CHECK_FALSE(check({file("a/x"), file("b/y")}, ""));
  CHECK_FALSE(check({file("x")}, ""));
}

TEST_CASE("the size cap is 8 GiB or 4x the catalog size", "[safety]") {
  CHECK(size_cap(std::nullopt) == (8ull << 30));
  CHECK(size_cap(669629858u) == 669629858ull * 4);
  CHECK(size_cap(4ull << 30) == (8ull << 30));
}

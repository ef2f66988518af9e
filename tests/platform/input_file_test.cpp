#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../archive/test_archives.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/input_file.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;
namespace fs = std::filesystem;

TEST_CASE("input files: a regular file is read whole, up to the cap", "[input_file]") {
  TempDir tmp;
  const auto f = (tmp.path() / "a.txt").string();
  std::ofstream(f) << "hello\n";
  const auto text = platform::read_input_file(f, "the test file");
  REQUIRE(text);
  CHECK(*text == "hello\n");
  const auto big = platform::read_input_file(f, "the test file", 3);
  REQUIRE(!big);
  CHECK(big.error().code == ErrorCode::input_invalid);
  CHECK_THAT(big.error().message, Catch::Contains("the test file") && Catch::Contains("more than"));
}

TEST_CASE("input files: a FIFO, a device and a folder are refused at once", "[input_file]") {
  TempDir tmp;
  const auto fifo = (tmp.path() / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // with no writer, a blocking open would wait forever: the reader must return
  const auto f = platform::read_input_file(fifo, "the catalog");
  REQUIRE(!f);
  CHECK(f.error().code == ErrorCode::input_invalid);
  CHECK_THAT(f.error().message, Catch::Contains("FIFO") && Catch::Contains(fifo));
  CHECK(!platform::require_regular_file(fifo, "x"));

  const auto dev = platform::read_input_file("/dev/zero", "the catalog");
  REQUIRE(!dev);
  CHECK_THAT(dev.error().message, Catch::Contains("character device"));
  CHECK_THAT(dev.error().hint, Catch::Contains("regular file"));

  const auto dir = platform::read_input_file(tmp.str(), "the catalog");
  REQUIRE(!dir);
  CHECK_THAT(dir.error().message, Catch::Contains("a folder"));
}

TEST_CASE("input files: missing files and dangling links say which", "[input_file]") {
  TempDir tmp;
  const auto missing = platform::read_input_file((tmp.path() / "nope").string(), "the checksum file");
  REQUIRE(!missing);
  CHECK(missing.error().code == ErrorCode::file_not_found);
  CHECK_THAT(missing.error().message, Catch::Contains("does not exist"));

  const auto link = (tmp.path() / "link").string();
  fs::create_symlink("gone.txt", link);
  const auto dangling = platform::read_input_file(link, "the checksum file");
  REQUIRE(!dangling);
  CHECK(dangling.error().code == ErrorCode::file_not_found);
  CHECK_THAT(dangling.error().message, Catch::Contains("dangling symbolic link") && Catch::Contains("gone.txt"));
  CHECK_THAT(platform::require_regular_file(link, "x").error().message, Catch::Contains("dangling"));
}

TEST_CASE("ReadOnlyFile: a FIFO, a device or a folder put where a file was checked is refused, never waited on", "[input_file]") {
  TempDir tmp;
  const auto fifo = (tmp.path() / "rpmdb.sqlite").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  // no writer: a blocking open would wait forever (the check-then-open race of a reader that checked a moment ago)
  const auto f = platform::ReadOnlyFile::open(fifo);
  REQUIRE(!f);
  CHECK(f.error().code == ErrorCode::input_invalid);
  CHECK_THAT(f.error().message, Catch::Contains("not a regular file") && Catch::Contains(fifo));
  CHECK(!platform::ReadOnlyFile::open("/dev/zero"));
  CHECK(!platform::ReadOnlyFile::open(tmp.str()));
  const auto file = (tmp.path() / "a.bin").string();
  std::ofstream(file) << "12345";
  const auto ok = platform::ReadOnlyFile::open(file);
  REQUIRE(ok);
  CHECK(ok->size() == 5);
  char buf[8] = {};
  CHECK(ok->read_at(1, buf, 4) == 4);
  CHECK(std::string(buf, 4) == "2345");
}

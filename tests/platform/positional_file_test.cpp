#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "../archive/test_archives.hpp"
#include "cudnnctl/platform/files.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;

TEST_CASE("positional files: writes at offsets out of order, read back, kept on reopen, cut by resize", "[positional_file]") {
  TempDir tmp;
  const auto path = (tmp.path() / "a.zip.part").string();
  {
    auto f = platform::PositionalFile::open(path);
    REQUIRE(f);
    REQUIRE(f->write_at(6, "world", 5));
    REQUIRE(f->write_at(0, "hello ", 6));
    char buf[16] = {};
    CHECK(f->read_at(0, buf, sizeof buf) == 11);
    CHECK(std::string(buf, 11) == "hello world");
    CHECK(f->read_at(11, buf, sizeof buf) == 0);
    REQUIRE(f->close());
  }
  auto again = platform::PositionalFile::open(path);  // never truncated on open
  REQUIRE(again);
  CHECK(std::filesystem::file_size(path) == 11);
  REQUIRE(again->resize(5));
  REQUIRE(again->close());
  std::ifstream in(path, std::ios::binary);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "hello");

  std::filesystem::create_symlink(path, tmp.path() / "link.part");
  CHECK_FALSE(platform::PositionalFile::open((tmp.path() / "link.part").string()));  // a link at the name is refused
}

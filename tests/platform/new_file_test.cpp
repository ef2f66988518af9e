#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "../archive/test_archives.hpp"
#include "cudnnctl/platform/files.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;

TEST_CASE("new files: start_writeback hands the bytes written so far to the disk and keeps them", "[new_file]") {
  TempDir tmp;
  const auto path = (tmp.path() / "cudnn64_9.dll").string();
  auto f = platform::NewFile::create(path, 0644);
  REQUIRE(f);
  const std::string chunk(300000, 'a');
  REQUIRE(f->write(chunk.data(), chunk.size()));
  REQUIRE(f->write(chunk.data(), 7));
  CHECK(f->unsubmitted() == chunk.size() + 7);
  f->start_writeback();
  CHECK(f->unsubmitted() == 0);
  f->start_writeback();  // nothing new: nothing to do
  CHECK(f->unsubmitted() == 0);
  const std::string tail = "tail";
  REQUIRE(f->write(tail.data(), tail.size()));
  CHECK(f->unsubmitted() == tail.size());
  f->start_writeback();
  REQUIRE(f->close());
  f->start_writeback();  // after close: ignored
  std::ifstream in(path, std::ios::binary);
  const std::string got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(got == chunk + chunk.substr(0, 7) + tail);
  REQUIRE(platform::flush_to_disk(path));
}

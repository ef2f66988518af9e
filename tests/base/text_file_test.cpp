#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

#include "../archive/test_archives.hpp"
#include "cudnnctl/base/text_file.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("small text files: bounded, regular files only (a FIFO or a folder is never opened)", "[text_file]") {
  TempDir tmp;
  const auto file = tmp.path() / "version.json";
  std::ofstream(file, std::ios::binary) << "0123456789";
  CHECK(read_text_file(file, 10) == std::optional<std::string>("0123456789"));
  CHECK_FALSE(read_text_file(file, 9));                                      // larger than allowed: refused whole
  CHECK(read_text_head(file, 4) == std::optional<std::string>("0123"));      // the head is enough
  CHECK_FALSE(read_text_file(tmp.path() / "missing", 100));
  CHECK_FALSE(read_text_head(tmp.path(), 100));                              // a folder
  const auto fifo = tmp.path() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(read_text_head(fifo, 100));                                    // would block forever if opened
  CHECK_FALSE(read_text_file("/dev/zero", 100));
}

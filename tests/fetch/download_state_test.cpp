#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cudnnctl/fetch/download_state.hpp"

using namespace cudnnctl;

TEST_CASE("download state: the sidecar round-trips", "[download_state]") {
  DownloadState s;
  s.validators = {1000, "\"abc-123\"", "Sat, 05 Dec 2026 10:00:00 GMT"};
  s.done.add(0, 100);
  s.done.add(300, 1000);
  const auto text = format_download_state(s);
  CHECK(text == "cudnnctl-part 1\ntotal 1000\netag \"abc-123\"\nlast-modified Sat, 05 Dec 2026 10:00:00 GMT\ndone 0-99\ndone 300-999\nend\n");
  const auto back = parse_download_state(text);
  REQUIRE(back);
  CHECK(back->validators == s.validators);
  CHECK(back->done.extents() == s.done.extents());

  DownloadState empty;
  empty.validators.total = 5;
  const auto e = parse_download_state(format_download_state(empty));
  REQUIRE(e);
  CHECK(e->validators.etag.empty());
  CHECK(e->done.bytes() == 0);
}

TEST_CASE("download state: a hostile or damaged sidecar is no state", "[download_state]") {
  const std::string head = "cudnnctl-part 1\ntotal 1000\netag x\nlast-modified y\n";
  CHECK(parse_download_state(head + "done 0-99\nend\n"));
  CHECK_FALSE(parse_download_state(""));
  CHECK_FALSE(parse_download_state(head + "done 0-99\n"));                    // cut: no end
  CHECK_FALSE(parse_download_state("cudnnctl-part 2\ntotal 1000\netag x\nlast-modified y\nend\n"));  // unknown version
  CHECK_FALSE(parse_download_state(head + "done 0-1000\nend\n"));             // past the total
  CHECK_FALSE(parse_download_state(head + "done 50-10\nend\n"));              // backwards
  CHECK_FALSE(parse_download_state(head + "done 100-199\ndone 0-9\nend\n"));  // out of order
  CHECK_FALSE(parse_download_state(head + "done 0-99\ndone 50-150\nend\n"));  // overlapping
  CHECK_FALSE(parse_download_state(head + "done 0-99\ndone 100-150\nend\n")); // touching: never written so
  CHECK_FALSE(parse_download_state(head + "done -1-5\nend\n"));
  CHECK_FALSE(parse_download_state(head + "done +1-5\nend\n"));
  CHECK_FALSE(parse_download_state(head + "done 01-5\nend\n"));
  CHECK_FALSE(parse_download_state(head + "done 0-99999999999999999999999\nend\n"));
  CHECK_FALSE(parse_download_state(head + "extra 1\nend\n"));                 // unknown line
  CHECK_FALSE(parse_download_state("cudnnctl-part 1\ntotal 0\netag x\nlast-modified y\nend\n"));
  CHECK_FALSE(parse_download_state("cudnnctl-part 1\ntotal 10\netag a\x01z\nlast-modified y\nend\n"));
  CHECK_FALSE(parse_download_state("cudnnctl-part 1\ntotal 10\nlast-modified y\netag x\nend\n"));  // order matters
  CHECK_FALSE(parse_download_state("cudnnctl-part 1\ntotal 10\netagx\nlast-modified y\nend\n"));
  CHECK_FALSE(parse_download_state("cudnnctl-part 1\ntotal 10\netag " + std::string(2000, 'a') + "\nlast-modified y\nend\n"));
}

TEST_CASE("download state: written whole through a rename and read back, a missing or huge file is no state", "[download_state]") {
  const auto dir = std::filesystem::temp_directory_path() / ("cudnnctl-state-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto path = (dir / "a.part.state").string();
  CHECK_FALSE(read_download_state(path));
  DownloadState s;
  s.validators = {42, "e", "m"};
  s.done.add(0, 10);
  REQUIRE(write_download_state(path, s));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
  const auto back = read_download_state(path);
  REQUIRE(back);
  CHECK(back->done.bytes() == 10);
  {
    std::ofstream big(path, std::ios::binary | std::ios::trunc);
    big << std::string(10 << 20, 'a');
  }
  CHECK_FALSE(read_download_state(path));
  std::filesystem::remove_all(dir);
}

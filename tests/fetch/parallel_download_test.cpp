#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "../archive/test_archives.hpp"
#include "local_site.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/fetch/download_state.hpp"
#include "cudnnctl/fetch/parallel_download.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

// One 1 MB file on the server, downloaded in 64 KiB ranges (16 of them).
struct RangeSite {
  TempDir tmp;
  std::string content, sha;
  std::unique_ptr<LocalHttpServer> server;
  RangeSite() {
    for (int i = 0; i < 1000000; ++i) content += static_cast<char>((i * 7 + i / 251) & 0xFF);
    put(tmp.path() / "www" / "file.bin", content);
    sha = *sha256_file((tmp.path() / "www" / "file.bin").string());
    server = std::make_unique<LocalHttpServer>(tmp.path() / "www", tmp.path());
  }
  ParallelDownload request(const std::string& mode, int connections = 4) {
    ParallelDownload r;
    r.url = "http://127.0.0.1:" + server->port + "/" + mode + "/file.bin";
    r.part_path = (tmp.path() / "file.bin.part").string();
    r.expected_size = content.size();
    r.connections = connections;
    r.chunk_size = 65536;
    r.stall_timeout_s = 2;
    return r;
  }
  std::string part() const { return (tmp.path() / "file.bin.part").string(); }
  std::size_t count(const std::string& prefix) const {
    const auto reqs = server->requests();
    return static_cast<std::size_t>(std::count_if(reqs.begin(), reqs.end(), [&](const std::string& l) { return l.starts_with(prefix); }));
  }
};

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("parallel download: 16 ranges over 4 connections, hashed in order, no sidecar left", "[parallel_download]") {
  RangeSite site;
  std::uint64_t last_progress = 0;
  auto req = site.request("ok");
  req.progress = [&](std::uint64_t done, std::uint64_t total) {
    CHECK(total == site.content.size());
    last_progress = done;
  };
  const auto got = download_parallel(req);
  REQUIRE(got);
  CHECK(got->sha256 == site.sha);
  CHECK(got->bytes == site.content.size());
  CHECK(got->ranges);
  CHECK(got->connections == 4);
  CHECK_FALSE(got->resumed);
  CHECK(got->restarts == 0);
  CHECK(last_progress == site.content.size());
  CHECK(read_all(site.part()) == site.content);
  CHECK_FALSE(fs::exists(download_state_path(site.part())));
  // the first range, 11 more whole chunks, then the last 4 of the queue cut into 16 KiB pieces (taper_tail:
  // 3 x 4, and the file's last 16960 bytes whole)
  CHECK(site.count("ok bytes=") == 25);
  CHECK(site.count("ok bytes=0-65535") == 1);
  CHECK(site.count("ok bytes=" + std::to_string(12 * 65536) + "-" + std::to_string(12 * 65536 + 16383)) == 1);
  // each worker asks its ranges over one kept-alive connection: the first request's and four more, not 25
  CHECK(site.server->connections() == 5);
}

TEST_CASE("parallel download: one connection is one plain GET, a server without ranges gets one stream", "[parallel_download]") {
  RangeSite site;
  const auto one = download_parallel(site.request("ok", 1));
  REQUIRE(one);
  CHECK(one->sha256 == site.sha);
  CHECK(one->connections == 1);
  CHECK(site.server->requests() == std::vector<std::string>{"ok -"});

  fs::remove(site.part());
  const auto flat = download_parallel(site.request("norange"));
  REQUIRE(flat);
  CHECK(flat->sha256 == site.sha);
  CHECK_FALSE(flat->ranges);
  CHECK(flat->connections == 1);
  CHECK(site.count("norange") == 1);  // the 200 to the first range request is the whole body
  CHECK(fs::file_size(site.part()) == site.content.size());

  // one connection, a kept prefix, a server without ranges: the 200 is taken from byte 0, not refused
  put(site.part(), site.content.substr(0, 1000));
  const auto again = download_parallel(site.request("norange", 1));
  REQUIRE(again);
  CHECK(again->sha256 == site.sha);
  CHECK_FALSE(again->resumed);
  CHECK(site.server->requests().back() == "norange bytes=1000-");
}

TEST_CASE("parallel download: dropped connections and short ranges are asked again", "[parallel_download]") {
  RangeSite site;
  const auto dropped = download_parallel(site.request("drop"));
  REQUIRE(dropped);
  CHECK(dropped->sha256 == site.sha);
  CHECK(site.count("drop bytes=") > 16);  // every third answer was cut: its rest asked again

  fs::remove(site.part());
  const auto shorter = download_parallel(site.request("short"));
  REQUIRE(shorter);
  CHECK(shorter->sha256 == site.sha);
  // each 64 KiB range came as 40000 bytes, then the rest: 12 x 2; the 12 tapered 16 KiB pieces and the last
  // range (16960 bytes) once each
  CHECK(site.count("short bytes=") == 37);
}

TEST_CASE("parallel download: an over-long answer is an error, never written past its range", "[parallel_download]") {
  RangeSite site;
  const auto got = download_parallel(site.request("long"));
  REQUIRE_FALSE(got);
  CHECK(got.error().code == ErrorCode::hash_mismatch);
  CHECK_THAT(got.error().message, Catch::Contains("more than"));
}

TEST_CASE("parallel download: a server that stops honouring ranges gets one connection for the whole file", "[parallel_download]") {
  RangeSite site;
  const auto got = download_parallel(site.request("laterno"));
  REQUIRE(got);
  CHECK(got->sha256 == site.sha);
  CHECK_FALSE(got->ranges);
  const auto reqs = site.server->requests();
  REQUIRE(reqs.size() >= 3);
  CHECK(reqs.front() == "laterno bytes=0-65535");
  CHECK(reqs.back() == "laterno -");  // the fallback: no Range at all
}

TEST_CASE("parallel download: a file changed on the server restarts once, then fails clearly", "[parallel_download]") {
  RangeSite site;
  const auto once = download_parallel(site.request("changeonce"));
  REQUIRE(once);
  CHECK(once->restarts == 1);
  CHECK(once->sha256 == site.sha);

  fs::remove(site.part());
  const auto always = download_parallel(site.request("changealways"));
  REQUIRE_FALSE(always);
  CHECK_THAT(always.error().message, Catch::Contains("changed on the server again"));
}

TEST_CASE("parallel download: a redirect to another host name: every range asked there", "[parallel_download]") {
  RangeSite site;
  const auto got = download_parallel(site.request("redirect"));
  REQUIRE(got);
  CHECK(got->sha256 == site.sha);
  CHECK_THAT(got->effective_url, Catch::StartsWith("http://localhost:" + site.server->port + "/ok/"));
  CHECK(site.count("redirect") == 1);
  CHECK(site.count("ok bytes=") == 25);  // as in the first case: 12 chunks, 13 tapered pieces
}

TEST_CASE("parallel download: a cut download resumes from its sidecar, a hostile or stale sidecar is ignored", "[parallel_download]") {
  RangeSite site;
  const auto cut = download_parallel(site.request("truncate", 2));
  REQUIRE_FALSE(cut);
  CHECK_THAT(cut.error().message, Catch::Contains("to resume"));
  const auto side = download_state_path(site.part());
  REQUIRE(fs::exists(side));
  const auto state = parse_download_state(read_all(side));
  REQUIRE(state);
  CHECK(state->validators.total == site.content.size());
  CHECK(state->done.bytes() > 0);
  const auto kept = state->done.bytes();

  const auto resumed = download_parallel(site.request("ok", 2));
  REQUIRE(resumed);
  CHECK(resumed->resumed);
  CHECK(resumed->sha256 == site.sha);
  CHECK(site.count("ok bytes=0-") == 0);  // what the first run kept was not asked again
  CHECK_FALSE(fs::exists(side));
  CHECK(kept < site.content.size());

  // a damaged sidecar beside a .part file of wrong bytes: ignored, everything downloaded again
  put(site.part(), std::string(site.content.size(), 'x'));
  put(side, "cudnnctl-part 1\ntotal 1000000\netag x\nlast-modified y\ndone 0-999999999\nend\n");
  const auto hostile = download_parallel(site.request("ok"));
  REQUIRE(hostile);
  CHECK(hostile->sha256 == site.sha);
  CHECK_FALSE(hostile->resumed);

  // a well-formed sidecar whose validators the server no longer gives: the kept bytes are dropped
  DownloadState stale;
  stale.validators = {site.content.size(), "\"another\"", "Mon, 01 Jan 2024 00:00:00 GMT"};
  stale.done.add(0, 500000);
  put(site.part(), std::string(site.content.size(), 'y'));
  put(side, format_download_state(stale));
  const auto fresh = download_parallel(site.request("ok"));
  REQUIRE(fresh);
  CHECK(fresh->sha256 == site.sha);
}

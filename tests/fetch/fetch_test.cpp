#include <catch2/catch.hpp>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/fetch/fetch.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

const std::string k_name = "cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz";
const std::string k_rel = "compute/cudnn/redist/cudnn/linux-x86_64/" + k_name;

// The server on 127.0.0.1 with one archive-sized file, and a catalog that knows its hash.
struct Site {
  TempDir tmp;
  std::string root, port, pid;
  std::string content;
  std::string catalog_json;
  Catalog catalog;
  Site() {
    root = (tmp.path() / "www").string();
    for (int i = 0; i < 300000; ++i) content += static_cast<char>((i * 131 + i / 7) & 0xFF);
    put(fs::path(root) / k_rel, content);
    const auto file = (fs::path(root) / k_rel).string();
    const auto hash = *sha256_file(file);
    const std::string json = R"({"schema_version":1,"archives":[{"filename":")" + k_name + R"(","version":"9.30.0.7","platform":"linux-x86_64",)"
                             R"("cuda_variant":"13","url":"https://developer.download.nvidia.com/)" + k_rel + R"(","hashes":[{"sha256":")" + hash +
                             R"(","size":)" + std::to_string(content.size()) + R"(,"confidence":"A","sources":["test"]}]}]})";
    catalog = *Catalog::parse(json, "test catalog");
    catalog_json = json;
    const auto port_file = (tmp.path() / "port").string();
    const std::string cmd = "python3 " + std::string(CUDNNCTL_SOURCE_DIR) + "/tests/fetch/http_server.py '" + root + "' '" + port_file + "' &";
    REQUIRE(std::system(cmd.c_str()) == 0);
    for (int i = 0; i < 100 && !fs::exists(port_file); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(port_file);
    in >> port >> pid;
    REQUIRE_FALSE(port.empty());
  }
  ~Site() {
    if (!pid.empty()) ::kill(std::stoi(pid), SIGKILL);
  }
  FetchRequest request(const std::string& mode) {
    FetchRequest r;
    r.version = "9.30";
    r.platform = "linux-x86_64";
    r.mirror = "http://127.0.0.1:" + port + "/" + mode;
    r.cache_dir = (tmp.path() / "cache").string();
    r.stall_timeout_s = 2;
    return r;
  }
};

} // namespace

TEST_CASE("fetch: the mirror path, the cache, and nothing downloaded twice", "[fetch]") {
  Site site;
  const auto first = fetch_archive(site.catalog, site.request("ok"));
  REQUIRE(first);
  CHECK(first->downloaded);
  CHECK(first->url == "http://127.0.0.1:" + site.port + "/ok/" + k_rel);
  CHECK(fs::file_size(first->path) == site.content.size());
  const auto second = fetch_archive(site.catalog, site.request("ok"));
  REQUIRE(second);
  CHECK_FALSE(second->downloaded);
  CHECK(fetch_url(*site.catalog.find_archive(k_name), "") == "https://developer.download.nvidia.com/" + k_rel);
}

TEST_CASE("fetch: a cut-off transfer resumes, wrong bytes, 404 and a stall are clear errors that keep nothing as valid", "[fetch]") {
  Site site;
  const auto cut = fetch_archive(site.catalog, site.request("truncate"));
  REQUIRE_FALSE(cut);
  CHECK_THAT(cut.error().message, Catch::Contains("to resume"));
  const auto part = fs::path(site.request("ok").cache_dir) / (k_name + ".part");
  REQUIRE(fs::exists(part));
  REQUIRE(fs::exists(part.string() + ".state"));  // the sidecar: which bytes arrived, and of which file
  CHECK_FALSE(fs::exists(fs::path(site.request("ok").cache_dir) / k_name));
  const auto resumed = fetch_archive(site.catalog, site.request("ok"));
  REQUIRE(resumed);
  CHECK(resumed->resumed);
  CHECK(*sha256_file(resumed->path) == site.catalog.find_archive(k_name)->hashes[0].sha256);

  Site other;
  const auto wrong = fetch_archive(other.catalog, other.request("wrong"));
  REQUIRE_FALSE(wrong);
  CHECK(wrong.error().code == ErrorCode::hash_mismatch);
  CHECK_FALSE(fs::exists(fs::path(other.request("ok").cache_dir) / k_name));
  CHECK_FALSE(fs::exists(fs::path(other.request("ok").cache_dir) / (k_name + ".part")));

  auto missing = other.request("ok");
  missing.version = "9.30.0.7";
  missing.mirror = "http://127.0.0.1:" + other.port + "/ok/nowhere";
  const auto nf = fetch_archive(other.catalog, missing);
  REQUIRE_FALSE(nf);
  CHECK_THAT(nf.error().message, Catch::Contains("404"));
  CHECK_THAT(nf.error().hint, Catch::Contains("not at that address"));

  const auto t0 = std::chrono::steady_clock::now();
  const auto stalled = fetch_archive(other.catalog, other.request("stall"));
  REQUIRE_FALSE(stalled);
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));
  CHECK_THAT(stalled.error().message, Catch::Contains(" of 300000 bytes kept"));

  // a server that ignores ranges: what was kept is dropped and the whole body comes on one connection
  const auto norange = fetch_archive(other.catalog, other.request("norange"));
  REQUIRE(norange);
  CHECK_FALSE(norange->resumed);
  CHECK(norange->connections == 1);
}

TEST_CASE("fetch: which archive a version names", "[fetch]") {
  const auto& c = Catalog::embedded();
  FetchRequest r;
  r.version = "9.1.0";
  r.platform = "windows-x86_64";
  r.cuda = "12";
  const auto hit = resolve_fetch(c, r);
  REQUIRE(hit);
  CHECK((*hit)->filename == "cudnn-windows-x86_64-9.1.0.70_cuda12-archive.zip");
  r.cuda.clear();
  r.version = "9.27";
  r.platform = "linux-x86_64";
  CHECK((*resolve_fetch(c, r))->cuda_variant == "13");  // the newest variant when none is asked for
  r.version = "7.0.0";
  CHECK_FALSE(resolve_fetch(c, r));
}

TEST_CASE("fetch: a download killed mid-way places nothing, leaves a sidecar, and the next run resumes from it", "[fetch]") {
  Site site;
  const auto cat = (site.tmp.path() / "catalog.json").string();
  put(cat, site.catalog_json);
  const auto cache = site.request("ok").cache_dir;
  const auto pid_file = (site.tmp.path() / "fetch.pid").string();
  const std::string cmd = "sh -c \"exec '" + std::string(CUDNNCTL_BINARY) + "' fetch 9.30 --platform linux-x86_64 --catalog '" + cat +
                          "' --mirror 'http://127.0.0.1:" + site.port + "/slow' --cache '" + cache + "' >/dev/null 2>&1\" & echo $! > '" +
                          pid_file + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  const auto part = fs::path(cache) / (k_name + ".part");
  const auto side = fs::path(part.string() + ".state");
  // the child's start is not timed (a loaded machine, ASan): its first sidecar write is waited for, up to 60 s
  for (int i = 0; i < 1200 && !fs::exists(side); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  REQUIRE(fs::exists(side));
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // ~120 KB of the 300 KB, one sidecar write a second
  std::string pid;
  std::ifstream(pid_file) >> pid;
  REQUIRE_FALSE(pid.empty());
  ::kill(std::stoi(pid), SIGKILL);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(fs::exists(fs::path(cache) / k_name));  // nothing placed
  REQUIRE(fs::exists(part));
  REQUIRE(fs::exists(side));
  std::ifstream in(side);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::StartsWith("cudnnctl-part 1\ntotal 300000\n"));
  CHECK_THAT(text, Catch::Contains("done 0-"));  // bytes kept, recorded

  const auto resumed = fetch_archive(site.catalog, site.request("ok"));
  REQUIRE(resumed);
  CHECK(resumed->resumed);
  CHECK(*sha256_file(resumed->path) == site.catalog.find_archive(k_name)->hashes[0].sha256);
  CHECK_FALSE(fs::exists(part));
  CHECK_FALSE(fs::exists(side));
}

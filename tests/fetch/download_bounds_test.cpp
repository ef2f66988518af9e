// Every download bounded (fetch/download_refusal, catalog/download_cap): against tests/fetch/http_server.py on
// 127.0.0.1, a server that streams without end or announces too much is cut at the cap and refused, a
// redirect loop stops at the limit, and a server that lies leaves no `.part` file and no sidecar behind.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../cli/run_cli.hpp"
#include "local_site.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/catalog/download_cap.hpp"
#include "cudnnctl/fetch/catalog_update.hpp"
#include "cudnnctl/fetch/download_refusal.hpp"
#include "cudnnctl/fetch/fetch.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

const std::string k_sized = "cudnn-linux-x86_64-9.30.0.7_cuda13-archive.tar.xz";
const std::string k_sizeless = "cudnn-linux-x86_64-9.31.0.1_cuda13-archive.tar.xz";

std::string row(const std::string& name, const std::string& version, const std::string& cuda, const std::string& sha, const std::string& size) {
  return R"({"filename":")" + name + R"(","version":")" + version + R"(","platform":"linux-x86_64","cuda_variant":")" + cuda +
         R"(","url":"https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-x86_64/)" + name + R"(","hashes":[{"sha256":")" + sha +
         R"(")" + (size.empty() ? std::string() : R"(,"size":)" + size) + R"(,"confidence":"A","sources":["test"]}]})";
}

// Two archives on the server (300000 bytes each): one the catalog gives a size for, one it does not. The
// catalog's largest known size is 300000, so the cap it derives is 1.5 x that, rounded up: 1 MiB.
struct BoundSite {
  TempDir tmp;
  std::string content, catalog_json, cache;
  Catalog catalog;
  std::unique_ptr<LocalHttpServer> server;
  BoundSite() {
    for (int i = 0; i < 300000; ++i) content += static_cast<char>((i * 131 + i / 7) & 0xFF);
    const auto www = tmp.path() / "www" / "compute/cudnn/redist/cudnn/linux-x86_64";
    put(www / k_sized, content);
    put(www / k_sizeless, content);
    const auto sha = *sha256_file((www / k_sized).string());
    catalog_json = R"({"schema_version":1,"archives":[)" + row(k_sized, "9.30.0.7", "13", sha, "300000") + "," +
                   row(k_sizeless, "9.31.0.1", "13", sha, "") + "]}";
    catalog = *Catalog::parse(catalog_json, "test catalog");
    cache = (tmp.path() / "cache").string();
    server = std::make_unique<LocalHttpServer>(tmp.path() / "www", tmp.path());
  }
  FetchRequest request(const std::string& mode, const std::string& version) const {
    FetchRequest r;
    r.version = version;
    r.platform = "linux-x86_64";
    r.mirror = "http://127.0.0.1:" + server->port + "/" + mode;
    r.cache_dir = cache;
    r.stall_timeout_s = 5;
    return r;
  }
  // nothing of the refused download is left in the cache
  bool cache_empty() const { return !fs::exists(cache) || fs::is_empty(cache); }
  std::size_t asked(const std::string& mode) const {
    const auto reqs = server->requests();
    return static_cast<std::size_t>(std::count_if(reqs.begin(), reqs.end(), [&](const std::string& l) { return l.starts_with(mode + " "); }));
  }
};

} // namespace

TEST_CASE("download cap: 1.5 times the largest size the catalog knows, rounded up to a MiB", "[download_bounds]") {
  CHECK(largest_known_archive_size(Catalog::embedded()) == 1924314965);  // the largest of 9.10.x (NVIDIA's manifest)
  CHECK(archive_download_cap(Catalog::embedded()) == 2753ull << 20);
  BoundSite site;
  CHECK(archive_download_cap(site.catalog) == 1ull << 20);
  const auto none = *Catalog::parse(R"({"schema_version":1,"archives":[)" + row(k_sizeless, "9.31.0.1", "13", std::string(64, 'a'), "") + "]}", "t");
  CHECK(archive_download_cap(none) == k_archive_cap_without_sizes);
  CHECK_FALSE(announced_over_cap(std::nullopt, std::nullopt, 10));  // nothing announced: the body is cut at the cap instead
  CHECK_FALSE(announced_over_cap(11, 11, 10));                      // a catalog size is checked as such, not against the cap
  CHECK(announced_over_cap(11, std::nullopt, 10));
}

TEST_CASE("download bounds: an endless body for an archive without a catalog size stops at the cap, and nothing is kept", "[download_bounds]") {
  BoundSite site;
  auto req = site.request("endless", "9.31");
  std::uint64_t most = 0;
  req.progress = [&](std::uint64_t done, std::uint64_t) { most = std::max(most, done); };
  const auto got = fetch_archive(site.catalog, req);  // the cap derived from the catalog: 1 MiB
  REQUIRE_FALSE(got);
  CHECK(got.error().code == ErrorCode::download_too_large);
  CHECK_THAT(got.error().message, Catch::Contains("sent more than 1048576 bytes without announcing a size"));
  CHECK(most <= 1ull << 20);  // never more than the cap on the disk (the batch past it is not even written)
  CHECK(site.cache_empty());  // and nothing after the refusal: no .part, no sidecar

  // the same endless server for an archive with a catalog size: cut at that size
  const auto sized = fetch_archive(site.catalog, site.request("endless", "9.30"));
  REQUIRE_FALSE(sized);
  CHECK(sized.error().code == ErrorCode::hash_mismatch);
  CHECK_THAT(sized.error().message, Catch::Contains("more than the 300000 bytes announced"));
  CHECK(site.cache_empty());
}

TEST_CASE("download bounds: a Content-Length above the cap is refused before the body", "[download_bounds]") {
  BoundSite site;
  auto req = site.request("huge", "9.31");
  std::uint64_t most = 0;
  req.progress = [&](std::uint64_t done, std::uint64_t) { most = std::max(most, done); };
  const auto got = fetch_archive(site.catalog, req);
  REQUIRE_FALSE(got);
  CHECK(got.error().code == ErrorCode::download_too_large);
  CHECK_THAT(got.error().message, Catch::Contains("announces 1000000000000 bytes, more than the 1048576 bytes"));
  CHECK(most == 0);
  CHECK(site.cache_empty());
  // through the command: exit 18, the error's id in --json
  const auto cat = (site.tmp.path() / "catalog.json").string();
  put(cat, site.catalog_json);
  const auto r = run({"fetch", "9.31", "--platform", "linux-x86_64", "--catalog", cat, "--mirror", site.request("huge", "9.31").mirror,
                      "--cache", site.cache, "--json"});
  CHECK(r.code == 18);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["error"]["code"] == "download.too-large");
  CHECK(site.cache_empty());
}

TEST_CASE("download bounds: a redirect loop stops at the limit with a clear error", "[download_bounds]") {
  BoundSite site;
  const auto got = fetch_archive(site.catalog, site.request("loop", "9.30"));
  REQUIRE_FALSE(got);
  CHECK(got.error().code == ErrorCode::download_redirects);
  CHECK_THAT(got.error().message, Catch::Contains("more than 5 redirects"));
  CHECK(site.asked("loop") == 6);  // the request and five redirects, then no more
  CHECK(site.cache_empty());
  const auto text = http_get_text(site.request("loop", "9.30").mirror + "/compute/cudnn/redist/cudnn/linux-x86_64/" + k_sized, 1000, "a page");
  REQUIRE_FALSE(text);
  CHECK(text.error().code == ErrorCode::download_redirects);
}

TEST_CASE("download bounds: a server that lies leaves no .part and no sidecar", "[download_bounds]") {
  BoundSite site;
  for (const std::string mode : {"liar", "long", "changealways", "wrong"}) {
    INFO(mode);
    auto req = site.request(mode, "9.30");
    req.chunk_size = 65536;  // several ranges: the lie is seen on a later one too
    const auto got = fetch_archive(site.catalog, req);
    REQUIRE_FALSE(got);
    CHECK(got.error().code == (mode == "changealways" ? ErrorCode::io : ErrorCode::hash_mismatch));
    CHECK(site.cache_empty());
  }
  // a truthful server after them: the whole file, nothing resumed from the liars
  const auto ok = fetch_archive(site.catalog, site.request("ok", "9.30"));
  REQUIRE(ok);
  CHECK_FALSE(ok->resumed);
}

TEST_CASE("download bounds: a document larger than its cap is refused, announced or sent", "[download_bounds]") {
  BoundSite site;
  const auto url = site.request("huge", "9.31").mirror + "/compute/cudnn/redist/cudnn/linux-x86_64/" + k_sizeless;
  const auto announced = http_get_text(url, 4096, "the manifest list");
  REQUIRE_FALSE(announced);
  CHECK(announced.error().code == ErrorCode::download_too_large);
  CHECK_THAT(announced.error().message, Catch::Contains("larger than the 4096 bytes"));
  const auto sent = http_get_text(site.request("endless", "9.31").mirror + "/compute/cudnn/redist/cudnn/linux-x86_64/" + k_sizeless, 4096,
                                  "the release manifest", 5, ErrorCode::manifest_refused);
  REQUIRE_FALSE(sent);
  CHECK(sent.error().code == ErrorCode::manifest_refused);
}

#include <catch2/catch.hpp>

#include <signal.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../cli/run_binary.hpp"
#include "../fetch/local_site.hpp"
#include "cudnnctl/install/install_download.hpp"
#include "cudnnctl/install/installer.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

// One of the 9.1.0.70 test archives under NVIDIA's name: the Windows zip, or the Linux tar.xz.
struct Flavour {
  std::string file, source, platform;
  ArchiveFormat format;
  std::string library;  // a file the install places, toolkit-relative
};
const Flavour k_windows_zip{W91 + ".zip", "good/python-" + W91 + ".zip", "windows-x86_64", ArchiveFormat::zip, "bin/cudnn64_9.dll"};
const Flavour k_linux_tar{L91 + ".tar.xz", "good/" + L91 + ".tar.xz", "linux-x86_64", ArchiveFormat::tar_xz, "lib64/libcudnn.so.9.1.0"};
const std::string k_zip = k_windows_zip.file;

// A test archive on a misbehaving 127.0.0.1 server (tests/fetch/http_server.py), a catalog that knows its
// hash, a fresh CUDA 12.4 toolkit of the archive's OS and a cache.
struct OverlapSite {
  Flavour flavour;
  TempDir tmp;
  fs::path toolkit, cache;
  std::string sha;
  std::uint64_t size = 0;
  std::unique_ptr<LocalHttpServer> server;
  Catalog catalog;

  explicit OverlapSite(Flavour f = k_windows_zip) : flavour(std::move(f)) {
    const auto served = tmp.path() / "www" / rel();
    fs::create_directories(served.parent_path());
    fs::copy_file(test_archive(flavour.source), served);
    sha = *sha256_file(served.string());
    size = fs::file_size(served);
    toolkit = flavour.format == ArchiveFormat::zip ? windows_toolkit(tmp.path(), "12.4", false) : linux_toolkit(tmp.path(), "12.4");
    cache = tmp.path() / "cache";
    server = std::make_unique<LocalHttpServer>(tmp.path() / "www", tmp.path());
    catalog = *Catalog::parse(catalog_json().dump(), "test catalog");
  }
  std::string rel() const { return "compute/cudnn/redist/cudnn/" + flavour.platform + "/" + flavour.file; }
  nlohmann::json catalog_json() const {
    return {{"schema_version", 1},
            {"archives",
             {{{"filename", flavour.file},
               {"version", "9.1.0.70"},
               {"platform", flavour.platform},
               {"cuda_variant", "12"},
               {"url", "https://developer.download.nvidia.com/" + rel()},
               {"hashes", {{{"sha256", sha}, {"size", size}, {"confidence", "A"}, {"sources", {"test"}}}}}}}},
            {"releases", {{{"label", "9.1.0"}, {"date", "2024-04-01"}, {"manifest_url", ""}, {"builds", {"9.1.0.70"}}}}},
            {"support",
             {{{"release", "9.1.0"}, {"cuda_variant", "12"}, {"cuda_toolkits", {"12.4"}}, {"min_driver_linux", "525.60.13"},
               {"min_driver_windows", "528.33"}, {"compute_capabilities", {"7.5"}}, {"source", "test"}, {"notes", nlohmann::json::array()}}}}};
  }
  std::string mirror(const std::string& mode) const { return "http://127.0.0.1:" + server->port + "/" + mode; }
  // install 9.1.0.70 from `mode`, in-process, in 4 KiB ranges over 4 connections (the zip's end first)
  Result<InstallOutcome> install(const std::string& mode) {
    FetchRequest fr;
    fr.version = "9.1.0.70";
    fr.platform = flavour.platform;
    fr.cuda = "12";
    fr.mirror = mirror(mode);
    fr.cache_dir = cache.string();
    fr.stall_timeout_s = 2;
    fr.connections = 4;
    fr.chunk_size = 4096;
    InstallRequest req;
    req.archive_path = (cache / flavour.file).string();
    req.name = *parse_archive_name(flavour.file);
    req.expected = {{sha, "catalog (test)", size}};
    req.toolkit = *read_toolkit(toolkit.string(), "--cuda-path");
    req.catalog_size = size;
    req.extract = extract_while_downloading(fr, [this](FetchRequest r) { return fetch_archive(catalog, r); }, flavour.format, req.expected);
    return install_archive(req, *make_real_fs());
  }
  // the toolkit's own files (the state folder aside)
  std::map<std::string, std::string> files() const {
    auto all = snapshot(toolkit);
    std::erase_if(all, [](const auto& kv) { return kv.first.starts_with(".cudnnctl"); });
    return all;
  }
  bool staging_left() const {
    std::error_code ec;
    if (!fs::exists(toolkit / ".cudnnctl", ec)) return false;
    for (const auto& e : fs::directory_iterator(toolkit / ".cudnnctl"))
      if (e.path().filename().string().starts_with("staging-")) return true;
    return false;
  }
  fs::path part() const { return cache / (flavour.file + ".part"); }
  bool placed() const { return fs::exists(toolkit / flavour.library); }
};

} // namespace

TEST_CASE("install while downloading: every range, the zip's end first, installed from staging, hashed once", "[install_download]") {
  OverlapSite site;
  const auto r = site.install("ok");
  REQUIRE(r);
  CHECK(r->changed);
  REQUIRE(r->receipt);
  CHECK(r->receipt->sha256 == site.sha);
  CHECK(site.placed());
  CHECK_FALSE(site.staging_left());
  CHECK(*sha256_file((site.cache / k_zip).string()) == site.sha);  // the cache keeps the verified archive
  CHECK_FALSE(fs::exists(site.part()));
  // the first request is the file's start (validators, size); the one asked right after it is its end
  const auto reqs = site.server->requests();
  REQUIRE(reqs.size() >= 2);
  const auto last_chunk = (site.size - 1) / 4096 * 4096;
  std::size_t tail_at = reqs.size();
  for (std::size_t i = 0; i < reqs.size(); ++i)
    if (reqs[i] == "ok bytes=" + std::to_string(last_chunk) + "-" + std::to_string(site.size - 1)) tail_at = i;
  // the workers take the end as their first job; which request reaches the server first is the threads' timing
  // (under ASan and load, three other workers' requests and a fourth's second one arrived before it): so the
  // end is asked for within the first half of the requests, long before the body's own last chunks
  REQUIRE(tail_at < reqs.size());
  CHECK(tail_at <= reqs.size() / 2);
  // the same archive again: judged from the receipt and the catalog, nothing downloaded
  const auto again = site.install("ok");
  REQUIRE(again);
  CHECK_FALSE(again->changed);
}

TEST_CASE("install while downloading: a tar.xz decodes into staging as its prefix arrives, ranged or streamed", "[install_download]") {
  for (const std::string mode : {"ok", "norange", "drop"}) {
    DYNAMIC_SECTION(mode) {
      OverlapSite site(k_linux_tar);
      const auto r = site.install(mode);
      REQUIRE(r);
      CHECK(r->receipt->sha256 == site.sha);
      CHECK(site.placed());
      CHECK_FALSE(site.staging_left());
      CHECK(*sha256_file((site.cache / site.flavour.file).string()) == site.sha);
    }
  }
  OverlapSite wrong(k_linux_tar);
  const auto before = wrong.files();
  REQUIRE_FALSE(wrong.install("wrong"));
  CHECK(wrong.files() == before);
  CHECK_FALSE(wrong.staging_left());
}

TEST_CASE("install while downloading: dropped connections, short ranges, a redirect, a server without ranges and a file changed once all install", "[install_download]") {
  for (const std::string mode : {"drop", "short", "redirect", "norange", "laterno", "changeonce"}) {
    DYNAMIC_SECTION(mode) {
      OverlapSite site;
      const auto r = site.install(mode);
      REQUIRE(r);
      CHECK(r->receipt->sha256 == site.sha);
      CHECK(site.placed());
      CHECK_FALSE(site.staging_left());
      CHECK_FALSE(fs::exists(site.part()));
    }
  }
}

TEST_CASE("install while downloading: an over-long range, a wrong hash, a file that keeps changing: nothing placed, staging gone", "[install_download]") {
  for (const std::string mode : {"long", "wrong", "changealways"}) {
    DYNAMIC_SECTION(mode) {
      OverlapSite site;
      const auto before = site.files();
      const auto r = site.install(mode);
      REQUIRE_FALSE(r);
      if (mode == "wrong") CHECK(r.error().code == ErrorCode::hash_mismatch);
      CHECK(site.files() == before);
      CHECK_FALSE(site.staging_left());
      CHECK_FALSE(fs::exists(site.cache / k_zip));
      CHECK_FALSE(fs::exists(site.toolkit / ".cudnnctl/receipt.json"));
    }
  }
}

TEST_CASE("install while downloading: a cut transfer keeps the .part file and its sidecar, and the next run resumes and installs", "[install_download]") {
  OverlapSite site;
  const auto before = site.files();
  const auto cut = site.install("truncate");
  REQUIRE_FALSE(cut);
  CHECK_THAT(cut.error().message, Catch::Contains("to resume"));
  CHECK(site.files() == before);
  CHECK_FALSE(site.staging_left());
  CHECK(fs::exists(site.part()));
  CHECK(fs::exists(site.part().string() + ".state"));
  const auto resumed = site.install("ok");
  REQUIRE(resumed);
  CHECK(site.placed());
  CHECK_FALSE(site.staging_left());
}

namespace {

// `cudnnctl install 9.1.0.70 --mirror` through the binary, for the site's toolkit and cache.
std::vector<std::string> cli_args(const OverlapSite& site, const std::string& mode, const std::string& catalog) {
  return {"install", "9.1.0.70", "--catalog", catalog, "--mirror", site.mirror(mode), "--cuda-path", site.toolkit.string(),
          "--cache", site.cache.string(), "--no-path", "--json", "-vv"};
}

std::string write_catalog(const OverlapSite& site) {
  const auto path = (site.tmp.path() / "catalog.json").string();
  std::ofstream(path) << site.catalog_json().dump();
  return path;
}

// The next run after a kill: it succeeds, installs the archive and leaves no staging folder.
void next_run_installs(OverlapSite& site, const std::string& catalog) {
  const auto r = run_binary(cli_args(site, "ok", catalog), false, 60);
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["receipt"]["sha256"] == site.sha);
  CHECK(site.placed());
  CHECK_FALSE(site.staging_left());
  CHECK_FALSE(fs::exists(site.part()));
}

} // namespace

TEST_CASE("install VERSION --mirror: the archive inflates while it downloads and its bytes are hashed once", "[install_download]") {
  OverlapSite site;
  const auto catalog = write_catalog(site);
  const auto r = run_binary(cli_args(site, "ok", catalog), true, 60);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("while it downloads"));
  CHECK_THAT(r.out, !Catch::Contains("extracting the verified file"));  // the extraction beside the download was kept
  // the download's own in-order hash is the one judged: neither the installer's verify nor the
  // verify-beside-extract pass (each a phase of its own in the log) reads the archive again
  CHECK_THAT(r.out, !Catch::Contains("phase verify (SHA-256"));
  CHECK(site.placed());
}

TEST_CASE("install VERSION --mirror killed at each stage: nothing placed, the .part file resumes, the next run cleans up and installs", "[install_download]") {
  SECTION("SIGKILL while it downloads and inflates") {
    OverlapSite site;
    const auto catalog = write_catalog(site);
    const auto before = site.files();
    const auto pid_file = (site.tmp.path() / "install.pid").string();
    std::string cmd = "sh -c \"exec";
    for (const auto& a : cli_args(site, "crawl", catalog)) cmd += " '" + (a == "install" ? std::string(CUDNNCTL_BINARY) + "' 'install" : a) + "'";
    cmd += " >/dev/null 2>&1\" & echo $! > '" + pid_file + "'";
    REQUIRE(std::system(cmd.c_str()) == 0);
    const auto side = fs::path(site.part().string() + ".state");
    for (int i = 0; i < 200 && !fs::exists(side); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(25));
    REQUIRE(fs::exists(side));
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));  // ~25 KB of the 63 KB, two sidecar writes
    std::string pid;
    std::ifstream(pid_file) >> pid;
    REQUIRE_FALSE(pid.empty());
    ::kill(std::stoi(pid), SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK(site.files() == before);  // nothing placed
    CHECK(site.staging_left());     // the dead run's staging, for the next run to remove
    REQUIRE(fs::exists(site.part()));
    REQUIRE(fs::exists(side));
    const auto r = run_binary(cli_args(site, "ok", catalog), true, 60);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("(resumed)"));
    CHECK_THAT(r.out, Catch::Contains("staging folder"));  // the recovery says it removed the dead run's
    CHECK(site.placed());
    CHECK_FALSE(site.staging_left());
  }
  for (const std::string stage : {"staged", "journaled"}) {
    DYNAMIC_SECTION("SIGKILL at " << stage) {
      OverlapSite site;
      const auto catalog = write_catalog(site);
      const auto before = site.files();
      ::setenv("CUDNNCTL_FAULT_KILL_AT", stage.c_str(), 1);
      const auto killed = run_binary(cli_args(site, "ok", catalog), false, 60);
      ::unsetenv("CUDNNCTL_FAULT_KILL_AT");
      CHECK(killed.code == 137);  // killed by the signal (timeout says 128 + 9)
      if (stage == "staged") CHECK(site.files() == before);
      CHECK(site.staging_left());
      next_run_installs(site, catalog);
    }
  }
  SECTION("SIGKILL after the transaction's second move") {
    OverlapSite site;
    const auto catalog = write_catalog(site);
    ::setenv("CUDNNCTL_FAULT_KILL_AFTER_MOVES", "2", 1);
    const auto killed = run_binary(cli_args(site, "ok", catalog), false, 60);
    ::unsetenv("CUDNNCTL_FAULT_KILL_AFTER_MOVES");
    CHECK(killed.code == 137);
    next_run_installs(site, catalog);
  }
}

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "run_cli.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/catalog/catalog.hpp"

using namespace cudnnctl;
using cudnnctl::testing::L91;
using cudnnctl::testing::W91;
using cudnnctl::testing::run;
using cudnnctl::testing::TempDir;
using cudnnctl::testing::test_archive;
namespace fs = std::filesystem;

namespace {

// a copy of a test archive under NVIDIA's name
std::string named_copy(const TempDir& tmp, const std::string& source, const std::string& name) {
  const auto p = (tmp.path() / name).string();
  fs::copy_file(test_archive(source), p);
  return p;
}
} // namespace

TEST_CASE("verify: the catalog hash fails closed for a stand-in under NVIDIA's name", "[cli][verify]") {
  TempDir tmp;
  const auto zip = named_copy(tmp, "good/python-" + W91 + ".zip", W91 + ".zip");
  const auto r = run({"verify", zip, "--json"});
  CHECK(r.code == 4);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["error"]["code"] == "verify.mismatch");
  CHECK_THAT(j["error"]["message"].get<std::string>(),
             Catch::Contains("3083b5bf20b0b2b29305de088e0b2cdbb78b5190655a27e8a7c596e47042eedf") && Catch::Contains("incomplete download"));
}

TEST_CASE("verify: --sha256, the sidecar and --allow-unverified", "[cli][verify]") {
  TempDir tmp;
  const auto tar = named_copy(tmp, "good/" + L91 + ".tar.xz", L91 + ".tar.xz");
  const auto hash = *sha256_file(tar);
  const auto ok = run({"verify", tar, "--sha256", hash});
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("verified") && Catch::Contains("--sha256"));
  CHECK(run({"verify", tar, "--sha256", std::string(64, '0')}).code == 4);
  CHECK(run({"verify", tar, "--sha256", "123"}).code == 4);

  // catalog knows this name (NVIDIA's hash), so a stand-in fails; a sidecar that contradicts the catalog
  // does not override it (whoever placed the archive could place the sidecar): both are named, exit 4
  CHECK(run({"verify", tar}).code == 4);
  std::ofstream(tar + ".sha256") << hash << "  " << L91 << ".tar.xz\n";
  const auto side = run({"verify", tar, "--json"});
  CHECK(side.code == 4);
  const auto sj = nlohmann::json::parse(side.out);
  CHECK(sj["error"]["code"] == "verify.mismatch");
  const auto* known = Catalog::embedded().find_archive(L91 + ".tar.xz");
  REQUIRE(known);
  REQUIRE_FALSE(known->hashes.empty());
  CHECK_THAT(sj["error"]["message"].get<std::string>(),
             Catch::Contains("disagree") && Catch::Contains(hash) && Catch::Contains("sidecar") && Catch::Contains(known->hashes[0].sha256));
  CHECK_THAT(sj["error"]["hint"].get<std::string>(), Catch::Contains("--sha256"));
  // --sha256 is the user's decision: it wins over both
  CHECK(run({"verify", tar, "--sha256", hash}).code == 0);

  // a sidecar for a name the catalog does not know is the expected hash (with a warning)
  const auto other = named_copy(tmp, "good/" + L91 + ".tar.xz", "cudnn-linux-x86_64-9.98.0.1_cuda13-archive.tar.xz");
  std::ofstream(other + ".sha256") << hash << "  cudnn-linux-x86_64-9.98.0.1_cuda13-archive.tar.xz\n";
  const auto known_by_sidecar = run({"verify", other, "--json"});
  CHECK(known_by_sidecar.code == 0);
  CHECK(nlohmann::json::parse(known_by_sidecar.out)["matched"]["origin"].get<std::string>().rfind("sidecar", 0) == 0);

  const auto unknown = named_copy(tmp, "good/" + L91 + ".tar.xz", "cudnn-linux-x86_64-9.99.0.1_cuda13-archive.tar.xz");
  const auto refused = run({"verify", unknown});
  CHECK(refused.code == 5);
  CHECK_THAT(refused.err, Catch::Contains("no expected SHA-256") && Catch::Contains("--allow-unverified"));
  const auto allowed = run({"verify", unknown, "--allow-unverified"});
  CHECK(allowed.code == 0);
  CHECK_THAT(allowed.out + allowed.err, Catch::Contains("UNVERIFIED"));
}

TEST_CASE("verify: a login page saved as the archive is said so", "[cli][verify]") {
  TempDir tmp;
  const auto page = named_copy(tmp, "odd/login-page.zip", W91 + ".zip");
  const auto r = run({"verify", page});
  CHECK(r.code == 6);
  CHECK_THAT(r.err, Catch::Contains("web page") && Catch::Contains("logged in"));
  CHECK(run({"verify", (tmp.path() / "missing.zip").string(), "--sha256", std::string(64, 'a')}).code == 8);
}

TEST_CASE("extract: verified extraction into a new folder, hostile and mismatched leave nothing", "[cli][extract]") {
  TempDir tmp;
  const auto zip = named_copy(tmp, "good/python-" + W91 + ".zip", W91 + ".zip");
  const auto hash = *sha256_file(zip);
  const auto dest = (tmp.path() / "out").string();
  const auto r = run({"extract", zip, "--sha256", hash, "--to", dest, "--json"});
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["verified"] == true);
  CHECK(j["files"] == 8);
  CHECK(fs::exists(fs::path(dest) / W91 / "bin/cudnn64_9.dll"));
  CHECK(run({"extract", zip, "--sha256", hash, "--to", dest}).code == 8);  // never over existing files

  const auto dest2 = (tmp.path() / "out2").string();
  CHECK(run({"extract", zip, "--sha256", std::string(64, 'e'), "--to", dest2}).code == 4);
  CHECK_FALSE(fs::exists(dest2));
  fs::create_directories(tmp.path() / "h");
  // a name the catalog does not know, so the hash check (fail-closed) does not answer first
  const auto hostile = named_copy(tmp, "hostile/dotdot.zip", "h/cudnn-windows-x86_64-9.99.0.1_cuda12-archive.zip");
  const auto dest3 = (tmp.path() / "h" / "out").string();
  const auto h = run({"extract", hostile, "--allow-unverified", "--to", dest3});
  CHECK(h.code == 6);
  CHECK_THAT(h.err, Catch::Contains("refused") && Catch::Contains("cudnn-windows-x86_64-9.1.0.70_cuda12-archive/"));
  CHECK_FALSE(fs::exists(dest3));
  CHECK_FALSE(fs::exists(tmp.path() / "evil.dll"));
  std::size_t left = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(tmp.path() / "h")) ++left;
  CHECK(left == 1);  // only the archive itself: no staging folder stays behind
}

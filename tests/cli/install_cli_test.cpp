#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {
} // namespace

TEST_CASE("install and uninstall through the CLI: JSON, changed, exit codes", "[cli][install]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4").string();
  const auto before = snapshot(root);
  const auto archive = (tmp.path() / (L91 + ".tar.xz")).string();
  fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), archive);
  const auto hash = *sha256_file(archive);

  const auto dry = run({"install", archive, "--sha256", hash, "--cuda-path", root, "--dry-run"});
  REQUIRE(dry.code == 0);
  CHECK_THAT(dry.out, Catch::Contains("would install") && Catch::Contains("lib64/libcudnn.so.9"));
  CHECK(snapshot(root) == before);

  const auto first = run({"install", archive, "--sha256", hash, "--cuda-path", root, "--json"});
  REQUIRE(first.code == 0);
  const auto j = nlohmann::json::parse(first.out);
  CHECK(j["changed"] == true);
  CHECK(j["toolkit"]["version"] == "12.4");
  CHECK(j["receipt"]["sha256"] == hash);
  const auto second = nlohmann::json::parse(run({"install", archive, "--sha256", hash, "--cuda-path", root, "--json"}).out);
  CHECK(second["changed"] == false);

  // the catalog's hash for this NVIDIA name is not this stand-in's: fail closed, exit 4
  CHECK(run({"install", archive, "--cuda-path", root}).code == 4);
  // CUDA 12 archive into a CUDA 13 tree: exit 7, with the reason
  const auto root13 = linux_toolkit(tmp.path(), "13.0").string();
  const auto wrong = run({"install", archive, "--sha256", hash, "--cuda-path", root13});
  CHECK(wrong.code == 7);
  CHECK_THAT(wrong.err, Catch::Contains("CUDA 12.x") && Catch::Contains("hint:"));
  // a --cuda-path that is not a toolkit: one answer from every command (issue 45; tests/cli/shared_options_test.py)
  const auto nowhere = run({"install", archive, "--sha256", hash, "--cuda-path", (tmp.path() / "nowhere").string()});
  CHECK(nowhere.code == 2);
  CHECK_THAT(nowhere.err, Catch::Contains("is not a CUDA toolkit"));

  const auto un = nlohmann::json::parse(run({"uninstall", "--cuda-path", root, "--json"}).out);
  CHECK(un["changed"] == true);
  CHECK(snapshot(root) == before);
  CHECK(run({"uninstall", "--cuda-path", root}).code == 8);
}

TEST_CASE("install by version reads a --catalog file once (fetch, hashes and support rows share it)", "[cli][install]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4").string();
  const auto cache = tmp.path() / "cache";
  fs::create_directories(cache);
  const auto archive = cache / (L91 + ".tar.xz");
  fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), archive);
  const auto hash = *sha256_file(archive.string());
  const auto catalog = (tmp.path() / "catalog.json").string();
  nlohmann::json c{{"schema_version", 1},
                   {"archives",
                    {{{"filename", L91 + ".tar.xz"},
                      {"version", "9.1.0.70"},
                      {"platform", "linux-x86_64"},
                      {"cuda_variant", "12"},
                      {"url", "https://developer.download.nvidia.com/compute/cudnn/redist/cudnn/linux-x86_64/" + L91 + ".tar.xz"},
                      {"hashes", {{{"sha256", hash}, {"size", fs::file_size(archive)}, {"confidence", "A"}, {"sources", {"test"}}}}}}}},
                   {"releases", {{{"label", "9.1.0"}, {"date", "2024-04-01"}, {"manifest_url", ""}, {"builds", {"9.1.0.70"}}}}},
                   {"support",
                    {{{"release", "9.1.0"}, {"cuda_variant", "12"}, {"cuda_toolkits", {"12.4"}}, {"min_driver_linux", "525.60.13"},
                      {"min_driver_windows", ""}, {"compute_capabilities", {"7.5"}}, {"source", "test"}, {"notes", nlohmann::json::array()}}}}};
  std::ofstream(catalog) << c.dump();
  const auto r = run({"install", "9.1.0.70", "--catalog", catalog, "--cache", cache.string(), "--cuda-path", root, "--json", "-vv"});
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["receipt"]["sha256"] == hash);
  std::size_t reads = 0;
  for (auto at = r.err.find("release catalog)"); at != std::string::npos; at = r.err.find("release catalog)", at + 1)) ++reads;
  CHECK(reads == 1);
}

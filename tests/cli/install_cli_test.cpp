#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {
const std::string L91 = "cudnn-linux-x86_64-9.1.0.70_cuda12-archive";
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
  CHECK(run({"install", archive, "--sha256", hash, "--cuda-path", (tmp.path() / "nowhere").string()}).code == 8);

  const auto un = nlohmann::json::parse(run({"uninstall", "--cuda-path", root, "--json"}).out);
  CHECK(un["changed"] == true);
  CHECK(snapshot(root) == before);
  CHECK(run({"uninstall", "--cuda-path", root}).code == 8);
}

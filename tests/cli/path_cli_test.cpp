#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

TEST_CASE("path: shell lines, JSON, and the Linux apply in a temporary root", "[cli][path]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  const auto lib = fs::weakly_canonical(root / "lib64").string();
  ::setenv("LD_LIBRARY_PATH", ("/opt/old/lib:" + lib + "/").c_str(), 1);

  const auto bash = run({"path", "--cuda-path", root.string(), "--shell", "bash"});
  REQUIRE(bash.code == 0);
  CHECK(bash.out == "export LD_LIBRARY_PATH='" + lib + ":/opt/old/lib'\n");
  CHECK(run({"path", "--cuda-path", root.string(), "--shell", "fish"}).out == "set -gx LD_LIBRARY_PATH '" + lib + ":/opt/old/lib'\n");
  CHECK(run({"path", "--cuda-path", root.string(), "--shell", "pwsh"}).out == "$env:LD_LIBRARY_PATH = '" + lib + ":/opt/old/lib'\n");

  const auto j = nlohmann::json::parse(run({"path", "--cuda-path", root.string(), "--json"}).out);
  CHECK(j["folder"] == lib);
  CHECK(j["changed"] == true);
  CHECK(j["dropped"].size() == 1);
  CHECK(j["applied"].is_null());

  const auto sysroot = tmp.path() / "sysroot";
  ::setenv("CUDNNCTL_LDCONFIG", "true", 1);
  const auto applied = run({"path", "--cuda-path", root.string(), "--apply", "--root", sysroot.string()});
  REQUIRE(applied.code == 0);
  const auto conf = sysroot / "etc/ld.so.conf.d/cudnnctl-linux-12.4.conf";
  REQUIRE(fs::exists(conf));
  std::ifstream in(conf);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK_THAT(ss.str(), Catch::Contains(lib + "\n"));
  CHECK_THAT(run({"path", "--cuda-path", root.string(), "--apply", "--root", sysroot.string()}).out, Catch::Contains("already lists"));
  ::unsetenv("CUDNNCTL_LDCONFIG");

  // user/machine scopes are the Windows registry's
  const auto scope = run({"path", "--cuda-path", root.string(), "--apply", "--scope", "user"});
  CHECK(scope.code == 2);
  CHECK_THAT(scope.err, Catch::Contains("Windows only"));
  ::unsetenv("LD_LIBRARY_PATH");
}

TEST_CASE("path on GitHub Actions appends GITHUB_PATH and GITHUB_ENV", "[cli][path]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "13.0");
  const auto gpath = (tmp.path() / "gh_path").string();
  const auto genv = (tmp.path() / "gh_env").string();
  ::setenv("GITHUB_ACTIONS", "true", 1);
  ::setenv("GITHUB_PATH", gpath.c_str(), 1);
  ::setenv("GITHUB_ENV", genv.c_str(), 1);
  const auto r = run({"path", "--cuda-path", root.string()});
  ::unsetenv("GITHUB_ACTIONS");
  ::unsetenv("GITHUB_PATH");
  ::unsetenv("GITHUB_ENV");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("github: GITHUB_PATH += " + (root / "bin").string()));
  std::ifstream in(genv);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK_THAT(ss.str(), Catch::Contains("CUDA_PATH<<ghadelimiter_") && Catch::Contains("CUDNN_PATH<<") && Catch::Contains("LD_LIBRARY_PATH<<"));
}

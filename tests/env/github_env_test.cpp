#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "../archive/test_archives.hpp"
#include "cudnnctl/env/github_env.hpp"

using namespace cudnnctl;
using cudnnctl::testing::TempDir;

namespace {
std::string slurp(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
} // namespace

TEST_CASE("GITHUB_PATH and GITHUB_ENV are appended in GitHub's formats and read back", "[github_env]") {
  TempDir tmp;
  const auto gpath = (tmp.path() / "path").string();
  const auto genv = (tmp.path() / "env").string();
  std::ofstream(genv) << "EXISTING=1\n";
  platform::MapEnvironment env({{"GITHUB_ACTIONS", "true"}, {"GITHUB_PATH", gpath}, {"GITHUB_ENV", genv}});
  GithubUpdate u;
  u.path_dirs = {"/usr/local/cuda-13.0/bin"};
  u.env = {{"CUDA_PATH", "/usr/local/cuda-13.0"}, {"LD_LIBRARY_PATH", "/usr/local/cuda-13.0/lib:/opt/x"}, {"MULTI", "line one\nline two"}};
  const auto done = apply_github_update(env, u);
  REQUIRE(done);
  CHECK(done->size() == 4);
  CHECK(slurp(gpath) == "/usr/local/cuda-13.0/bin\n");
  const auto parsed = parse_github_env(slurp(genv));
  REQUIRE(parsed);
  CHECK(parsed->at("EXISTING") == "1");
  CHECK(parsed->at("CUDA_PATH") == "/usr/local/cuda-13.0");
  CHECK(parsed->at("LD_LIBRARY_PATH") == "/usr/local/cuda-13.0/lib:/opt/x");
  CHECK(parsed->at("MULTI") == "line one\nline two");
  CHECK_THAT(slurp(genv), Catch::Contains("CUDA_PATH<<ghadelimiter_"));
}

TEST_CASE("outside GitHub Actions nothing is written, a broken runner environment is an error", "[github_env]") {
  platform::MapEnvironment off(std::map<std::string, std::string>{{"GITHUB_PATH", "/nonexistent"}});
  const auto none = apply_github_update(off, {{"/x"}, {}});
  REQUIRE(none);
  CHECK(none->empty());
  platform::MapEnvironment broken(std::map<std::string, std::string>{{"GITHUB_ACTIONS", "true"}});
  CHECK_FALSE(apply_github_update(broken, {{"/x"}, {}}));
  CHECK(github_env_entry("A", "b", "D") == "A<<D\nb\nD\n");
  CHECK_FALSE(parse_github_env("A<<D\nno end\n"));
}

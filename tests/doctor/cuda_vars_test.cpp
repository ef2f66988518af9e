// toolkit.cuda_vars, files.glibc_floor and files.advisories: facts gathered through the doctor's seam
// (a fake environment and a fake system), then the checks.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

DoctorFacts with_toolkit(const std::string& root, unsigned minor) {
  DoctorFacts f;
  Toolkit t;
  t.root = root;
  t.version = "13.0";
  t.os = Os::linux_os;
  t.lib_dir = "lib";
  t.include_dir = "include";
  f.toolkit.chosen = t;
  f.header = CudnnHeaderVersion{9, minor, 0};
  f.major = 9;
  return f;
}

Check only(const DoctorFacts& f, std::string_view id) {
  const auto out = run_check(f, id);
  REQUIRE(out.size() == 1);
  return out.front();
}

} // namespace

TEST_CASE("toolkit.cuda_vars: none set, all agreeing, disagreeing, naming no folder", "[doctor][cuda_vars]") {
  FakeSystem sys;
  sys.dirs["/opt/cuda-13.0"] = {"lib", "include"};
  sys.dirs["/opt/cuda-12.4"] = {"lib64"};
  {
    auto f = with_toolkit("/opt/cuda-13.0", 19);
    gather_cuda_vars(f, platform::MapEnvironment(std::map<std::string, std::string>{}), sys);
    const auto c = only(f, "toolkit.cuda_vars");
    CHECK(c.status == CheckStatus::pass);
    CHECK(c.finding == "none of CUDA_HOME, CUDA_PATH, CUDA_ROOT is set");
  }
  {
    auto f = with_toolkit("/opt/cuda-13.0", 19);
    gather_cuda_vars(f, platform::MapEnvironment(std::map<std::string, std::string>{{"CUDA_HOME", "/opt/cuda-13.0"}, {"CUDA_ROOT", "/opt/cuda-13.0/"}}), sys);
    const auto c = only(f, "toolkit.cuda_vars");
    CHECK(c.status == CheckStatus::pass);
    CHECK_THAT(c.finding, Catch::Contains("CUDA_HOME=/opt/cuda-13.0 (the checked toolkit)") && Catch::Contains("CUDA_PATH not set") &&
                              Catch::Contains("CUDA_ROOT=/opt/cuda-13.0/ (the checked toolkit)") && Catch::Contains("they agree"));
  }
  {
    auto f = with_toolkit("/opt/cuda-13.0", 19);
    gather_cuda_vars(f, platform::MapEnvironment(std::map<std::string, std::string>{{"CUDA_HOME", "/opt/cuda-12.4"}, {"CUDA_PATH", "/opt/cuda-13.0"}}), sys);
    const auto c = only(f, "toolkit.cuda_vars");
    CHECK(c.status == CheckStatus::warn);
    CHECK_THAT(c.finding, Catch::Contains("CUDA_HOME=/opt/cuda-12.4 (another folder than the checked toolkit)"));
    CHECK_THAT(c.fix, Catch::Contains("export CUDA_HOME=\"/opt/cuda-13.0\" CUDA_PATH=\"/opt/cuda-13.0\"; unset CUDA_ROOT"));
  }
  {
    auto f = with_toolkit("/opt/cuda-13.0", 19);
    gather_cuda_vars(f, platform::MapEnvironment(std::map<std::string, std::string>{{"CUDA_ROOT", "/nowhere"}, {"CUDA_HOME", ""}}), sys);
    const auto c = only(f, "toolkit.cuda_vars");
    CHECK(c.status == CheckStatus::warn);
    CHECK_THAT(c.finding, Catch::Contains("CUDA_ROOT=/nowhere (not a folder)") && Catch::Contains("CUDA_HOME not set"));
  }
}

TEST_CASE("toolkit.cuda_vars: cuDNN 9.24 and later read the variables itself", "[doctor][cuda_vars]") {
  FakeSystem sys;
  sys.dirs["/opt/cuda-13.0"] = {"lib"};
  sys.dirs["/opt/cuda-12.4"] = {"lib64"};
  const platform::MapEnvironment env(std::map<std::string, std::string>{{"CUDA_PATH", "/opt/cuda-12.4"}});
  auto old = with_toolkit("/opt/cuda-13.0", 19);
  gather_cuda_vars(old, env, sys);
  CHECK(only(old, "toolkit.cuda_vars").status == CheckStatus::pass);  // toolkit.env says it for 9.19; cuDNN ignores it
  auto reads = with_toolkit("/opt/cuda-13.0", 24);
  gather_cuda_vars(reads, env, sys);
  const auto c = only(reads, "toolkit.cuda_vars");
  CHECK(c.status == CheckStatus::warn);
  CHECK_THAT(c.finding, Catch::Contains("reads them itself, CUDA_PATH first"));
}

TEST_CASE("files.glibc_floor: the toolkit's libraries read through the seam, against the host", "[doctor][glibc_floor]") {
  FakeSystem sys;
  auto f = with_toolkit("/opt/cuda-13.0", 19);
  f.host_os = Os::linux_os;
  f.runtime_dir = "/opt/cuda-13.0/lib";
  f.lib_names = {"libcudnn.so.9", "libcudnn.so.9.19.0", "libcudnn_cnn.so.9", "libcudnn_cnn.so.9.19.0"};
  ElfDynamicInfo shim, cnn;
  shim.version_needs = {{"libc.so.6", "GLIBC_2.2.5"}, {"libstdc++.so.6", "GLIBCXX_3.4.11"}};
  cnn.version_needs = {{"libc.so.6", "GLIBC_2.27"}, {"libc.so.6", "GLIBC_2.14"}};
  sys.elf["/opt/cuda-13.0/lib/libcudnn.so.9"] = shim;
  sys.elf["/opt/cuda-13.0/lib/libcudnn_cnn.so.9"] = cnn;
  gather_glibc_floor(f, sys);
  REQUIRE(f.glibc_floor.gathered);
  CHECK(f.glibc_floor.floor.libraries == 2);  // the versioned twins are not read again
  f.glibc_floor.host = host_versions_from(std::string("2.36"), {"GLIBCXX_3.4.30"}, "");
  const auto ok = only(f, "files.glibc_floor");
  CHECK(ok.status == CheckStatus::pass);
  CHECK_THAT(ok.finding, Catch::Contains("GLIBC_2.27 (libcudnn_cnn.so.9), GLIBCXX_3.4.11 (libcudnn.so.9)") && Catch::Contains("GLIBC_2.36"));
  f.glibc_floor.host = host_versions_from(std::string("2.17"), {"GLIBCXX_3.4.19"}, "");
  const auto low = only(f, "files.glibc_floor");
  CHECK(low.status == CheckStatus::fail);
  CHECK_THAT(low.finding, Catch::Contains("libcudnn_cnn.so.9 needs GLIBC_2.27 (host: GLIBC_2.17)"));
  CHECK_FALSE(low.fix.empty());
}

TEST_CASE("files.advisories: a release in a known-bad range warns with the fixing release", "[doctor][advisories]") {
  auto bad = with_toolkit("/opt/cuda", 12);
  const auto out = run_check(bad, "files.advisories");
  REQUIRE(out.size() == 3);
  for (const auto& c : out) CHECK(c.status == CheckStatus::warn);
  CHECK_THAT(out.front().finding, Catch::Contains("fixed in 9.16.0"));
  const auto good = only(with_toolkit("/opt/cuda", 19), "files.advisories");
  CHECK(good.status == CheckStatus::pass);
}

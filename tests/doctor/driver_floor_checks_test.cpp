// driver.cuda_floor on facts held in memory: the driver against the toolkit's CUDA and each bundle's CUDA major.
#include <catch2/catch.hpp>

#include "cudnnctl/doctor/check_table.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

DoctorFacts floor_facts(const std::string& cuda, const std::string& driver, Os os = Os::linux_os) {
  DoctorFacts f;
  Toolkit t;
  t.root = os == Os::windows ? "C:/CUDA" : "/usr/local/cuda";
  t.version = cuda;
  t.os = os;
  f.host_os = os;
  f.toolkit.chosen = t;
  f.driver_version = driver;
  return f;
}

} // namespace

TEST_CASE("driver.cuda_floor: an R570 driver under CUDA 13 fails with the minimum and the fix, R580 passes", "[doctor][driver_floor]") {
  const auto old = run_check(floor_facts("13.0", "570.86.15"), "driver.cuda_floor");
  REQUIRE(old.size() == 1);
  CHECK(old[0].status == CheckStatus::fail);
  CHECK_THAT(old[0].finding, Catch::Contains("570.86.15") && Catch::Contains("580.65.06") && Catch::Contains("CUDA 13") &&
                                 Catch::Contains("the toolkit's CUDA 13.0"));
  CHECK_THAT(old[0].cause, Catch::Contains("too old"));
  CHECK_THAT(old[0].fix, Catch::Contains("580.65.06") && Catch::Contains("CUDA 12"));
  const auto ok = run_check(floor_facts("13.0", "580.95.05"), "driver.cuda_floor");
  REQUIRE(ok.size() == 1);
  CHECK(ok[0].status == CheckStatus::pass);
  CHECK(run_check(floor_facts("12.4", "525.60.13"), "driver.cuda_floor")[0].status == CheckStatus::pass);
  CHECK(run_check(floor_facts("12.4", "520.61.05"), "driver.cuda_floor")[0].status == CheckStatus::fail);
  CHECK(run_check(floor_facts("12.4", "526.98", Os::windows), "driver.cuda_floor")[0].status == CheckStatus::fail);
  CHECK(run_check(floor_facts("10.2", "440.33"), "driver.cuda_floor")[0].status == CheckStatus::pass);
  CHECK(run_check(floor_facts("10.2", "418.96"), "driver.cuda_floor")[0].status == CheckStatus::fail);
  CHECK(run_check(floor_facts("13.0", ""), "driver.cuda_floor").empty());  // no driver version read: nothing to say
}

TEST_CASE("driver.cuda_floor: each framework bundle's CUDA major is compared too", "[doctor][driver_floor]") {
  auto f = floor_facts("12.4", "570.86.15");
  Bundle cu13, cu12, unknown;
  cu13.dir = "/venv/site-packages/nvidia/cudnn/lib";
  cu13.cuda_major = 13;
  cu12.dir = "/other/nvidia/cudnn/lib";
  cu12.cuda_major = 12;  // the toolkit's major: said once
  f.bundles().bundles = {cu13, cu12, unknown};
  const auto out = run_check(f, "driver.cuda_floor");
  REQUIRE(out.size() == 2);
  CHECK(out[0].status == CheckStatus::pass);
  CHECK(out[1].status == CheckStatus::fail);
  CHECK_THAT(out[1].finding, Catch::Contains("CUDA 13 framework bundle in /venv/site-packages/nvidia/cudnn/lib") && Catch::Contains("580.65.06"));
}

// machine/machine.hpp: the GPUs asked once per run, the resolver's facts of this host and of another platform.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "../archive/test_archives.hpp"
#include "cudnnctl/machine/machine.hpp"
#include "cudnnctl/platform/environment.hpp"
#include "cudnnctl/platform/host.hpp"

using namespace cudnnctl;

namespace {
MachineGpus one_gpu() {
  MachineGpus g;
  g.driver_found = true;
  g.driver_api_version = 13000;
  g.driver_version = "580.65.06";
  g.devices.push_back({"NVIDIA GeForce RTX 3090", {8, 6}});
  return g;
}
Toolkit toolkit_13() {
  Toolkit t;
  t.root = "/opt/cuda-13.0";
  t.version = "13.0";
  t.os = Os::linux_os;
  return t;
}
} // namespace

TEST_CASE("machine: the driver is asked once, at the first read, whoever reads", "[machine]") {
  int asked = 0;
  std::string driver;
  Machine m("/opt/fake/libcuda.so.1", [&](const std::string& lib) {
    ++asked;
    driver = lib;
    return one_gpu();
  });
  CHECK(asked == 0);  // nothing asked before a reader needs the GPUs
  const auto tk = toolkit_13();
  const auto facts = m.facts("linux-x86_64", &tk, true);  // the resolver
  CHECK(m.gpus().devices.size() == 1);                    // the GPU gate
  CHECK(m.gpus().driver_version == "580.65.06");          // explain --here
  CHECK(asked == 1);
  CHECK(m.asks() == 1);
  CHECK(driver == "/opt/fake/libcuda.so.1");
  REQUIRE(facts.gpus.size() == 1);
  CHECK(facts.gpus[0].cc_major == 8);
  CHECK(facts.gpus[0].cc_minor == 6);
  CHECK(facts.driver_api_version == 13000);
  REQUIRE(facts.toolkit);
  CHECK(facts.toolkit->version == "13.0");
}

TEST_CASE("machine: another platform's facts ask no driver and take no toolkit of another OS", "[machine]") {
  int asked = 0;
  Machine m({}, [&](const std::string&) {
    ++asked;
    return one_gpu();
  });
  const auto tk = toolkit_13();
  const auto facts = m.facts("windows-x86_64", &tk, false);
  CHECK(asked == 0);
  CHECK(facts.os == Os::windows);
  CHECK(facts.gpus.empty());
  CHECK_FALSE(facts.toolkit);  // a Linux toolkit is no fact of a Windows target
}

TEST_CASE("machine: an answer known already (the doctor's probe) starts no child", "[machine]") {
  int asked = 0;
  Machine m({}, [&](const std::string&) {
    ++asked;
    return MachineGpus{};
  });
  m.know_gpus(one_gpu());
  CHECK(m.gpus().devices.size() == 1);
  CHECK(asked == 0);
  MachineGpus none;  // no driver: no GPU facts, whatever the devices say
  none.devices.push_back({"ghost", {9, 0}});
  CHECK(machine_facts("linux-x86_64", nullptr, &none).gpus.empty());
}

TEST_CASE("machine: a probe's answer becomes the GPUs and the driver in one place (machine_gpus_of)", "[machine]") {
  ProbeResult p;
  p.completed = true;
  p.driver_loaded = true;
  p.cu_init = 0;
  p.driver_api_version = 13000;
  p.devices = {{"NVIDIA B200", 10, 0}, {"undescribed", 0, 0}};
  const auto g = machine_gpus_of(p, "580.95.05");
  CHECK(g.driver_found);
  CHECK(g.unanswered.empty());
  CHECK(g.driver_api_version == 13000);
  CHECK(g.driver_version == "580.95.05");
  REQUIRE(g.devices.size() == 1);  // a device without a compute capability is not a GPU to compare
  CHECK(g.devices[0].name == "NVIDIA B200");
  CHECK(g.devices[0].cc.major == 10u);
  // cuInit failed: no driver, no GPUs, and the version read beside it is not taken
  p.cu_init = 100;
  const auto none = machine_gpus_of(p, "580.95.05");
  CHECK_FALSE(none.driver_found);
  CHECK(none.devices.empty());
  CHECK(none.driver_version.empty());
  // a child that stopped early says why
  p.completed = false;
  p.signal = 11;
  CHECK(machine_gpus_of(p, "").unanswered == "it stopped on signal 11");
}

namespace {
// a CUDA 12.4 toolkit's marks (include/cuda.h) under `base`
std::string fake_toolkit_12(const std::filesystem::path& base) {
  std::filesystem::create_directories(base / "include");
  std::ofstream(base / "include/cuda.h") << "#define CUDA_VERSION 12040\n";
  return base.string();
}
} // namespace

TEST_CASE("machine: the environment is surveyed for toolkits once, whoever chooses from it", "[machine][toolkit]") {
  cudnnctl::testing::TempDir tmp;
  const auto tk = fake_toolkit_12(tmp.path() / "cuda-12.4");
  auto env = platform::snapshot_environment(platform::MapEnvironment({{"CUDA_PATH", tk}, {"PATH", ""}}));
  Machine m("", [](const std::string&) { return MachineGpus{}; }, env);
  CHECK(m.toolkit_surveys() == 0);  // nothing surveyed before a reader needs a toolkit
  CHECK(m.toolkit() == nullptr);
  std::string reason;
  auto chosen = m.select_toolkit("", std::nullopt, reason);  // install's resolver
  REQUIRE(chosen);
  CHECK(chosen->root == tk);
  CHECK(chosen->version == "12.4");
  CHECK_THAT(reason, Catch::Contains("CUDA_PATH"));
  auto again = m.select_toolkit("", std::string("12"), reason);  // install's archive of a CUDA major
  REQUIRE(again);
  CHECK(m.toolkits().found.front().root == tk);  // the doctor's look at every toolkit found
  CHECK(m.toolkit_surveys() == 1);
  REQUIRE(m.toolkit() != nullptr);
  CHECK(m.toolkit()->root == tk);
  // a CUDA major the survey lacks: the error names what was asked, and the survey is not made again
  auto none = m.select_toolkit("", std::string("11"), reason);
  REQUIRE_FALSE(none);
  CHECK(none.error().code == ErrorCode::file_not_found);
  CHECK_THAT(none.error().hint, Catch::Contains("CUDA 11.x"));
  CHECK(m.toolkit_surveys() == 1);
  // --cuda-path is read as named: a folder that is no toolkit is input.invalid, and no survey is made for it
  auto bad = m.select_toolkit((tmp.path() / "nothing").string(), std::nullopt, reason);
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == ErrorCode::input_invalid);
  CHECK(m.toolkit_surveys() == 1);
  // the resolver's facts carry the toolkit kept, for this host's platform
  const auto facts = m.facts(host_platform_name(Os::linux_os), m.toolkit(), false);
  REQUIRE(facts.toolkit);
  CHECK(facts.toolkit->version == "12.4");
}

TEST_CASE("machine: a snapshot of another environment outlives it, and this process's stays live", "[machine][toolkit]") {
  std::shared_ptr<const platform::Environment> kept;
  {
    const platform::MapEnvironment env(std::map<std::string, std::string>{{"CUDA_PATH", "/opt/cuda"}});
    kept = platform::snapshot_environment(env);
  }
  CHECK(kept->get("CUDA_PATH") == std::optional<std::string>("/opt/cuda"));
  CHECK_FALSE(kept->get("CUDA_HOME"));
  CHECK(kept->names() == std::vector<std::string>{"CUDA_PATH"});
  const platform::ProcessEnvironment process;
  const auto live = platform::snapshot_environment(process);
  CHECK(live->get("PATH") == process.get("PATH"));
}

TEST_CASE("machine: fetch's facts fit the release to the toolkit of the platform asked", "[machine][toolkit]") {
  cudnnctl::testing::TempDir tmp;
  const auto tk = fake_toolkit_12(tmp.path() / "cuda-12.4");
  int asked = 0;
  Machine m("", [&](const std::string&) { ++asked; return one_gpu(); }, platform::snapshot_environment(platform::MapEnvironment({{"CUDA_PATH", tk}})));
  std::string platform_name, cuda;
  auto facts = m.release_facts(platform_name, cuda, "");
  REQUIRE(facts);
  CHECK(platform_name == host_platform_name(platform::detect_host().os));
  CHECK(cuda == "12");  // the toolkit's CUDA major names the variant
  CHECK(facts->cuda_variant.empty());  // which the resolver prefers, but --cuda did not ask for it
  REQUIRE(facts->toolkit);
  CHECK(facts->toolkit->root == tk);
  CHECK(asked == 1);  // this host's platform: the driver asked
  // Windows asked from Linux: no toolkit of that OS, no driver
  std::string windows = "windows-x86_64", cuda_w;
  if (platform::detect_host().os == Os::linux_os) {
    auto w = m.release_facts(windows, cuda_w, "");
    REQUIRE(w);
    CHECK_FALSE(w->toolkit);
    CHECK(cuda_w.empty());
    CHECK(w->gpus.empty());
  }
  // --cuda 13 given: the variant asked is kept as asked, and no toolkit is fitted to it
  std::string p13, c13 = "13";
  auto for_13 = m.release_facts(p13, c13, "");
  REQUIRE(for_13);
  CHECK(for_13->cuda_variant == "13");
  CHECK(c13 == "13");
  CHECK_FALSE(for_13->toolkit);
  // --cuda-path naming no toolkit is that error
  std::string p2, c2;
  auto bad = m.release_facts(p2, c2, (tmp.path() / "nothing").string());
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == ErrorCode::input_invalid);
  CHECK(m.toolkit_surveys() == 1);
  CHECK(asked == 1);
}

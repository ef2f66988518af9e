// machine/machine.hpp: the GPUs asked once per run, the resolver's facts of this host and of another platform.
#include <catch2/catch.hpp>

#include "cudnnctl/machine/machine.hpp"

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

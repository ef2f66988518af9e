#include "cudnnctl/machine/machine.hpp"

#include <utility>

namespace cudnnctl {

Machine::Machine(std::string driver_library, GpuAsk ask) : m_driver_library(std::move(driver_library)), m_ask(std::move(ask)) {}

const MachineGpus& Machine::gpus() {
  if (!m_gpus) {
    ++m_asks;
    m_gpus = m_ask(m_driver_library);
  }
  return *m_gpus;
}

void Machine::know_gpus(MachineGpus gpus) { m_gpus = std::move(gpus); }

MachineFacts Machine::facts(const std::string& platform, const Toolkit* toolkit, bool this_host) {
  return machine_facts(platform, toolkit, this_host ? &gpus() : nullptr);
}

MachineFacts machine_facts(const std::string& platform, const Toolkit* toolkit, const MachineGpus* gpus) {
  MachineFacts f;
  f.platform = platform;
  f.os = platform.starts_with("windows") ? Os::windows : Os::linux_os;
  if (toolkit && toolkit->os == f.os && !toolkit->version.empty()) f.toolkit = ToolkitFact{toolkit->root, toolkit->version};
  if (gpus && gpus->driver_found) {
    f.driver_version = gpus->driver_version;
    f.driver_api_version = gpus->driver_api_version;
    for (const auto& d : gpus->devices) f.gpus.push_back({d.name, d.cc.major, d.cc.minor});
  }
  return f;
}

} // namespace cudnnctl

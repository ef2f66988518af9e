#include "cudnnctl/machine/machine.hpp"

#include <utility>

namespace cudnnctl {

Machine::Machine(std::string driver_library, GpuAsk ask, std::shared_ptr<const platform::Environment> env, LdCacheRead read_ld_cache)
    : m_driver_library(std::move(driver_library)), m_ask(std::move(ask)), m_env(std::move(env)), m_read_ld_cache(std::move(read_ld_cache)) {
  if (!m_env) m_env = std::make_shared<platform::ProcessEnvironment>();
}

LoaderView& Machine::loader() {
  if (!m_loader) m_loader = std::make_shared<LoaderView>(*m_env, platform::detect_host(), m_read_ld_cache);
  return *m_loader;
}

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

#include "cudnnctl/machine/machine.hpp"

#include <utility>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/platform/host.hpp"

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

const ToolkitSurvey& Machine::toolkits(const std::string& cuda_path) {
  auto it = m_surveys.find(cuda_path);
  if (it == m_surveys.end()) {
    ++m_toolkit_surveys;
    ToolkitSurvey s;
    s.found = find_toolkits(*m_env, cuda_path.empty() ? std::nullopt : std::optional(cuda_path), &s.notes);
    log::info("machine: the toolkits the environment names{}: {} found", cuda_path.empty() ? "" : " (--cuda-path first)", s.found.size());
    it = m_surveys.emplace(cuda_path, std::move(s)).first;
  }
  return it->second;
}

Result<Toolkit> Machine::select_toolkit(const std::string& cuda_path, const std::optional<std::string>& cuda_major, std::string& reason) {
  auto chosen = cuda_path.empty() ? choose_from_survey(toolkits(), cuda_major, reason) : read_cuda_path(cuda_path);
  if (!chosen) return chosen;
  if (!cuda_path.empty()) {
    reason = fmt::format("{} (CUDA {}) because --cuda-path names it", chosen->root, chosen->version);
    log::info("toolkit: {}", reason);
  }
  m_toolkit = *chosen;
  return chosen;
}

void Machine::know_gpus(MachineGpus gpus) { m_gpus = std::move(gpus); }

MachineFacts Machine::facts(const std::string& platform, const Toolkit* toolkit, bool this_host) {
  return machine_facts(platform, toolkit, this_host ? &gpus() : nullptr);
}

Result<MachineFacts> Machine::release_facts(std::string& platform, std::string& cuda, const std::string& cuda_path) {
  const auto host_platform = host_platform_name(platform::detect_host().os);
  if (platform.empty()) platform = host_platform;
  const auto asked = cuda;  // --cuda as given: the variant the resolver must take
  const Toolkit* fitted = nullptr;
  if (cuda.empty()) {
    std::string reason;
    auto found = select_toolkit(cuda_path, std::nullopt, reason);
    if (!found && !cuda_path.empty()) return Unexpected<Error>(found.error());
    // without a toolkit the release is chosen for the platform alone: say why in the log, not nowhere
    if (!found) log::info("fetch: no toolkit to fit the release to: {}", found.error().message);
    else log::info("fetch: the release is fitted to {}", reason);
    if (found && !found->major().empty() && host_platform_name(found->os) == platform) {
      fitted = toolkit();
      cuda = found->major();  // an unknown version's manifest is learnt for the toolkit's CUDA
    }
  }
  auto out = facts(platform, fitted, platform == host_platform);
  out.cuda_variant = asked;
  return out;
}

std::string host_platform_name(Os os) {
  const auto host = platform::detect_host();
  if (os == Os::windows) return archive_platform_name(os, host.arch == Arch::arm64 ? Arch::arm64 : Arch::x86_64);
  return archive_platform_name(os, host.os == Os::linux_os ? host.arch : Arch::x86_64);
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

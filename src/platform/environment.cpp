#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl::platform {

std::optional<std::string> MapEnvironment::get(const std::string& name) const {
  const auto it = m_vars.find(name);
  if (it == m_vars.end()) return std::nullopt;
  return it->second;
}

std::vector<std::string> MapEnvironment::names() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : m_vars) out.push_back(k);
  return out;
}

} // namespace cudnnctl::platform

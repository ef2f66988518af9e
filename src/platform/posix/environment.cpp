#include <unistd.h>  // environ

#include <cstdlib>

#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl::platform {

std::optional<std::string> ProcessEnvironment::get(const std::string& name) const {
  const char* v = std::getenv(name.c_str());
  if (!v) return std::nullopt;
  return std::string(v);
}

std::vector<std::string> ProcessEnvironment::names() const {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    out.push_back(kv.substr(0, kv.find('=')));
  }
  return out;
}

char path_list_separator() { return ':'; }

std::string user_state_dir(const Environment& env) {
  if (const auto x = env.get("XDG_STATE_HOME"); x && x->starts_with('/')) return *x;
  if (const auto h = env.get("HOME"); h && h->starts_with('/')) return *h + "/.local/state";
  return {};
}

} // namespace cudnnctl::platform

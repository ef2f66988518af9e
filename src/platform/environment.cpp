#include "cudnnctl/platform/environment.hpp"

#include <algorithm>
#include <cctype>

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

namespace {
bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}
}  // namespace

std::optional<std::string> OverlayEnvironment::get(const std::string& name) const {
  for (const auto& [k, v] : m_set)
    if (same_name(k, name)) return v;
  return m_base.get(name);
}

std::vector<std::string> OverlayEnvironment::names() const {
  auto out = m_base.names();
  std::erase_if(out, [this](const std::string& n) { return std::any_of(m_set.begin(), m_set.end(), [&](const auto& kv) { return same_name(kv.first, n); }); });
  for (const auto& [k, v] : m_set) out.push_back(k);
  return out;
}

namespace {
// Another environment's variables, copied when the snapshot is taken
class SnapshotEnvironment final : public Environment {
public:
  SnapshotEnvironment(const Environment& from, bool fold_case) : m_fold_case(fold_case) {
    for (const auto& n : from.names())
      if (auto v = from.get(n)) m_vars.emplace(n, std::move(*v));
  }
  std::optional<std::string> get(const std::string& name) const override {
    if (const auto it = m_vars.find(name); it != m_vars.end()) return it->second;
    if (m_fold_case)
      for (const auto& [k, v] : m_vars)
        if (same_name(k, name)) return v;
    return std::nullopt;
  }
  std::vector<std::string> names() const override {
    std::vector<std::string> out;
    for (const auto& [k, v] : m_vars) out.push_back(k);
    return out;
  }

private:
  std::map<std::string, std::string> m_vars;
  bool m_fold_case;
};
}  // namespace

std::shared_ptr<const Environment> snapshot_environment(const Environment& env) {
  if (dynamic_cast<const ProcessEnvironment*>(&env)) return std::make_shared<ProcessEnvironment>();
  return std::make_shared<SnapshotEnvironment>(env, path_list_separator() == ';');
}

} // namespace cudnnctl::platform

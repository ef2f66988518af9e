#include "cudnnctl/owner/installer_entry.hpp"

#include <algorithm>

#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

namespace {

// a folder as Windows compares it: case-folded (ASCII), '\' separators, no trailing separator
std::string folder_key(std::string s) {
  s = to_lower_ascii(s);
  std::replace(s.begin(), s.end(), '/', '\\');
  while (s.size() > 3 && s.back() == '\\') s.pop_back();
  return s;
}

// "9.1" in "NVIDIA cuDNN 9.1" or "9.1.0.70", not in "9.10" or "19.1"
bool names_release(const std::string& text, const std::string& release) {
  if (release.empty()) return false;
  for (auto at = text.find(release); at != std::string::npos; at = text.find(release, at + 1)) {
    const bool left = at == 0 || !(is_ascii_digit(text[at - 1]) || text[at - 1] == '.');
    const auto end = at + release.size();
    const bool right = end == text.size() || !is_ascii_digit(text[end]);
    if (left && right) return true;
  }
  return false;
}

int score(const platform::UninstallEntry& e, const std::string& release, const std::string& root) {
  if (to_lower_ascii(e.publisher).find("nvidia") == std::string::npos) return 0;
  if (to_lower_ascii(e.display_name).find("cudnn") == std::string::npos) return 0;
  const bool named = names_release(e.display_name, release) || names_release(e.display_version, release);
  if (!e.install_location.empty()) {
    if (root.empty()) return named ? 1 : 0;
    const auto location = folder_key(e.install_location), here = folder_key(root);
    if (location == here) return 3;
    return named && here.starts_with(location + "\\") ? 2 : 0;
  }
  return named ? 1 : 0;
}

} // namespace

std::optional<platform::UninstallEntry> cudnn_installer_entry(const std::vector<platform::UninstallEntry>& entries,
                                                              const std::string& release, const std::string& root) {
  const platform::UninstallEntry* best = nullptr;
  int best_score = 0;
  for (const auto& e : entries)
    if (const int s = score(e, release, root); s > best_score) best = &e, best_score = s;
  if (!best) return std::nullopt;
  return *best;
}

Owner windows_installer_owner(const std::string& release, const std::string& root, const platform::UninstallEntry& entry) {
  auto o = windows_installer_owner(release, root);
  o.package = entry.display_name;
  o.version = entry.display_version;
  o.record = entry.key;
  o.uninstaller = entry.uninstall_string;
  return o;
}

const std::vector<platform::UninstallEntry>& this_machine_uninstall_entries() {
  static const auto entries = platform::uninstall_entries();
  return entries;
}

Owner windows_installer_owner_here(const std::string& release, const std::string& root) {
  if (const auto entry = cudnn_installer_entry(this_machine_uninstall_entries(), release, root)) return windows_installer_owner(release, root, *entry);
  return windows_installer_owner(release, root);
}

} // namespace cudnnctl

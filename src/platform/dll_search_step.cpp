#include "cudnnctl/platform/dll_search_step.hpp"

#include <algorithm>

namespace cudnnctl::platform {

std::string comparable_windows_folder(const std::string& folder) {
  std::string f;
  for (char c : folder) {
    if (c == '"') continue;  // PATH may quote an entry: "C:\Program Files\x"
    if (c == '/') c = '\\';
    else if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    f += c;
  }
  if (f.starts_with("\\\\?\\unc\\")) f = "\\\\" + f.substr(8);
  else if (f.starts_with("\\\\?\\")) f = f.substr(4);
  while (f.size() > 1 && f.back() == '\\' && !(f.size() == 3 && f[1] == ':')) f.pop_back();
  if (f.size() == 2 && f[1] == ':') f += '\\';  // "C:" and "C:\" are the same root here
  return f;
}

std::string dll_search_step(const std::string& dll_path, const DllSearchPlaces& places) {
  const auto slash = dll_path.find_last_of("/\\");
  if (slash == std::string::npos) return "unknown";
  const auto dir = comparable_windows_folder(dll_path.substr(0, slash + 1));
  const auto same = [&](const std::string& folder) { return !folder.empty() && comparable_windows_folder(folder) == dir; };
  const auto any = [&](const std::vector<std::string>& folders) { return std::any_of(folders.begin(), folders.end(), same); };
  if (same(places.application_folder)) return "application folder";
  if (same(places.system_folder)) return "System32";
  if (any(places.path_entries)) return "PATH";
  if (any(places.toolkit_bins)) return "toolkit bin";
  return "unknown";
}

} // namespace cudnnctl::platform

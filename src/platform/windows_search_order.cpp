#include "cudnnctl/platform/windows_search_order.hpp"

#include <algorithm>

namespace cudnnctl::platform {

std::string step_name(WindowsSearchStep step) {
  switch (step) {
  case WindowsSearchStep::dll_folder: return "the DLL's own folder";
  case WindowsSearchStep::application_folder: return "application folder";
  case WindowsSearchStep::added_folder: return "added folder";
  case WindowsSearchStep::system32: return "System32";
  case WindowsSearchStep::system16: return "System folder";
  case WindowsSearchStep::windows_folder: return "Windows folder";
  case WindowsSearchStep::current_folder: return "current folder";
  case WindowsSearchStep::path: return "PATH";
  }
  return "unknown";
}

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

std::vector<WindowsSearchFolder> windows_search_order(const WindowsSearchPlaces& p) {
  std::vector<WindowsSearchFolder> order;
  const auto add = [&order](std::string folder, WindowsSearchStep step) {
    folder.erase(std::remove(folder.begin(), folder.end(), '"'), folder.end());
    if (!folder.empty()) order.push_back({std::move(folder), step});
  };
  const auto system32 = !p.system32.empty() ? p.system32 : p.windows_folder.empty() ? std::string() : p.windows_folder + "\\System32";
  if (p.default_dirs) {
    add(p.dll_folder, WindowsSearchStep::dll_folder);
    add(p.application_folder, WindowsSearchStep::application_folder);
    for (const auto& f : p.added_folders) add(f, WindowsSearchStep::added_folder);
    add(system32, WindowsSearchStep::system32);
    return order;
  }
  // the standard order, SafeDllSearchMode on; LOAD_WITH_ALTERED_SEARCH_PATH starts in the DLL's folder instead
  if (!p.dll_folder.empty()) add(p.dll_folder, WindowsSearchStep::dll_folder);
  else add(p.application_folder, WindowsSearchStep::application_folder);
  for (const auto& f : p.added_folders) add(f, WindowsSearchStep::added_folder);  // SetDllDirectory
  add(system32, WindowsSearchStep::system32);
  if (!p.windows_folder.empty()) add(p.windows_folder + "\\System", WindowsSearchStep::system16);
  add(p.windows_folder, WindowsSearchStep::windows_folder);
  if (p.added_folders.empty()) add(p.current_folder, WindowsSearchStep::current_folder);  // SetDllDirectory drops it
  for (const auto& e : p.path_entries) add(e, WindowsSearchStep::path);
  return order;
}

std::optional<WindowsSearchStep> windows_search_step_of(const std::string& dll_path, const std::vector<WindowsSearchFolder>& order) {
  const auto slash = dll_path.find_last_of("/\\");
  if (slash == std::string::npos) return std::nullopt;
  const auto dir = comparable_windows_folder(dll_path.substr(0, slash + 1));
  for (const auto& f : order)
    if (comparable_windows_folder(f.folder) == dir) return f.step;
  return std::nullopt;
}

} // namespace cudnnctl::platform

// Settings > Apps: Software\Microsoft\Windows\CurrentVersion\Uninstall under HKLM (both views) and HKCU, read only.
#include "cudnnctl/platform/uninstall_entries.hpp"

#include <windows.h>

#include "registry_text.hpp"

namespace cudnnctl::platform {

namespace {

constexpr DWORD k_entries_max = 4096;
constexpr const wchar_t* k_uninstall = L"Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall";

void read_root(HKEY root, REGSAM view, const char* where, std::vector<UninstallEntry>& out) {
  HKEY list = nullptr;
  if (RegOpenKeyExW(root, k_uninstall, 0, KEY_READ | view, &list) != ERROR_SUCCESS) return;
  for (const auto& sub : win::registry_subkeys(list, k_entries_max)) {
    HKEY key = nullptr;
    if (RegOpenKeyExW(list, sub.c_str(), 0, KEY_READ | view, &key) != ERROR_SUCCESS) continue;
    UninstallEntry e;
    e.display_name = win::registry_string(key, L"DisplayName").value_or(std::string());
    if (!e.display_name.empty()) {
      e.key = std::string(where) + "\\" + win::narrow(sub);
      e.display_version = win::registry_string(key, L"DisplayVersion").value_or(std::string());
      e.publisher = win::registry_string(key, L"Publisher").value_or(std::string());
      e.install_location = win::registry_string(key, L"InstallLocation").value_or(std::string());
      e.uninstall_string = win::registry_string(key, L"UninstallString").value_or(std::string());
      out.push_back(std::move(e));
    }
    RegCloseKey(key);
  }
  RegCloseKey(list);
}

}  // namespace

std::vector<UninstallEntry> uninstall_entries() {
  std::vector<UninstallEntry> out;
  read_root(HKEY_LOCAL_MACHINE, KEY_WOW64_64KEY, "HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall", out);
  read_root(HKEY_LOCAL_MACHINE, KEY_WOW64_32KEY, "HKLM\\Software\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall", out);
  read_root(HKEY_CURRENT_USER, 0, "HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall", out);
  return out;
}

}  // namespace cudnnctl::platform

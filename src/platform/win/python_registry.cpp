// PEP 514: Software\Python\<company>\<tag>\InstallPath under HKCU and HKLM (64- and 32-bit views), read only.
#include "cudnnctl/platform/python_registry.hpp"

#include <windows.h>

#include <algorithm>

#include "registry_text.hpp"

namespace cudnnctl::platform {

namespace {

constexpr DWORD k_registry_names_max = 64;

void read_root(HKEY root, REGSAM view, std::vector<std::string>& out) {
  HKEY python = nullptr;
  if (RegOpenKeyExW(root, L"Software\\Python", 0, KEY_READ | view, &python) != ERROR_SUCCESS) return;
  for (const auto& company : win::registry_subkeys(python, k_registry_names_max)) {
    if (_wcsicmp(company.c_str(), L"PyLauncher") == 0) continue;
    HKEY c = nullptr;
    if (RegOpenKeyExW(python, company.c_str(), 0, KEY_READ | view, &c) != ERROR_SUCCESS) continue;
    for (const auto& tag : win::registry_subkeys(c, k_registry_names_max)) {
      HKEY install = nullptr;
      if (RegOpenKeyExW(c, (tag + L"\\InstallPath").c_str(), 0, KEY_READ | view, &install) != ERROR_SUCCESS) continue;
      auto path = win::registry_string(install, nullptr).value_or(std::string());
      RegCloseKey(install);
      while (path.size() > 3 && (path.back() == '\\' || path.back() == '/')) path.pop_back();
      if (!path.empty() && std::find(out.begin(), out.end(), path) == out.end()) out.push_back(std::move(path));
    }
    RegCloseKey(c);
  }
  RegCloseKey(python);
}

}  // namespace

std::vector<std::string> registered_python_prefixes() {
  std::vector<std::string> out;
  read_root(HKEY_CURRENT_USER, 0, out);
  read_root(HKEY_LOCAL_MACHINE, KEY_WOW64_64KEY, out);
  read_root(HKEY_LOCAL_MACHINE, KEY_WOW64_32KEY, out);
  return out;
}

}  // namespace cudnnctl::platform

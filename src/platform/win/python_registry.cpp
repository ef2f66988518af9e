// PEP 514: Software\Python\<company>\<tag>\InstallPath under HKCU and HKLM (64- and 32-bit views), read only.
#include "cudnnctl/platform/python_registry.hpp"

#include <windows.h>

#include <algorithm>

#include "wide.hpp"

namespace cudnnctl::platform {

namespace {

constexpr DWORD k_registry_names_max = 64;

// The names of a key's subkeys, at most k_registry_names_max.
std::vector<std::wstring> subkeys(HKEY key) {
  std::vector<std::wstring> out;
  for (DWORD i = 0; i < k_registry_names_max; ++i) {
    wchar_t name[256];
    DWORD len = 256;
    if (RegEnumKeyExW(key, i, name, &len, nullptr, nullptr, nullptr, nullptr) != ERROR_SUCCESS) break;
    out.emplace_back(name, len);
  }
  return out;
}

// A key's default value when it is a string of at most 32 KiB; empty otherwise.
std::string default_string(HKEY key) {
  DWORD type = 0, bytes = 0;
  if (RegQueryValueExW(key, nullptr, nullptr, &type, nullptr, &bytes) != ERROR_SUCCESS || (type != REG_SZ && type != REG_EXPAND_SZ) ||
      bytes > (32u << 10))
    return {};
  std::wstring w(bytes / sizeof(wchar_t) + 1, L'\0');
  if (RegQueryValueExW(key, nullptr, nullptr, &type, reinterpret_cast<BYTE*>(w.data()), &bytes) != ERROR_SUCCESS) return {};
  w.resize(bytes / sizeof(wchar_t));
  while (!w.empty() && w.back() == L'\0') w.pop_back();
  return win::narrow(w);
}

void read_root(HKEY root, REGSAM view, std::vector<std::string>& out) {
  HKEY python = nullptr;
  if (RegOpenKeyExW(root, L"Software\\Python", 0, KEY_READ | view, &python) != ERROR_SUCCESS) return;
  for (const auto& company : subkeys(python)) {
    if (_wcsicmp(company.c_str(), L"PyLauncher") == 0) continue;
    HKEY c = nullptr;
    if (RegOpenKeyExW(python, company.c_str(), 0, KEY_READ | view, &c) != ERROR_SUCCESS) continue;
    for (const auto& tag : subkeys(c)) {
      HKEY install = nullptr;
      if (RegOpenKeyExW(c, (tag + L"\\InstallPath").c_str(), 0, KEY_READ | view, &install) != ERROR_SUCCESS) continue;
      auto path = default_string(install);
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

#pragma once
// Reading the registry's text as untrusted input (platform/win only): a string value of bounded size, and a key's
// subkey names, bounded in number. Shared by the PEP 514 reader and the Apps list reader.
#include <windows.h>

#include <optional>
#include <string>
#include <vector>

#include "wide.hpp"

namespace cudnnctl::platform::win {

/// The subkey names of `key`, at most `max` of them, in the registry's order.
inline std::vector<std::wstring> registry_subkeys(HKEY key, DWORD max) {
  std::vector<std::wstring> out;
  for (DWORD i = 0; i < max; ++i) {
    wchar_t name[256];
    DWORD len = 256;
    if (RegEnumKeyExW(key, i, name, &len, nullptr, nullptr, nullptr, nullptr) != ERROR_SUCCESS) break;
    out.emplace_back(name, len);
  }
  return out;
}

/// Value `name` of `key` (nullptr: the default value) as UTF-8, when it is a REG_SZ or REG_EXPAND_SZ of at most
/// `max_bytes` (unexpanded; trailing NULs dropped); nullopt when missing, of another type or longer.
inline std::optional<std::string> registry_string(HKEY key, const wchar_t* name, DWORD max_bytes = 32u << 10) {
  DWORD type = 0, bytes = 0;
  if (RegQueryValueExW(key, name, nullptr, &type, nullptr, &bytes) != ERROR_SUCCESS || (type != REG_SZ && type != REG_EXPAND_SZ) ||
      bytes > max_bytes)
    return std::nullopt;
  std::wstring w(bytes / sizeof(wchar_t) + 1, L'\0');
  DWORD got = bytes;
  if (RegQueryValueExW(key, name, nullptr, &type, reinterpret_cast<BYTE*>(w.data()), &got) != ERROR_SUCCESS || got > bytes ||
      (type != REG_SZ && type != REG_EXPAND_SZ))
    return std::nullopt;
  w.resize(got / sizeof(wchar_t));
  while (!w.empty() && w.back() == L'\0') w.pop_back();
  return narrow(w);
}

}  // namespace cudnnctl::platform::win

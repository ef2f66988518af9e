#include "cudnnctl/platform/environment.hpp"

#include <windows.h>

#include "wide.hpp"

namespace cudnnctl::platform {

std::optional<std::string> ProcessEnvironment::get(const std::string& name) const {
  const auto wname = win::widen(name);
  const DWORD n = GetEnvironmentVariableW(wname.c_str(), nullptr, 0);
  if (n == 0) return std::nullopt;
  std::wstring value(n, L'\0');
  const DWORD got = GetEnvironmentVariableW(wname.c_str(), value.data(), n);
  value.resize(got);
  return win::narrow(value);
}

std::vector<std::string> ProcessEnvironment::names() const {
  std::vector<std::string> out;
  wchar_t* block = GetEnvironmentStringsW();
  for (const wchar_t* p = block; p && *p; p += wcslen(p) + 1) {
    std::wstring kv(p);
    const auto eq = kv.find(L'=', 1);  // "=C:" style entries start with '='
    if (eq != std::wstring::npos) out.push_back(win::narrow(kv.substr(0, eq)));
  }
  if (block) FreeEnvironmentStringsW(block);
  return out;
}

char path_list_separator() { return ';'; }

std::string user_state_dir(const Environment& env) {
  if (const auto x = env.get("LOCALAPPDATA"); x && !x->empty()) return *x;
  return {};
}

} // namespace cudnnctl::platform

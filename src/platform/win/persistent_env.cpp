#include "cudnnctl/platform/persistent_env.hpp"

#include <windows.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "wide.hpp"

namespace cudnnctl::platform {

namespace {

HKEY root_of(EnvScope s) { return s == EnvScope::user ? HKEY_CURRENT_USER : HKEY_LOCAL_MACHINE; }
const wchar_t* key_of(EnvScope s) {
  return s == EnvScope::user ? L"Environment" : L"SYSTEM\\CurrentControlSet\\Control\\Session Manager\\Environment";
}
const char* scope_name(EnvScope s) { return s == EnvScope::user ? "user" : "machine"; }

} // namespace

Result<PersistentValue> read_persistent_env(EnvScope scope, const std::string& name) {
  HKEY key = nullptr;
  LSTATUS rc = RegOpenKeyExW(root_of(scope), key_of(scope), 0, KEY_QUERY_VALUE, &key);
  if (rc != ERROR_SUCCESS)
    return fail(ErrorCode::io, fmt::format("cannot open the {} environment in the registry: {}", scope_name(scope), win::error_text(static_cast<DWORD>(rc))), "");
  PersistentValue out;
  const auto wname = win::widen(name);
  DWORD type = 0, bytes = 0;
  rc = RegQueryValueExW(key, wname.c_str(), nullptr, &type, nullptr, &bytes);
  if (rc == ERROR_FILE_NOT_FOUND) {
    RegCloseKey(key);
    return out;
  }
  std::vector<wchar_t> data(bytes / sizeof(wchar_t) + 1, L'\0');
  if (rc == ERROR_SUCCESS) rc = RegQueryValueExW(key, wname.c_str(), nullptr, &type, reinterpret_cast<BYTE*>(data.data()), &bytes);
  RegCloseKey(key);
  if (rc != ERROR_SUCCESS)
    return fail(ErrorCode::io, fmt::format("cannot read {} from the {} environment: {}", name, scope_name(scope), win::error_text(static_cast<DWORD>(rc))), "");
  std::wstring w(data.data(), bytes / sizeof(wchar_t));
  while (!w.empty() && w.back() == L'\0') w.pop_back();
  out.value = win::narrow(w);
  out.expandable = type == REG_EXPAND_SZ;
  out.exists = true;
  return out;
}

Result<void> write_persistent_env(EnvScope scope, const std::string& name, const PersistentValue& value) {
  HKEY key = nullptr;
  LSTATUS rc = RegOpenKeyExW(root_of(scope), key_of(scope), 0, KEY_SET_VALUE, &key);
  if (rc == ERROR_ACCESS_DENIED)
    return fail(ErrorCode::io, fmt::format("changing the {} environment needs an elevated prompt", scope_name(scope)),
                "run cudnnctl from a terminal opened with 'Run as administrator', or use --scope user; nothing was changed");
  if (rc != ERROR_SUCCESS)
    return fail(ErrorCode::io, fmt::format("cannot open the {} environment in the registry: {}", scope_name(scope), win::error_text(static_cast<DWORD>(rc))), "");
  const auto wname = win::widen(name);
  const auto wvalue = win::widen(value.value);
  rc = RegSetValueExW(key, wname.c_str(), 0, value.expandable ? REG_EXPAND_SZ : REG_SZ, reinterpret_cast<const BYTE*>(wvalue.c_str()),
                      static_cast<DWORD>((wvalue.size() + 1) * sizeof(wchar_t)));
  RegCloseKey(key);
  if (rc != ERROR_SUCCESS)
    return fail(ErrorCode::io, fmt::format("cannot write {} to the {} environment: {}", name, scope_name(scope), win::error_text(static_cast<DWORD>(rc))), "");
  return {};
}

void broadcast_environment_change() {
  DWORD_PTR result = 0;
  SendMessageTimeoutW(HWND_BROADCAST, WM_SETTINGCHANGE, 0, reinterpret_cast<LPARAM>(L"Environment"), SMTO_ABORTIFHUNG, 5000, &result);
}

} // namespace cudnnctl::platform

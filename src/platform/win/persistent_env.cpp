#include "cudnnctl/platform/persistent_env.hpp"

#include <windows.h>

#include <string>
#include <vector>

#include <fmt/format.h>

namespace cudnnctl::platform {

namespace {

std::wstring widen(const std::string& s) {
  if (s.empty()) return {};
  const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
  std::wstring w(static_cast<std::size_t>(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
  return w;
}

std::string narrow(const std::wstring& w) {
  if (w.empty()) return {};
  const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr, nullptr);
  std::string s(static_cast<std::size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr, nullptr);
  return s;
}

std::string last_error_text(LSTATUS code) {
  wchar_t* buf = nullptr;
  FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr,
                 static_cast<DWORD>(code), 0, reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
  std::string text = buf ? narrow(buf) : fmt::format("error {}", code);
  if (buf) LocalFree(buf);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

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
    return fail(ErrorCode::io, fmt::format("cannot open the {} environment in the registry: {}", scope_name(scope), last_error_text(rc)), "");
  PersistentValue out;
  const auto wname = widen(name);
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
    return fail(ErrorCode::io, fmt::format("cannot read {} from the {} environment: {}", name, scope_name(scope), last_error_text(rc)), "");
  std::wstring w(data.data(), bytes / sizeof(wchar_t));
  while (!w.empty() && w.back() == L'\0') w.pop_back();
  out.value = narrow(w);
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
    return fail(ErrorCode::io, fmt::format("cannot open the {} environment in the registry: {}", scope_name(scope), last_error_text(rc)), "");
  const auto wname = widen(name);
  const auto wvalue = widen(value.value);
  rc = RegSetValueExW(key, wname.c_str(), 0, value.expandable ? REG_EXPAND_SZ : REG_SZ, reinterpret_cast<const BYTE*>(wvalue.c_str()),
                      static_cast<DWORD>((wvalue.size() + 1) * sizeof(wchar_t)));
  RegCloseKey(key);
  if (rc != ERROR_SUCCESS)
    return fail(ErrorCode::io, fmt::format("cannot write {} to the {} environment: {}", name, scope_name(scope), last_error_text(rc)), "");
  return {};
}

void broadcast_environment_change() {
  DWORD_PTR result = 0;
  SendMessageTimeoutW(HWND_BROADCAST, WM_SETTINGCHANGE, 0, reinterpret_cast<LPARAM>(L"Environment"), SMTO_ABORTIFHUNG, 5000, &result);
}

} // namespace cudnnctl::platform

#pragma once
// UTF-8 <-> UTF-16 for the Win32 API, and long-path forms (\\?\) so deep toolkit trees work.
#include <windows.h>

#include <string>

namespace cudnnctl::platform::win {

inline std::wstring widen(const std::string& s) {
  if (s.empty()) return {};
  const int n = MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), nullptr, 0);
  std::wstring w(static_cast<std::size_t>(n), L'\0');
  MultiByteToWideChar(CP_UTF8, 0, s.data(), static_cast<int>(s.size()), w.data(), n);
  return w;
}

inline std::string narrow(const std::wstring& w) {
  if (w.empty()) return {};
  const int n = WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), nullptr, 0, nullptr, nullptr);
  std::string s(static_cast<std::size_t>(n), '\0');
  WideCharToMultiByte(CP_UTF8, 0, w.data(), static_cast<int>(w.size()), s.data(), n, nullptr, nullptr);
  return s;
}

/// An absolute path in the \\?\ form (no MAX_PATH limit); relative paths are made absolute first.
inline std::wstring long_path(const std::string& path) {
  std::wstring w = widen(path);
  for (auto& c : w)
    if (c == L'/') c = L'\\';
  if (w.rfind(L"\\\\?\\", 0) == 0) return w;
  wchar_t buf[32768];
  const DWORD n = GetFullPathNameW(w.c_str(), 32768, buf, nullptr);
  if (n == 0 || n >= 32768) return w;
  std::wstring full(buf, n);
  if (full.rfind(L"\\\\", 0) == 0) return L"\\\\?\\UNC\\" + full.substr(2);
  return L"\\\\?\\" + full;
}

/// The text of a Win32 error code.
inline std::string error_text(DWORD code) {
  wchar_t* buf = nullptr;
  FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, nullptr, code, 0,
                 reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
  std::string text = buf ? narrow(buf) : "error " + std::to_string(code);
  if (buf) LocalFree(buf);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text + " (Windows error " + std::to_string(code) + ")";
}

} // namespace cudnnctl::platform::win

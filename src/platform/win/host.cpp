#include "cudnnctl/platform/host.hpp"

#include <windows.h>

#include "wide.hpp"

namespace cudnnctl::platform {

HostPlatform detect_host() {
  HostPlatform h;
  h.os = Os::windows;
  USHORT process = 0, native = 0;
  h.arch = Arch::x86_64;
  using Fn = BOOL(WINAPI*)(HANDLE, USHORT*, USHORT*);
  auto fn = reinterpret_cast<Fn>(
      reinterpret_cast<void*>(GetProcAddress(GetModuleHandleW(L"kernel32.dll"), "IsWow64Process2")));
  if (fn && fn(GetCurrentProcess(), &process, &native) && native == IMAGE_FILE_MACHINE_ARM64) h.arch = Arch::arm64;
  h.description = h.arch == Arch::arm64 ? "Windows arm64" : "Windows x86_64";
  return h;
}

std::optional<std::string> host_glibc_version() { return std::nullopt; }

std::string loaded_library_path(const std::string&) { return {}; }

std::string host_name() {
  wchar_t buf[256];
  DWORD n = sizeof buf / sizeof buf[0];
  if (!GetComputerNameExW(ComputerNameDnsHostname, buf, &n)) return {};
  return win::narrow(std::wstring(buf, n));
}

} // namespace cudnnctl::platform

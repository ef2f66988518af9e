#include "cudnnctl/platform/host.hpp"

#include <sys/utsname.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace cudnnctl::platform {

namespace {

bool file_mentions(const char* path, std::string_view needle) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.find(needle) != std::string::npos) return true;
  return false;
}

} // namespace

HostPlatform detect_host() {
  HostPlatform h;
#if defined(__APPLE__)
  h.os = Os::macos;
#else
  h.os = Os::linux_os;
#endif
  utsname u{};
  std::string machine = "unknown";
  if (uname(&u) == 0) machine = u.machine;
  if (machine == "x86_64" || machine == "amd64") h.arch = Arch::x86_64;
  else if (machine == "ppc64le") h.arch = Arch::ppc64le;
  else if (machine == "aarch64" || machine == "arm64") {
    std::error_code ec;
    h.arch = std::filesystem::exists("/etc/nv_tegra_release", ec) ? Arch::aarch64 : Arch::sbsa;
  }
  h.wsl = file_mentions("/proc/sys/kernel/osrelease", "microsoft") ||
          file_mentions("/proc/sys/kernel/osrelease", "Microsoft") || std::filesystem::exists("/usr/lib/wsl/lib");
  h.description = std::string(h.os == Os::macos ? "macOS " : "Linux ") + machine;
  if (h.arch == Arch::aarch64) h.description += " (Jetson/Tegra)";
  if (h.wsl) h.description += " (WSL2)";
  return h;
}

} // namespace cudnnctl::platform

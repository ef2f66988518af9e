#include "cudnnctl/platform/host.hpp"

#include <link.h>
#include <sys/utsname.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <gnu/libc-version.h>
#endif

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

std::optional<std::string> host_glibc_version() {
#if defined(__GLIBC__)
  return std::string(gnu_get_libc_version());
#else
  return std::nullopt;
#endif
}

std::string loaded_library_path(const std::string& name_prefix) {
  struct Search {
    const std::string* prefix;
    std::string found;
  } search{&name_prefix, {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto* s = static_cast<Search*>(data);
        if (info->dlpi_name == nullptr || *info->dlpi_name == '\0') return 0;
        const std::string path = info->dlpi_name;
        const auto slash = path.rfind('/');
        const std::string file = slash == std::string::npos ? path : path.substr(slash + 1);
        if (file.rfind(*s->prefix, 0) != 0) return 0;
        s->found = path;
        return 1;
      },
      &search);
  return search.found;
}

std::string host_name() {
  char buf[256] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return {};
  return buf;
}

} // namespace cudnnctl::platform

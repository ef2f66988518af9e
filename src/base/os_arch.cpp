#include "cudnnctl/base/os_arch.hpp"

namespace cudnnctl {

std::string_view to_string(Os os) {
  switch (os) {
  case Os::linux_os: return "linux";
  case Os::windows: return "windows";
  case Os::macos: return "macos";
  }
  return "?";
}

std::string_view to_string(Arch arch) {
  switch (arch) {
  case Arch::x86_64: return "x86_64";
  case Arch::sbsa: return "sbsa";
  case Arch::aarch64: return "aarch64";
  case Arch::ppc64le: return "ppc64le";
  case Arch::arm64: return "arm64";
  }
  return "?";
}

} // namespace cudnnctl

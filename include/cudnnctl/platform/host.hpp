#pragma once
// What machine cudnnctl runs on, in the terms cuDNN archives use.
#include <string>

#include "cudnnctl/base/os_arch.hpp"

namespace cudnnctl::platform {

struct HostPlatform {
  Os os = Os::linux_os;
  Arch arch = Arch::x86_64;  // ARM64 Linux reads as sbsa, or aarch64 on Jetson (Tegra)
  bool wsl = false;          // Linux under Windows Subsystem for Linux
  std::string description;   // e.g. "Linux x86_64 (WSL2)"
};

/// Detects the running machine. Never fails: unknown parts fall back to the build's target.
HostPlatform detect_host();

} // namespace cudnnctl::platform

#pragma once
// What machine cudnnctl runs on, in the terms cuDNN archives use.
#include <optional>
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

/// The C library's version ("2.36", from gnu_get_libc_version); nullopt where the C library is not glibc
/// (musl, Windows).
std::optional<std::string> host_glibc_version();

/// The path of a library this process has loaded whose file name starts with `name_prefix`
/// ("libstdc++.so.6"), from the loader's own list (dl_iterate_phdr); empty when none (or on Windows).
std::string loaded_library_path(const std::string& name_prefix);

/// This machine's host name as the system reports it (gethostname; Windows: the DNS host name); empty when
/// it cannot be read. What a fleet's documents name a node by (doctor --json's "host").
std::string host_name();

} // namespace cudnnctl::platform

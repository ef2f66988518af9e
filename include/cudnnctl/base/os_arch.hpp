#pragma once
// Operating systems and processor architectures as cuDNN archives name them.
#include <string_view>

namespace cudnnctl {

enum class Os { linux_os, windows, macos };

enum class Arch {
  x86_64,
  sbsa,     // server ARM64 (Grace, Graviton, Ampere Altra): NVIDIA's "linux-sbsa"
  aarch64,  // Jetson / Tegra only: NVIDIA's "linux-aarch64"
  ppc64le,
  arm64,    // Windows on ARM64: NVIDIA's "windows-arm64"
};

std::string_view to_string(Os os);
std::string_view to_string(Arch arch);

} // namespace cudnnctl

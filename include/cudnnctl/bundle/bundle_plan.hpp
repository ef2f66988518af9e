#pragma once
// What a swap of a bundle with an archive's libraries would do, or why it is refused. Pure: no disk.
#include <string>
#include <vector>

#include "cudnnctl/bundle/bundle.hpp"

namespace cudnnctl {

/// What the archive brings, read from its name and its extracted libraries.
struct ArchiveLibraries {
  Os os = Os::linux_os;
  std::vector<std::string> files;  // loader names (libcudnn_ops.so.9, cudnn_ops64_9.dll)
  std::string version;             // "9.10.2.21"
  unsigned cuda_major = 0;
  std::string arch;                // of its main library, named like Bundle::arch
};

struct SwapPlan {
  std::vector<std::string> set_aside;  // every cuDNN file of the bundle
  std::vector<std::string> place;      // every library of the archive
  std::vector<std::string> added;      // those the bundle did not have (a newer release's new sub-libraries)
};

/// Refuses (bundle.refused, with the reason in words): a bundle without cuDNN, an archive without
/// libraries for the bundle's OS, another cuDNN major, another CUDA major than the bundle's consumer,
/// another architecture, an older version (or an unknown one) unless `allow_downgrade`.
Result<SwapPlan> plan_swap(const Bundle& b, const ArchiveLibraries& a, bool allow_downgrade);

} // namespace cudnnctl

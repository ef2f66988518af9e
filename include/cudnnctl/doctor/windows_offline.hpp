#pragma once
// The doctor's layers 2-4 for a Windows toolkit read from files alone (a disk mounted on Linux, a VM
// image, a CI artifact): version resources of the cuDNN DLLs, every import resolved along the folders
// Windows would search, the DLLs cuDNN opens by name, and the driver's nvcuda.dll in System32.
// Nothing is loaded.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/doctor/file_snapshot.hpp"
#include "cudnnctl/env/shadow_scan.hpp"

namespace cudnnctl {

struct OfflineWindows {
  std::string dll_dir;                    // the toolkit's DLL folder (bin or bin/x64), a local path
  std::vector<std::string> toolkit_bins;  // the toolkit's bin and bin/x64 that exist, local paths
  std::optional<std::string> system32;    // that machine's System32, a local path (--system32 or mapped)
  std::vector<SearchDir> path;            // PATH entries: dir as written there, local where it is here (empty: not reachable)
  unsigned cudnn_major = 9;
  std::string cuda_major;                 // "12"
  std::string header_version;             // "9.1.0" from cudnn_version.h; empty when unknown
  std::optional<std::vector<SearchDir>> order;  // that machine's whole search order, when its PATH is known
  FileSnapshot files;                     // the folders above listed, the cuDNN DLLs and nvcuda.dll read (gather_windows.cpp)
};

/// Layer 2 `files.versions` for Windows: every cuDNN DLL's version resource, mixed releases, and the header.
Check windows_dll_versions(const std::string& dll_dir, unsigned major, const std::string& header_version, const FileSnapshot& files);

/// Layer 3: `loader.needed`, every import of the cuDNN DLLs along the folders Windows searches.
std::vector<Check> windows_loader_needed(const OfflineWindows& in);
/// Layer 3: `loader.runtime_deps`, the DLLs cuDNN opens by name (cuBLASLt, NVRTC, zlibwapi for cuDNN 8).
std::vector<Check> windows_loader_runtime_deps(const OfflineWindows& in);

/// Layer 4 offline: `driver.library` (nvcuda.dll in System32) and `driver.version` against NVIDIA's minimum.
std::vector<Check> windows_offline_driver(const OfflineWindows& in, const std::string& min_driver_windows);

/// nvcuda.dll's file version -> the driver version NVIDIA shows: "32.0.15.5222" -> "552.22" (the last five
/// digits of the last two fields). Empty when it is not of that form.
std::string windows_driver_version(const std::string& nvcuda_file_version);

} // namespace cudnnctl

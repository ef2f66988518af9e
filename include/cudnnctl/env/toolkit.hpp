#pragma once
// Finding CUDA toolkits and reading what they are: version, target platform (a Windows toolkit tree
// can be prepared from Linux), and the folders cuDNN's files belong in.
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

struct Toolkit {
  std::string root;          // as found (not resolved), e.g. /usr/local/cuda
  std::string version;       // major.minor, e.g. "13.0"; empty when unreadable
  std::string version_source;// "version.json", "version.txt", "include/cuda.h"
  Os os = Os::linux_os;      // what the tree is for, read from its layout
  std::string dll_dir;       // Windows: bin or bin/x64 (CUDA 13 keeps its DLLs there); Linux: empty
  std::string lib_dir;       // Linux: lib64 (or the folder it links to); Windows: lib/x64
  std::string include_dir;   // include
  std::string found_by;      // --cuda-path, CUDA_PATH, CUDA_PATH_V12_4, CUDA_HOME, nvcc on PATH, default location

  std::string major() const { return version.substr(0, version.find('.')); }

  // The facts every command reads off a toolkit, worked out here once:
  /// The folder its runtime libraries are loaded from, relative to root: the DLL folder on Windows (bin,
  /// or bin/x64 where CUDA 13 keeps its DLLs; bin when neither holds one yet), lib_dir on Linux.
  std::string runtime_dir() const;
  /// runtime_dir() under root ("<root>/lib64", "<root>/bin/x64"), as found (not resolved).
  std::string runtime_library_dir() const;
  /// The CUDA major of `version` (13 for "13.0"); nullopt when the version was unreadable.
  std::optional<unsigned> cuda_major() const;
  /// The folders, relative to root, an install writes cuDNN files to or removes stale ones from: include,
  /// lib_dir, the DLL folder, and on Windows also bin (older cuDNN DLLs there shadow bin/x64's on CUDA 13).
  std::vector<std::string> install_dirs() const;
};

/// The folders a Windows toolkit at `root` (a Windows path, e.g. %CUDA_PATH%) may keep DLLs in, as Windows
/// paths: root\bin, root\bin\x64, root\bin\arm64 (contract/layout's windows_dll_dirs), whether or not they exist.
std::vector<std::string> windows_toolkit_dll_dirs(const std::string& root);

/// Reads a toolkit tree. Errors when `root` is not a CUDA toolkit (no include/cuda.h, no version file).
Result<Toolkit> read_toolkit(const std::string& root, const std::string& found_by);

/// Every toolkit the environment names, in precedence order, without duplicates (same folder after
/// resolving links): --cuda-path, CUDA_PATH, CUDA_PATH_V<maj>_<min>, CUDA_HOME, the folder above nvcc
/// on PATH, then the usual places (Windows: %ProgramFiles%\NVIDIA GPU Computing Toolkit\CUDA\v*;
/// Linux: /usr/local/cuda, /usr/local/cuda-*, /opt/cuda). `default_roots` replaces the usual places (tests).
std::vector<Toolkit> find_toolkits(const platform::Environment& env, const std::optional<std::string>& cuda_path,
                                   std::vector<std::string>* notes = nullptr,
                                   const std::optional<std::vector<std::string>>& default_roots = std::nullopt);

struct ToolkitChoice {
  std::optional<Toolkit> toolkit;
  std::string reason;  // which and why, in words
};

/// Picks the toolkit to use: the one --cuda-path names; else, when `cuda_major` is given, the first
/// toolkit of that major; else the first found.
ToolkitChoice choose_toolkit(const std::vector<Toolkit>& toolkits, const std::optional<std::string>& cuda_major);

} // namespace cudnnctl

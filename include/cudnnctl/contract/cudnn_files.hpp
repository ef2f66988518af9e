#pragma once
// What cuDNN's files on disk say about themselves: the version macros of cudnn_version.h and the
// loader names of its libraries (libcudnn_ops.so.9, libcudnn.so.9.19.0, cudnn_ops64_9.dll). The one
// owner of these patterns; contract/layout owns the names NVIDIA ships.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/os_arch.hpp"

namespace cudnnctl {

struct CudnnHeaderVersion {
  unsigned major = 0, minor = 0, patch = 0;
  std::string text() const;  // "9.19.0"
  friend bool operator==(const CudnnHeaderVersion&, const CudnnHeaderVersion&) = default;
};

/// CUDNN_MAJOR / CUDNN_MINOR / CUDNN_PATCHLEVEL from a header's text; nullopt unless all three are there.
std::optional<CudnnHeaderVersion> parse_version_header(std::string_view text);

/// The headers that may carry the version macros, in the order they are read (cuDNN 7 keeps them in cudnn.h).
const std::vector<std::string>& version_header_names();

struct CudnnFile {
  std::string sub_library;     // "cudnn", "cudnn_ops", "cudnn_adv_infer"
  unsigned major = 0;
  std::string full_version;    // "9.19.0" for libcudnn_ops.so.9.19.0 (what follows ".so."), empty for the loader name
  bool main() const { return sub_library == "cudnn"; }
  bool graph() const { return sub_library == "cudnn_graph"; }  // cuDNN 9's first sub-library: the others load through it
  /// A sub-library only cuDNN 8 has (ops_infer, ops_train, cnn_infer, cnn_train, adv_infer, adv_train):
  /// no cuDNN 9 file has this name, so installing 9 never satisfies a program asking for it.
  bool cudnn8_only() const { return sub_library.ends_with("_infer") || sub_library.ends_with("_train"); }
};

/// A cuDNN library file name for `os` (Linux libcudnn*.so.N[.M.P], Windows cudnn*64_N.dll, any case);
/// nullopt for anything else (cudnn_frontend.h, libcudnn.so, zlibwapi.dll).
std::optional<CudnnFile> classify_cudnn_file(std::string_view name, Os os);

/// True for every file of a cuDNN release on `os`, whatever its sub-library: the headers (cudnn.h,
/// cudnn_<name>.h, cudnn_<name>_v9.h) and the libraries of the platform's pattern (Linux
/// libcudnn[_<name>].so[.N...] and libcudnn[_<name>][_static][_vN].a; Windows cudnn[_<name>]64_N.dll,
/// cudnn[_<name>].lib, cudnn[_<name>]64_N.lib; any case). Not cudnn-frontend's headers
/// (cudnn_frontend*.h, cudnn_backend_base.h), notes, or anything else that merely starts with "cudnn".
/// The installer's stale rule and the doctor's receipt check both ask this.
bool is_cudnn_release_file(std::string_view name, Os os);

/// The loader names of cuDNN's libraries of one major among `names` (libcudnn_*.so.N / cudnn_*64_N.dll, the
/// main library excluded), graph and ops first (the others need them), then by name.
std::vector<std::string> cudnn_sub_library_files(const std::vector<std::string>& names, unsigned major, Os os);

/// A library cuDNN opens by name at run time (dlopen / LoadLibrary), not through its import table.
struct RuntimeDependency {
  std::string file;       // "libcublasLt.so.12", "nvrtc64_120_0.dll"
  std::string needed_by;  // in words: "cudnn_adv and the precompiled engines"
};

/// What cuDNN `cudnn_major` opens by name on `os` beside a CUDA `cuda_major` toolkit (0: unknown, then only what
/// does not depend on it): cuBLASLt and NVRTC of that CUDA major; cuDNN 8 on Linux opens the unversioned
/// libnvrtc.so, and on Windows needs zlibwapi.dll.
std::vector<RuntimeDependency> cudnn_runtime_dependencies(Os os, unsigned cudnn_major, unsigned cuda_major);

/// The cuDNN DLLs (and zlibwapi.dll) among a folder's names, sorted.
std::vector<std::string> cudnn_dll_names(const std::vector<std::string>& names);

/// NVRTC's DLL of a CUDA major: nvrtc64_112_0.dll for every CUDA 11, nvrtc64_<major>0_0.dll after.
std::string windows_nvrtc_dll(unsigned cuda_major);

} // namespace cudnnctl

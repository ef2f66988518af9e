#pragma once
// The library files a message names, each classified: which cuDNN sub-library and major (through the
// contract's classify_cudnn_file), cuBLAS/cuBLASLt, cudart, NVRTC and its builtins with their CUDA major,
// the driver (libcuda/nvcuda), zlibwapi, or a framework's own library; and the OS its name belongs to.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/os_arch.hpp"
#include "cudnnctl/contract/cudnn_files.hpp"

namespace cudnnctl {

enum class LibraryFamily { cudnn, cublas, cublaslt, cudart, nvrtc, nvrtc_builtins, driver, zlibwapi, framework, other };

struct LibraryMention {
  std::string file;            // as written: libcudnn_ops_infer.so.8, cublas64_12.dll
  std::string path;            // the folder the message gives before it ('/' or '\' kept), may be empty
  LibraryFamily family = LibraryFamily::other;
  Os os = Os::linux_os;
  unsigned major = 0;          // cuDNN's major for cuDNN files, CUDA's major for CUDA libraries; 0: the name does not say
  std::optional<CudnnFile> cudnn;  // the contract's reading of a cuDNN file
  std::string described() const;  // "cuDNN 8's cnn_infer sub-library", "cuBLASLt of CUDA 12", "the NVIDIA driver's libcuda"
  bool cuda_library() const;  // cuBLAS, cuBLASLt, cudart, NVRTC or its builtins
};

/// A library file name classified (no folder in it), or nullopt when it is not a shared library name.
std::optional<LibraryMention> library_mention_of(std::string_view file);

/// Every library file a line names, in order, each once (the first spelling of a family and major).
std::vector<LibraryMention> libraries_in(std::string_view line);

} // namespace cudnnctl

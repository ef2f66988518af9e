#pragma once
// What a library file is by its name (an ELF shared object "libcudnn.so.9", a Windows "cudnn64_9.dll"), and
// a folder's libraries with the GPU code each carries: the one predicate and the one folder scan that
// install's GPU-code gate, `gpu-code`, the toolkit discovery and trace's library facts use.
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"

namespace cudnnctl {

/// True for a shared-library file name ("libcudnn.so.9", "libcudnn_ops.so.9.19.0"), not for "libfoo.a".
bool is_shared_library_name(const std::string& file_name);

/// True for a Windows library's file name ("cudnn_ops64_9.dll", any case).
bool is_dll_name(const std::string& file_name);

/// True for either: the name of a library a loader could map (ELF .so or PE .dll).
bool is_library_file_name(const std::string& file_name);

/// A folder's libraries (UTF-8 paths of regular files with a library's name; links left out, their targets
/// are listed), sorted. An unreadable or missing folder holds none.
std::vector<std::string> library_files_in(const std::string& folder);

struct FolderLibraryCode {
  std::string path;       // as library_files_in lists it
  Result<GpuCode> code;   // the fat binaries read from its headers, or why they could not be
};

/// Every library of the folder (library_files_in) with the GPU code it carries, in that order.
std::vector<FolderLibraryCode> read_folder_gpu_code(const std::string& folder);

} // namespace cudnnctl

#pragma once
// Where the members of an archive sit, per naming era and platform (cudnn-facts.md section 2-3).
#include <string>
#include <vector>

#include "cudnnctl/contract/archive_name.hpp"

namespace cudnnctl {

struct ExpectedLayout {
  std::string top_folder;          // every member sits under it
  std::string include_dir;         // paths relative to the archive root, '/'-separated
  std::string library_dir;         // Linux: shared libraries; Windows: DLLs
  std::string import_library_dir;  // Windows import libraries (.lib); empty on Linux
  std::string license_file;
  std::vector<std::string> sub_libraries;     // base names: cudnn, cudnn_ops, ...
  std::vector<std::string> library_files;     // what the loader looks for: cudnn64_9.dll / libcudnn.so.9
  std::vector<std::string> headers;           // the headers every archive of this major has
  std::vector<std::string> notes;
};

/// The layout NVIDIA used for archives of this name's era, version and platform.
ExpectedLayout expected_layout(const ArchiveName& name);

/// The names cuDNN's libraries carry for a major version (7: cudnn only; 8: *_infer/_train; 9: graph,
/// engines, ...). Newer 9.x releases may add more (engines_tensor_ir, ext): the archive is the authority.
std::vector<std::string> sub_library_names(unsigned major);

/// File name the loader opens for a sub-library: cudnn_ops64_9.dll or libcudnn_ops.so.9.
std::string library_file_name(Os os, std::string_view sub_library, unsigned major);

} // namespace cudnnctl

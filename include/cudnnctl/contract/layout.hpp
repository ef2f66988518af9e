#pragma once
// Where the members of an archive sit, per naming era and platform (cudnn-facts.md section 2-3).
#include <cstdint>
#include <string>
#include <string_view>
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

/// A Windows machine cuDNN and CUDA ship for, one row each (adding a machine is a row in layout.cpp): the
/// archive platform's arch, the folder its files sit in under bin\ and lib\ (bin\x64 from CUDA 13 and cuDNN
/// 9.18; bin\arm64 for Windows on Arm, cuDNN 9.27 on) and the PE machine of its DLLs.
struct WindowsMachine {
  Arch arch;
  std::string_view folder;  // "x64", "arm64"
  std::uint16_t pe_machine; // IMAGE_FILE_MACHINE_AMD64 0x8664, _ARM64 0xAA64
};
const std::vector<WindowsMachine>& windows_machines();
/// The row of `arch` (x86_64 for any arch that has none).
const WindowsMachine& windows_machine(Arch arch);
/// The folders a Windows CUDA toolkit or cuDNN tree keeps its DLLs in, '/'-separated, the machine folders
/// first: bin/x64, bin/arm64, then bin (CUDA 12 and earlier, cuDNN before 9.18).
std::vector<std::string> windows_dll_dirs();
/// The machine a Windows DLL folder (one of windows_dll_dirs(), any case and separator) stands for: bin/arm64
/// the ARM64 row, bin/x64 and bin the x64 row.
const WindowsMachine& windows_machine_of_dll_dir(std::string_view dll_dir);
/// The import-library folder of a Windows toolkit of that machine: lib/x64, lib/arm64.
std::string windows_lib_dir(const WindowsMachine& machine);

/// The layout NVIDIA used for archives of this name's era, version and platform.
ExpectedLayout expected_layout(const ArchiveName& name);

/// The names cuDNN's libraries carry for a major version (7: cudnn only; 8: *_infer/_train; 9: graph,
/// engines, ...). Newer 9.x releases may add more (engines_tensor_ir, ext): the archive is the authority.
std::vector<std::string> sub_library_names(unsigned major);
/// The same for one release: 9.20 adds cudnn_engines_tensor_ir, 9.22 cudnn_ext (sorted; a version of one part: by major).
std::vector<std::string> sub_library_names(const Version& version);

/// The sub-libraries a cuDNN release ships (its loader names' base names): sub_library_names of that major.minor
/// (cudnn_engines_tensor_ir from 9.20, cudnn_ext from 9.22). `minor` of the release ("9.21.0" -> 21).
std::vector<std::string> release_sub_libraries(unsigned major, unsigned minor);

/// File name the loader opens for a sub-library: cudnn_ops64_9.dll or libcudnn_ops.so.9.
std::string library_file_name(Os os, std::string_view sub_library, unsigned major);

} // namespace cudnnctl

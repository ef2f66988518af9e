#pragma once
// What an archive's libraries say about themselves, read in one pass over the archive without writing
// anything: the glibc / libstdc++ floor of its Linux libraries (library_floor.hpp) and the GPU code of
// every library, Linux or Windows (loader/fatbin_stream.hpp: each member is decompressed once and its fat
// binaries' entry headers read on the way; nothing is kept but headers).
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/install/library_floor.hpp"
#include "cudnnctl/loader/fatbin_reader.hpp"
#include "cudnnctl/loader/library_files.hpp"  // is_dll_name, is_library_file_name (the names of the members read)

namespace cudnnctl {

struct ArchiveLibraryGpuCode {
  std::string name;             // the member's file name ("libcudnn_ops.so.9.19.0", "cudnn_ops64_9.dll")
  std::optional<GpuCode> code;  // empty: unreadable (why)
  std::string unreadable;
};

struct ArchiveLibraryFacts {
  LibraryFloorReport floor;
  std::vector<ArchiveLibraryGpuCode> gpu_code;  // in archive order
};

/// Every regular-file library member of the archive (ELF shared objects and DLLs).
Result<ArchiveLibraryFacts> read_archive_libraries(const std::string& path, ArchiveFormat format);

} // namespace cudnnctl

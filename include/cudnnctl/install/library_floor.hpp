#pragma once
// The glibc / libstdc++ floor of the Linux libraries in a cuDNN archive or an installed folder, read from
// each library's version-needed table (loader/glibc_floor.hpp). An archive's members are decompressed up
// to their dynamic section and string table only; nothing is written.
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/loader/glibc_floor.hpp"
#include "cudnnctl/loader/library_files.hpp"  // is_shared_library_name

namespace cudnnctl {

struct LibraryFloorReport {
  LibraryFloor floor;
  std::vector<std::string> unreadable;  // "name: why"
  std::vector<std::string> machines;    // distinct ELF machines seen ("x86_64")
};

/// Adds one library's ELF reading to the report (an error: the library is listed as unreadable).
void note_library_floor(LibraryFloorReport& report, const std::string& name, const Result<ElfDynamicInfo>& elf);

/// Every regular-file shared library in the archive (Windows zips have none: an empty floor).
Result<LibraryFloorReport> archive_library_floor(const std::string& path, ArchiveFormat format);

/// Every regular-file shared library directly inside `folder` (symbolic links are read once, as their targets).
LibraryFloorReport folder_library_floor(const std::string& folder);

/// install.host-too-old (exit 7) when the floor is above the host's, naming each family, the library that
/// needs it and what to do; ok when it fits or the host's versions are unknown.
Result<void> check_library_floor(const LibraryFloorReport& report, const HostSymbolVersions& host, const std::string& archive);

} // namespace cudnnctl

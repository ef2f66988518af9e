#pragma once
// One listing type for zip and tar archives: what each member is, before anything is written.
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/contract/archive_name.hpp"

namespace cudnnctl {

enum class EntryType { file, directory, symlink, hardlink, other };
std::string_view to_string(EntryType t);

struct ArchiveEntry {
  std::string name;            // UTF-8, as stored ('/' separated in well-formed archives)
  EntryType type = EntryType::file;
  std::uint64_t size = 0;            // declared uncompressed size
  std::uint64_t compressed_size = 0; // zip only; 0 for tar members
  std::uint32_t mode = 0644;
  std::string link_target;     // symlink or hard-link target
  std::uint64_t index = 0;     // position in the archive (zip index / tar order)
  std::uint32_t crc32 = 0;     // zip only
};

struct ArchiveListing {
  ArchiveFormat format = ArchiveFormat::zip;
  std::vector<ArchiveEntry> entries;
};

} // namespace cudnnctl

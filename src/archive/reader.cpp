#include "cudnnctl/archive/reader.hpp"

#include "cudnnctl/archive/sniff.hpp"

namespace cudnnctl {

std::string_view to_string(EntryType t) {
  switch (t) {
  case EntryType::file: return "file";
  case EntryType::directory: return "directory";
  case EntryType::symlink: return "symlink";
  case EntryType::hardlink: return "hardlink";
  case EntryType::other: return "other";
  }
  return "other";
}

Result<ArchiveListing> list_archive(const std::string& path, ArchiveFormat format, const ReadOptions& options) {
  CUDNNCTL_TRY(check_is_archive(path, format));
  return format == ArchiveFormat::zip ? list_zip(path, options) : list_tar(path, format, options);
}

Result<void> visit_members(const std::string& path, ArchiveFormat format, const std::function<bool(const ArchiveEntry&)>& want,
                           const MemberVisit& visit, const ReadOptions& options) {
  if (format == ArchiveFormat::zip) return visit_zip_members(path, want, visit, options);
  return visit_tar_members(path, format, want, visit, options);
}

Result<ExtractResult> extract_archive(const std::string& path, ArchiveFormat format, const std::string& staging_dir,
                                      const ExtractOptions& options) {
  // a file still arriving is not sniffed (its first bytes may not be there): the caller judges its hash
  if (!options.read.arriving) {
    CUDNNCTL_TRY(check_is_archive(path, format));
  }
  return format == ArchiveFormat::zip ? extract_zip(path, staging_dir, options) : extract_tar(path, format, staging_dir, options);
}

} // namespace cudnnctl

#pragma once
// Extraction into a new folder: the members go into a staging folder beside it (same volume), which is
// renamed into place only when the hash matched and every member was written. Nothing is ever written
// over existing files; on any failure neither the folder nor the staging folder is left behind.
#include <string>
#include <vector>

#include "cudnnctl/archive/verified_extract.hpp"

namespace cudnnctl {

struct FolderExtraction {
  std::string folder;  // the absolute path the members are now under
  VerifiedExtraction result;
};

/// Verifies and extracts `archive` into `folder`, which must not exist or be an empty folder.
/// Fails with ErrorCode::io when `folder` is something else, or when the staging folder cannot be
/// created or renamed; verification and extraction errors are verify_and_extract's.
Result<FolderExtraction> extract_to_new_folder(const std::string& archive, ArchiveFormat format, const std::vector<ExpectedHash>& expected,
                                               bool allow_unverified, const std::string& folder, const ExtractOptions& options);

/// The staging folder for `folder`: a sibling named "<folder>.cudnnctl-staging-<unique id>".
std::string staging_folder_for(const std::string& folder);

} // namespace cudnnctl

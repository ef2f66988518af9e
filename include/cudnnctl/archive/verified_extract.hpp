#pragma once
// Hashing and extraction overlapped: the SHA-256 is computed while members inflate into staging (for a
// zip as one of the extraction workers' jobs, for a tar stream on a thread of its own). Nothing may leave
// staging unless the hash matched; on a mismatch the caller's staging folder is removed here.
#include <string>
#include <vector>

#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/archive/verify.hpp"
#include "cudnnctl/base/sha256.hpp"

namespace cudnnctl {

struct VerifiedExtraction {
  VerifyOutcome verify;
  ExtractResult extract;
};

Result<VerifiedExtraction> verify_and_extract(const std::string& path, ArchiveFormat format,
                                              const std::vector<ExpectedHash>& expected, bool allow_unverified,
                                              const std::string& staging_dir, const ExtractOptions& options,
                                              const ProgressFn& hash_progress = {});

} // namespace cudnnctl

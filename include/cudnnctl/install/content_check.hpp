#pragma once
// The archive's content must agree with its name: CUDNN_MAJOR/MINOR/PATCHLEVEL in the headers, and the
// major version every library file name carries.
#include <string>

#include "cudnnctl/archive/listing.hpp"
#include "cudnnctl/base/error.hpp"
#include "cudnnctl/contract/archive_name.hpp"

namespace cudnnctl {

/// `header_text` is the content of cudnn_version.h (or cudnn.h for cuDNN 7), empty when the archive has neither.
Result<void> check_content(const ArchiveName& name, const ArchiveListing& listing, const std::string& header_text);

} // namespace cudnnctl

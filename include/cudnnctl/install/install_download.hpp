#pragma once
// install VERSION: the archive inflates into the installer's private staging folder while it downloads.
// The download (several range requests, the end of a zip first) reports the bytes on the disk; the
// extraction reads the growing `.part` file through a wait for each range it needs (zip members in archive
// order, a tar.xz as its prefix grows). Nothing leaves staging unless the download's own SHA-256, taken in
// order as the bytes arrive, matches the catalog: the archive's bytes are hashed once. A failed download
// keeps its `.part` file and sidecar to resume; a mismatch removes it (fetch_archive); the installer drops
// the staging folder on any error. When what was read was dropped meanwhile (the file changed on the
// server and the download began again) or the extraction beside it failed, the verified file is extracted
// again once it is complete. An archive already in the cache takes the plain path (verify and extract).
#include <functional>
#include <string>
#include <vector>

#include "cudnnctl/archive/verified_extract.hpp"
#include "cudnnctl/fetch/fetch.hpp"

namespace cudnnctl {

/// Runs one fetch (fetch_for, or fetch_archive in tests) with the request's reader hooks filled in.
using ArchiveFetch = std::function<Result<FetchOutcome>(FetchRequest)>;
/// What InstallRequest::extract is given.
using StagingFill = std::function<Result<VerifiedExtraction>(const std::string& staging, const ExtractOptions& options)>;

/// The installer's extraction step for an archive still to be fetched: `fetched` hears where it came from.
StagingFill extract_while_downloading(FetchRequest request, ArchiveFetch fetch, ArchiveFormat format, std::vector<ExpectedHash> expected,
                                      std::function<void(const FetchOutcome&)> fetched = {});

} // namespace cudnnctl

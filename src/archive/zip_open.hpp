#pragma once
// libzip plumbing shared by the zip reader's listing and extraction: opening an archive through a
// read-ahead source, libzip's error texts, and short members (link targets). Internal to src/archive.
#include <zip.h>

#include <cstdint>
#include <memory>
#include <string>

#include "cudnnctl/archive/reader.hpp"
#include "cudnnctl/base/error.hpp"

namespace cudnnctl::zip_detail {

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
using ZipPtr = std::unique_ptr<zip_t, ZipCloser>;

/// libzip's words for an error code.
std::string zip_error_text(int code);
/// Opens `path` read-only; a truncated, inconsistent or unreadable zip is an error naming the file and the fix.
/// A file still `arriving` is read as it arrives: each read waits for its bytes.
Result<ZipPtr> open_zip(const std::string& path, const ArrivingInput& arriving = {});
/// A member of at most 4096 bytes (a link's target), whole.
Result<std::string> read_small_member(zip_t* z, zip_uint64_t index, std::uint64_t size, const std::string& path, const std::string& name);

} // namespace cudnnctl::zip_detail

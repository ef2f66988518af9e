#pragma once
// A whole file read from its start in pieces, for the digests that stream it (sha256_file, crc32_file): the
// file never sits in memory, and every reader of a file's bytes opens and fails the same way.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// Called with (bytes done, bytes total) while a file is read; total is 0 when unknown.
using ProgressFn = std::function<void(std::uint64_t, std::uint64_t)>;

/// Hands the file's bytes to `take` in order, 256 KiB at a time, and returns how many there were. Errors
/// name the file: it cannot be opened (file_not_found when it is missing), or a read failed part-way.
Result<std::uint64_t> read_file_chunks(const std::string& path, const std::function<void(const char*, std::size_t)>& take,
                                       const ProgressFn& progress = {});

} // namespace cudnnctl

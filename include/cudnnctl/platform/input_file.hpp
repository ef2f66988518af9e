#pragma once
// The one way cudnnctl reads a file named on its command line (--catalog, --sha256-file, --path-file,
// the <archive>.sha256 sidecar, ...): regular files only (a FIFO, a device, a folder or a socket is
// refused at once, without blocking on it), and never more than a cap, so /dev/zero cannot eat the memory.
#include <cstdint>
#include <string>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

/// The cap unless a caller names another: far above any catalog or checksum file cudnnctl reads.
constexpr std::uint64_t k_input_file_max = 64ull << 20;

/// Reads the whole of `path`. `what` names the input in messages ("the release catalog (--catalog)").
/// Errors: io.not-found when it is missing or a dangling link, input.invalid when it is not a regular
/// file or is larger than `max_bytes`, io.error for other failures.
Result<std::string> read_input_file(const std::string& path, const std::string& what, std::uint64_t max_bytes = k_input_file_max);

/// Checks that `path` is a regular file without opening it (a FIFO is never waited on); same errors.
Result<void> require_regular_file(const std::string& path, const std::string& what);

/// The error for a name that leads nowhere: "does not exist", or, for a link whose target is missing,
/// "is a dangling symbolic link to T". `what` may be empty ("'x' does not exist").
Error missing_file_error(const std::string& path, const std::string& what, const std::string& hint);

} // namespace cudnnctl::platform

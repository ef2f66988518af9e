#pragma once
// One file over several HTTP range requests at once, into a `.part` file written at offsets, with the
// SHA-256 taken over the contiguous prefix as it grows (in order, while the rest still arrives), resumable
// through the sidecar `<part>.state` (download_state.hpp). A server that does not honour ranges gets one
// connection for the whole body. The caller compares the hash; nothing here keeps a file as valid.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/fetch/range_plan.hpp"

namespace cudnnctl {

struct ParallelDownload {
  std::string url;
  std::string part_path;                      // the sidecar is part_path + ".state"
  std::optional<std::uint64_t> expected_size;  // the catalog's size: another total is refused
  // Without expected_size: the most bytes the file may have (catalog/download_cap.hpp). A larger size
  // announced (Content-Length, Content-Range's total) is refused before its body; a body without a length
  // is cut at the cap and refused (download.too-large).
  std::uint64_t size_cap = 4ull << 30;
  int connections = 0;                        // 0: adaptive (up to 8, never more than chunks)
  std::uint64_t chunk_size = 8ull << 20;      // the bytes one range request asks for
  int retries_per_range = 3;                  // a dropped connection or a short answer: ask for the rest again
  int stall_timeout_s = 60;
  std::function<void(std::uint64_t, std::uint64_t)> progress;  // (bytes present, total); serialised
  bool tail_first = false;  // the last range is asked right after the first (a zip's central directory is at its end)
  // For a reader of the growing file: called (serialised, under the download's lock) with the bytes on the
  // disk each time they grow, and with an empty set when bytes reported before are dropped (a restart).
  std::function<void(const ExtentSet&)> on_extents;
};

struct DownloadOutcome {
  std::string sha256;         // of the whole .part file, bytes 0..total-1 in order
  std::uint64_t bytes = 0;    // the file's size
  std::string effective_url;  // where the first answer came from (after redirects); every range asked there
  int connections = 1;        // connections used at most
  bool ranges = false;        // the server honoured range requests
  bool resumed = false;       // bytes of an earlier run were kept
  int restarts = 0;           // 1: the file changed on the server and the download began again
};

/// The sidecar's path for a `.part` file.
std::string download_state_path(const std::string& part_path);

/// Downloads `request.url` into `request.part_path`. On success the sidecar is gone and the `.part` file
/// holds the whole body. On a failure of the transport (cut, stalled, an HTTP error) the `.part` file and its
/// sidecar stay for the next run to resume; when the server lied (more bytes than it announced, another size
/// than the catalog's, a file that changed twice during the download), went past `size_cap` or redirected
/// too often or off https, both are removed: nothing it sent is resumed from.
Result<DownloadOutcome> download_parallel(const ParallelDownload& request);

} // namespace cudnnctl

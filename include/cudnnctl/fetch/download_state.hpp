#pragma once
// The sidecar beside a download's `.part` file (`<part>.state`): what the server said the file is (its
// validators) and which bytes of the `.part` file have arrived. Written by cudnnctl, read as hostile: a
// strict format, every number bounded by the total, anything unknown -> no state (the download restarts).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cudnnctl/fetch/range_plan.hpp"

namespace cudnnctl {

/// What identifies one version of the file on the server: two answers that differ are two files.
struct Validators {
  std::uint64_t total = 0;
  std::string etag, last_modified;
  bool operator==(const Validators&) const = default;
};

struct DownloadState {
  Validators validators;
  ExtentSet done;  // bytes present in the .part file
};

/// The sidecar's text: "cudnnctl-part 1", then total, etag, last-modified and one "done FIRST-LAST" line
/// per extent (LAST included), then "end".
std::string format_download_state(const DownloadState& state);
/// The state, or nothing when the text is not exactly such a sidecar: a missing or unknown line, a number
/// that is not plain decimal, an extent past the total, out of order or overlapping, a control character in
/// a validator, more than 100000 extents.
std::optional<DownloadState> parse_download_state(std::string_view text);

/// The sidecar at `path`: nothing when it is missing or not exactly a sidecar.
std::optional<DownloadState> read_download_state(const std::string& path);
/// Writes the sidecar through `<path>.tmp` and a rename (never half-written); false when it could not.
bool write_download_state(const std::string& path, const DownloadState& state);

/// Removes the sidecar of `part_path` and, when `with_part`, the `.part` file itself (no error when absent).
void remove_partial_download(const std::string& part_path, bool with_part);

/// What an earlier run left beside a `.part` file, for the next attempt to go on from.
struct PriorDownload {
  Validators validators;
  ExtentSet done;       // bytes present
  bool known = false;   // the validators are known: the sidecar's, or a complete bare file's size
  bool legacy = false;  // a .part file without a sidecar (an older single-connection download): its prefix
};
/// The sidecar's state when it fits the `.part` file (its total the expected size, its extents inside the
/// file), else a bare `.part` file's bytes as a prefix (when not longer than expected), else nothing.
PriorDownload read_prior_download(const std::string& part_path, std::optional<std::uint64_t> expected_size);

} // namespace cudnnctl

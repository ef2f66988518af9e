#pragma once
// Small text files read once, bounded: a version header, version.json, a state file, /proc/version. One
// reader for every module, so that a FIFO, a device or a folder named like the file is never opened
// (reading a FIFO would block), and a huge file is never read whole.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace cudnnctl {

/// The first `max_bytes` of a regular file (links followed); nullopt when it is not one or cannot be read.
std::optional<std::string> read_text_head(const std::filesystem::path& path, std::size_t max_bytes);

/// A regular file's whole content when it has at most `max_bytes`; nullopt otherwise (not a regular
/// file, unreadable, or larger).
std::optional<std::string> read_text_file(const std::filesystem::path& path, std::size_t max_bytes);

} // namespace cudnnctl

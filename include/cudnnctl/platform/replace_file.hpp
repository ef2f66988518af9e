#pragma once
// Replacing a file that another program reads whenever it likes (node_exporter's textfile collector, NFD's
// local feature source): the reader sees the old content or the new, never a part.
#include <string>
#include <string_view>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl::platform {

/// Writes `content` to a temporary file in `path`'s own folder (a dot file whose name does not end like
/// `path`'s, so neither reader takes it: ".cudnnctl.prom.<id>.tmp"), flushes it to the disk, makes it
/// readable by everyone (0644, whatever the umask) and renames it over `path`, then flushes the folder.
/// A link at `path` is replaced, not followed. On failure the temporary file is removed and `path` is
/// as it was. Errors: io.not-found when the folder is missing, io.error otherwise (the system's reason).
Result<void> replace_file_atomically(const std::string& path, std::string_view content);

} // namespace cudnnctl::platform

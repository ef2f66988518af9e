#pragma once
// Recognises what a file really is from its first bytes, so a login page or an empty file saved
// under an archive's name is told apart from a corrupt archive.
#include <cstdint>
#include <string>
#include <string_view>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/contract/archive_name.hpp"

namespace cudnnctl {

enum class FileKind { zip, xz, gzip, html, json_or_xml, text, empty, unknown };
std::string_view to_string(FileKind k);

/// Classifies a file's first bytes.
FileKind sniff_bytes(std::string_view head);

/// Checks that the file at `path` is an archive of `expected` format; otherwise an error that says
/// in plain words what the file is and what to do (download again, log in first, ...).
Result<void> check_is_archive(const std::string& path, ArchiveFormat expected);

} // namespace cudnnctl

#pragma once
// A wheel's *.dist-info/RECORD (PEP 376 / the wheel spec): CSV rows "path,sha256=<urlsafe base64, no
// padding>,size", as pip writes it (CRLF line ends, a field with a comma quoted). Pure text functions.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct RecordEntry {
  std::string path;  // relative to the site folder, '/'-separated as written
  std::string hash;  // "sha256=..." as written; empty for RECORD itself and .pyc files
  std::optional<std::uint64_t> size;
};

/// Parses RECORD's text. A row that is not CSV (an unclosed quote, too few fields) is an error naming `origin`.
Result<std::vector<RecordEntry>> parse_record(std::string_view text, const std::string& origin);

/// RECORD's form of a SHA-256 given as 64 hex digits: "sha256=" + urlsafe base64 without padding.
std::string record_hash_of_hex(std::string_view sha256_hex);

} // namespace cudnnctl

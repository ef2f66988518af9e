#pragma once
// CRC-32 as zip and gzip define it (IEEE 802.3, reflected, polynomial 0xEDB88320): what a zip's central
// directory records for each member, and what an install receipt records for each placed file.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// Continues `crc` (0 to start) over `n` bytes; crc32_update(crc32_update(0, a), b) == CRC-32 of a then b.
std::uint32_t crc32_update(std::uint32_t crc, const void* data, std::size_t n);

/// Streams a file through crc32_update.
Result<std::uint32_t> crc32_file(const std::string& path);

/// Eight lower-case hex digits, as a receipt writes it.
std::string crc32_hex(std::uint32_t crc);
/// The CRC of eight hex digits (either case), or nothing for anything else.
std::optional<std::uint32_t> crc32_from_hex(std::string_view text);

} // namespace cudnnctl

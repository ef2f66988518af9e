#pragma once
// Big-endian integers read from bytes already bounds-checked by the caller (SQLite pages, rpm headers).
#include <cstdint>

namespace cudnnctl {

inline std::uint32_t big_endian_u16(const void* bytes) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  return static_cast<std::uint32_t>(p[0]) << 8 | p[1];
}

inline std::uint32_t big_endian_u32(const void* bytes) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  return static_cast<std::uint32_t>(p[0]) << 24 | static_cast<std::uint32_t>(p[1]) << 16 | static_cast<std::uint32_t>(p[2]) << 8 | p[3];
}

} // namespace cudnnctl

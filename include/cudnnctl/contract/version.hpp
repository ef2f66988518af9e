#pragma once
// A cuDNN version as archive names spell it: up to four numbers, major.minor.patch.build.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct Version {
  std::array<std::uint32_t, 4> parts{};
  int count = 0;  // how many parts the name gave (legacy names may give 1 or 2: "v7", "v7.1")

  std::uint32_t major() const { return parts[0]; }
  std::uint32_t minor() const { return parts[1]; }
  std::uint32_t patch() const { return parts[2]; }
  std::uint32_t build() const { return parts[3]; }
  std::string to_string() const;
  /// "9.1.0": the first three parts, as NVIDIA labels a release (redistrib_9.1.0.json).
  std::string release_label() const;
  auto operator<=>(const Version&) const = default;
};

/// Parses "9.1.0.70" (1 to 4 parts). Each part is decimal without leading zeros; major, minor
/// and patch are below 100 (the CUDNN_VERSION encoding has two digits for minor and patch).
Result<Version> parse_version(std::string_view text);

/// CUDNN_VERSION as that major's headers define it: 9.x and later major*10000 + minor*100 + patch,
/// 8.x and earlier major*1000 + minor*100 + patch. nullopt when the name does not give minor and patch.
std::optional<std::uint32_t> cudnn_version_macro(const Version& v);

} // namespace cudnnctl

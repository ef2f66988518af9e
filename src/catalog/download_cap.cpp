// The download cap derived from the catalog's known archive sizes (see the header).
#include "cudnnctl/catalog/download_cap.hpp"

#include <algorithm>

namespace cudnnctl {

std::uint64_t largest_known_archive_size(const Catalog& catalog) {
  std::uint64_t largest = 0;
  for (const auto& a : catalog.archives())
    for (const auto& h : a.hashes) largest = std::max(largest, h.size.value_or(0));
  return largest;
}

std::uint64_t archive_download_cap(const Catalog& catalog) {
  const std::uint64_t largest = largest_known_archive_size(catalog);
  if (largest == 0) return k_archive_cap_without_sizes;
  constexpr std::uint64_t mib = 1ull << 20;
  const std::uint64_t scaled = largest / k_archive_cap_denominator * k_archive_cap_numerator +
                               (largest % k_archive_cap_denominator) * k_archive_cap_numerator / k_archive_cap_denominator;
  return (scaled + mib - 1) / mib * mib;
}

} // namespace cudnnctl

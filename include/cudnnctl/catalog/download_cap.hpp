#pragma once
// How many bytes a download may bring at most. An archive whose catalog row gives a size is held to exactly
// that size; one without (older releases, or a release whose NVIDIA manifest no source kept) is held to the
// cap derived here from the catalog's known sizes, so that a server streaming without end, or announcing
// more, is cut off and refused instead of filling the disk.
#include <cstdint>

#include "cudnnctl/catalog/catalog.hpp"

namespace cudnnctl {

/// The cap is this many times the largest archive size the catalog knows (NVIDIA's archives grow slowly:
/// 1.92 GB for the largest of 9.10, 1.0 GB or less since).
inline constexpr std::uint64_t k_archive_cap_numerator = 3, k_archive_cap_denominator = 2;
/// The cap for a catalog that knows no size at all (a hand-made --catalog).
inline constexpr std::uint64_t k_archive_cap_without_sizes = 4ull << 30;

/// The largest archive size any hash of `catalog` gives (0: none gives one).
std::uint64_t largest_known_archive_size(const Catalog& catalog);

/// The most bytes fetching an archive without a catalog size may bring: 1.5 times the largest known size,
/// rounded up to a whole MiB (2753 MiB, 2.69 GiB, with the built-in catalog); k_archive_cap_without_sizes
/// when the catalog knows no size.
std::uint64_t archive_download_cap(const Catalog& catalog);

} // namespace cudnnctl

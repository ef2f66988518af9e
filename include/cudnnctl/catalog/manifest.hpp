#pragma once
// NVIDIA's release manifests, compute/cudnn/redist/redistrib_<label>.json: one per release, listing each
// platform's archive per CUDA variant with its relative path, SHA-256, MD5 and size. They are read
// strictly and fail-closed: a manifest that breaks one rule, or contradicts the built-in catalog (or the
// user catalog) for the same file name, is refused whole. docs/catalog.md lists the rules.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/catalog/catalog.hpp"

namespace cudnnctl {

/// NVIDIA's manifests are a few KB; anything past this is refused before it is parsed.
inline constexpr std::size_t k_manifest_max_bytes = 1U << 20;
/// The folder of the manifests and archives below NVIDIA's server (or a mirror with the same paths).
inline constexpr std::string_view k_redist_path = "compute/cudnn/redist/";
inline constexpr std::string_view k_nvidia_server = "https://developer.download.nvidia.com/";

struct Manifest {
  std::string label;    // release_label: 9.30.0
  std::string version;  // cudnn.version: 9.30.0.7
  std::string date;     // release_date (YYYY-MM-DD); empty when the manifest has none
  std::string url;      // where it was read
  std::vector<CatalogArchive> archives;  // each with one hash, its origin (url) and the date it was learnt
};

/// A release label as NVIDIA names manifests: 2 to 4 decimal parts, none over 4 digits ("9.30.0").
bool is_release_label(std::string_view text);

/// The labels of the redistrib_<label>.json links in a directory listing page, sorted by version, once each.
std::vector<std::string> manifest_labels(std::string_view listing);

/// Validates a manifest read from `url` (`label`: the label its URL names; empty: not checked) against the
/// rules and against what `known` (the built-in catalog, then the user catalog) says of the same file names.
/// `today` (YYYY-MM-DD) is stored as each row's date. Errors are catalog.manifest-refused, naming the URL.
Result<Manifest> parse_manifest(std::string_view bytes, const std::string& url, std::string_view label,
                                const std::vector<const Catalog*>& known, const std::string& today);

/// The rule for one archive row (a manifest's, or a user catalog's when it is read back): its file name
/// parses through the version contract to this version, platform and CUDA variant, and its URL is NVIDIA's
/// path for it. The fault, or an empty string.
std::string archive_row_fault(const CatalogArchive& row);

/// What the first of `known` that lists the same file name says against `row`'s hash or size (a sentence),
/// or an empty string when none contradicts it.
std::string catalog_contradiction(const CatalogArchive& row, const std::vector<const Catalog*>& known);

/// Where a manifest's archive lives on NVIDIA's server (fetch maps it below --mirror).
std::string nvidia_archive_url(std::string_view relative_path);

} // namespace cudnnctl

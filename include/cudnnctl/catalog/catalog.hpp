#pragma once
// The release catalog: every known cuDNN archive with its SHA-256 hashes and sources, release dates,
// and NVIDIA's support rows. Built into the binary from data/cudnn-catalog.json; --catalog replaces it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/base/strings.hpp"

namespace cudnnctl {

struct KnownHash {
  std::string sha256;                  // lower-case hex
  std::optional<std::uint64_t> size;   // bytes, when a source gave it
  std::string size_note;               // no size: why none is known (the catalog's size_note)
  std::string md5;
  std::string confidence;              // A, A-, B, C, with '!' when another hash was seen for the name
  std::vector<std::string> sources;
  std::vector<std::string> notes;
};

struct CatalogArchive {
  std::string filename;
  std::string version;       // four parts where known: 9.1.0.70
  std::string platform;
  std::string cuda_variant;
  std::string url;
  std::vector<KnownHash> hashes;  // at least one; the first is the best-sourced
  std::string origin;        // user catalog rows: the manifest URL it was learnt from (empty: built in)
  std::string added;         // user catalog rows: the date it was learnt (YYYY-MM-DD)
};

struct SupportRow {
  std::string release;       // 9.1.0
  std::string cuda_variant;  // 12
  std::vector<std::string> cuda_toolkits;  // 12.0 ... 12.4 (sorted); empty when the source does not say
  std::string min_driver_linux;            // 525.60.13; empty when unknown
  std::string min_driver_windows;
  std::vector<std::string> compute_capabilities;
  std::string source;
  std::vector<std::string> notes;
};

struct ReleaseInfo {
  std::string label;  // 9.1.0
  std::string date;   // 2024-04-12; empty when no manifest was found
  std::string manifest_url;
  std::vector<std::string> builds;
};

/// A legacy name with a short version field (v7) that a source pins to one release (7.0.4).
struct LegacyPin {
  std::string filename;
  std::string release;
  std::string source;
};

class Catalog {
public:
  /// Parses and validates catalog JSON. `origin` names the file in errors.
  static Result<Catalog> parse(std::string_view json_text, std::string origin);
  /// The catalog compiled into this binary.
  static const Catalog& embedded();
  /// Reads a catalog file (for --catalog).
  static Result<Catalog> load_file(const std::string& path);
  /// A catalog of these archives and releases (a user catalog built from manifests).
  static Catalog of(std::string origin, std::vector<CatalogArchive> archives, std::vector<ReleaseInfo> releases);
  /// `first` with, after its own, the archives and releases of `then` that it lacks (by file name, by label):
  /// lookups answer from `first` before `then`. Support rows and legacy pins are `first`'s.
  static Catalog layered(const Catalog& first, const Catalog& then, std::string origin);

  const CatalogArchive* find_archive(std::string_view filename) const;
  std::vector<const SupportRow*> support_for(std::string_view release, std::string_view cuda_variant) const;
  const ReleaseInfo* release(std::string_view label) const;
  const LegacyPin* legacy_pin(std::string_view filename) const;
  /// The newest release by version number (for --version).
  const ReleaseInfo* newest_release() const;

  const std::vector<CatalogArchive>& archives() const { return m_archives; }
  const std::vector<SupportRow>& support() const { return m_support; }
  const std::vector<ReleaseInfo>& releases() const { return m_releases; }
  const std::string& origin() const { return m_origin; }

private:
  std::string m_origin;
  std::vector<CatalogArchive> m_archives;
  std::vector<SupportRow> m_support;
  std::vector<ReleaseInfo> m_releases;
  std::vector<LegacyPin> m_pins;
};


} // namespace cudnnctl

#pragma once
// The rules a member must pass before anything is written (pure: no disk). Refuses absolute paths,
// drive letters, UNC paths, '..', NTFS streams, Windows device names, trailing dots/spaces, duplicates
// and case-insensitive collisions, links that leave the archive's root, bombs, and anything outside the
// single top-level folder the contract expects.
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cudnnctl/archive/listing.hpp"
#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

struct SafetyPolicy {
  std::string archive;             // for messages
  std::string expected_top;        // the single top-level folder; empty: any single folder
  std::uint64_t max_total_size = 8ull << 30;  // declared and actual inflated bytes
  double max_ratio = 100.0;        // uncompressed/compressed per member (zip); NVIDIA's stay under ~10
  std::uint64_t archive_bytes = 0;  // the archive file's size: bounds the whole archive's ratio too (tar.xz); 0: unknown
};

/// Default cap: 8 GiB, or 4x the catalog size when known (whichever is smaller).
std::uint64_t size_cap(std::optional<std::uint64_t> catalog_size);

/// The member's path with '\' read as '/', '.' and empty components dropped (a trailing '/' is kept off).
std::string normalise_entry_path(std::string_view name);

class SafetyChecker {
public:
  explicit SafetyChecker(SafetyPolicy policy) : m_policy(std::move(policy)) {}
  /// Checks one member as it comes (tar streams are checked this way before their data is written).
  /// On success the entry's name is replaced by its normalised path.
  Result<void> admit(ArchiveEntry& entry);
  /// Checks what needs the whole listing (links, members below links, the top folder).
  Result<void> finish();
  std::uint64_t declared_total() const { return m_total; }

private:
  Unexpected<Error> hostile(const std::string& entry, const std::string& why) const;
  // admit()'s rules, in order: the name's text, the top-level folder, the shape of the tree, the sizes
  Result<std::string> admit_name(const std::string& raw) const;
  Result<void> admit_top(const std::string& raw, const std::string& path, const ArchiveEntry& e);
  Result<void> admit_shape(const std::string& raw, const std::string& path, const ArchiveEntry& e);
  Result<void> admit_size(const std::string& raw, const ArchiveEntry& e);
  SafetyPolicy m_policy;
  std::set<std::string> m_names;
  std::map<std::string, std::string> m_folded;  // lower-case -> name
  std::vector<ArchiveEntry> m_links;
  std::set<std::string> m_files;
  std::set<std::string> m_dirs;  // folders: explicit members and the parents of every member
  std::string m_top;
  std::uint64_t m_total = 0;
};

/// Runs every rule over a complete listing (zip): admit() for each entry, then finish().
Result<void> check_listing(ArchiveListing& listing, const SafetyPolicy& policy);

} // namespace cudnnctl

#pragma once
// Fail-closed verification: the archive's SHA-256 must match an expected hash from --sha256,
// --sha256-file, an <archive>.sha256 sidecar or the catalog; a mismatch says what it most likely means.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/catalog/catalog.hpp"

namespace cudnnctl {

struct ExpectedHash {
  std::string sha256;                 // lower-case
  std::string origin;                 // "--sha256", "sidecar x.sha256", "catalog (built in), confidence A"
  std::optional<std::uint64_t> size;  // from the catalog
};

struct HashSources {
  std::string sha256;       // --sha256 HEX
  std::string sha256_file;  // --sha256-file FILE (sha256sum format, or a bare hash)
};

/// Where the expected hashes come from, in order: --sha256, --sha256-file, the sidecar, the catalog
/// entry for `canonical_name`. Empty when none is known. Errors for unreadable or malformed inputs.
Result<std::vector<ExpectedHash>> expected_hashes(const std::string& archive_path, const std::string& canonical_name,
                                                  const HashSources& sources, const Catalog& catalog,
                                                  std::vector<std::string>& warnings);

/// True when `<archive_path>.sha256` exists as anything (it is read, and refused when not a regular file, later).
bool sidecar_present(const std::string& archive_path);

/// Parses sha256sum output ("HEX  name" / "HEX *name") or a bare hash; picks the line for `file_name`.
Result<std::string> hash_from_sha256sum_text(const std::string& text, const std::string& file_name, const std::string& origin);

struct VerifyOutcome {
  std::string path;
  std::uint64_t size = 0;
  std::string sha256;
  std::optional<ExpectedHash> matched;  // nullopt: unverified (allowed explicitly)
};

/// The refusal of an archive no expected hash is known for (verify.no-expected-hash); `actual` (its SHA-256)
/// is named when it was computed, empty when the refusal comes before hashing.
Error no_expected_hash(const std::string& path, const std::string& actual);

/// Compares a computed hash with the expected ones; a mismatch is an error that shows both hashes and
/// what it most likely means (incomplete download, unknown build of a known name, different file).
Result<VerifyOutcome> judge_hash(const std::string& path, std::uint64_t size, const std::string& actual,
                                 const std::vector<ExpectedHash>& expected, bool allow_unverified);

} // namespace cudnnctl

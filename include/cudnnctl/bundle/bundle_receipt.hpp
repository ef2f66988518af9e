#pragma once
// cudnnctl's own state for a bundle it changed, kept outside the bundle's folder and outside
// site-packages: <state root>/<hash of the folder>/ holds receipt.json (what was swapped or set aside,
// with hashes), bundle-dir (the folder, for recovery), backup-<id>/ (the originals) and the journal.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/bundle/bundle.hpp"
#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl {

struct BundleFileHash {
  std::string name;    // a plain file name in the bundle's folder
  std::string sha256;  // hex
};

struct BundleReceipt {
  std::string dir;
  std::string action;  // "swap" or "unbundle"
  std::string id;      // backup-<id> holds the originals
  std::string created;
  std::string archive, archive_sha256, version;  // swap: the archive and its cuDNN version
  std::string original_version;
  std::vector<BundleFileHash> originals;  // set aside into backup-<id>
  std::vector<BundleFileHash> placed;     // swap: what it put into dir
  bool load_check_skipped = false;        // --no-load-check: no child process proved the result loads
  std::string load_check_note;            // why it was skipped, in words
};

/// CUDNNCTL_BUNDLE_STATE when set, else <user state folder>/cudnnctl/bundles; empty when neither is known.
std::string bundle_state_root(const platform::Environment& env);

/// What names a bundle folder in cudnnctl's state: on Windows (case-insensitive names) the path with '/'
/// for '\\' and ASCII letters lower-cased, so C:\Python311\...\torch\lib and c:/python311/.../torch/lib are
/// one folder; elsewhere the path as it is.
std::string bundle_dir_key(std::string_view dir, Os os);

/// <root>/<the first 16 hex digits of the SHA-256 of dir's key on this host>.
std::string bundle_state_dir(const std::string& root, const std::string& dir);

std::string receipt_text(const BundleReceipt& r);

/// Parses a receipt; refuses one whose file names are not plain names or whose id is not hex-like, or
/// that names another folder than `dir` (state files are data anyone with the user's rights may edit).
Result<BundleReceipt> parse_bundle_receipt(const std::string& text, const std::string& dir, const std::string& origin);

/// The state once the receipt is taken into account. `current`: SHA-256 of the cuDNN files in dir now.
BundleState state_with_receipt(const std::optional<BundleReceipt>& r, const std::map<std::string, std::string>& current,
                               BundleState by_record, std::string* note);

} // namespace cudnnctl

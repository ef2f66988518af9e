#pragma once
// The install receipt: what was installed (every file with size and SHA-256, links with their targets)
// and what it replaced (with where the originals were kept), so uninstall can restore the tree.
#include <cstdint>
#include <string>
#include <vector>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/env/toolkit.hpp"
#include "cudnnctl/install/install_fs.hpp"

namespace cudnnctl {

struct ReceiptFile {
  std::string path;         // relative to the toolkit root
  std::string kind = "file";  // or "symlink"
  std::uint64_t size = 0;
  std::string sha256;
  std::string link_target;
};

struct ReceiptBackup {
  std::string path;    // where the original was, relative to the toolkit root
  std::string backup;  // where it is kept now, relative to the toolkit root
};

struct Receipt {
  std::string id;
  std::string archive;         // file name as given
  std::string canonical_name;
  std::string sha256;
  std::string verified_by;     // the origin of the matching hash, or "unverified"
  std::string version;
  std::string cuda_variant;
  std::string platform;
  std::string toolkit_version;
  std::string installed_at;
  std::string backup_dir;      // relative to the toolkit root
  std::vector<ReceiptFile> files;
  std::vector<ReceiptBackup> replaced;
};

std::string receipt_path(const std::string& state_dir);
/// The toolkit's cudnnctl folder (receipt, journal, lock, backups): <root>/.cudnnctl
std::string state_dir_of(const Toolkit& t);
std::string receipt_to_json(const Receipt& r);
Result<Receipt> receipt_from_json(const std::string& text, const std::string& origin);

/// Checks the installed files against the receipt; returns one line per problem (empty: all match).
std::vector<std::string> check_receipt(const Receipt& r, const std::string& root, const InstallFs& fs);
/// The receipt paths of the installed files that check_receipt finds a problem with.
std::vector<std::string> differing_files(const Receipt& r, const std::string& root, const InstallFs& fs);

} // namespace cudnnctl

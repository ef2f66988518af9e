#pragma once
// The install receipt: what was installed (every file with its size and CRC-32, links with their targets)
// and what it replaced (with where the originals were kept), so uninstall can restore the tree.
//
// Why a file's record is a CRC-32 and not a SHA-256 (schema 2; receipts of schema 1 recorded SHA-256 and are
// still read and checked by it): the archive's SHA-256 is what proves the bytes are NVIDIA's, and it is
// checked before anything is placed. The per-file record only has to notice a file that changed since
// (antivirus emptying it, a copy over it, a disk error): a CRC-32 catches every change of up to 32 bits and
// any other with odds of 1 in 4 billion, and the zip's inflate has already computed and checked it, so an
// install pays nothing for it (a SHA-256 of every file was a quarter of an install's CPU). It is no defence
// against someone who can write into the toolkit, and neither was the SHA-256: they can rewrite the receipt.
#include <cstdint>
#include <optional>
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
  std::optional<std::uint32_t> crc32;  // a file's, in receipts of schema 2
  std::string sha256;                  // a file's, in receipts of schema 1 (empty in newer ones)
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
/// The receipt format this cudnnctl writes; it reads this one and every older one.
inline constexpr int receipt_schema = 2;
std::string receipt_to_json(const Receipt& r);
Result<Receipt> receipt_from_json(const std::string& text, const std::string& origin);

/// Checks the installed files against the receipt; returns one line per problem (empty: all match).
std::vector<std::string> check_receipt(const Receipt& r, const std::string& root, const InstallFs& fs);
/// The receipt paths of the installed files that check_receipt finds a problem with.
std::vector<std::string> differing_files(const Receipt& r, const std::string& root, const InstallFs& fs);

} // namespace cudnnctl

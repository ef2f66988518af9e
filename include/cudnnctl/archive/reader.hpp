#pragma once
// Reading and extracting cuDNN archives: zip through libzip, .tar.xz and .tgz through libarchive.
// Extraction writes only below a private staging folder given by the caller, checks every member
// (safety.hpp) before its data is written, never follows a link it created (links come last), and
// inflates zip members in parallel, one libzip handle per worker.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "cudnnctl/archive/inflater.hpp"
#include "cudnnctl/archive/listing.hpp"
#include "cudnnctl/archive/safety.hpp"
#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// A file that is still arriving (a download's `.part` file, written at offsets while it is read): its
/// final size, and a wait until bytes [begin, end) are on the disk (false: they never will be, the transfer
/// stopped or what arrived was dropped). Every read goes through the wait; zip members are then taken in
/// archive order, so that they follow the bytes as they come.
struct ArrivingInput {
  std::uint64_t size = 0;
  std::function<bool(std::uint64_t begin, std::uint64_t end)> wait;
  explicit operator bool() const { return static_cast<bool>(wait); }
};

struct ReadOptions {
  std::string name_encoding;  // empty: names are UTF-8 whatever the zip flags say
  ArrivingInput arriving;     // empty: the file is complete
};

struct ExtractOptions {
  ReadOptions read;
  SafetyPolicy policy;
  unsigned threads = 0;  // zip: 0 = one per core; tar.xz: 0 or 1 = one (bounded memory), more = liblzma's threaded decoder
  // Progress, for a display (any thread): on_total once, before the first on_bytes, with the total that the
  // on_bytes add up to when the extraction is done. A zip counts the inflated bytes written (its central
  // directory gives their total); a tar stream counts the archive's bytes read (the file's size).
  std::function<void(std::uint64_t)> on_total;
  std::function<void(std::uint64_t)> on_bytes;
  const std::atomic<bool>* cancel = nullptr;             // set to stop early (the result is then an error)
  bool start_writeback = false;                          // the caller fsyncs the files later: start their writeback
  std::uint64_t writeback_step = std::uint64_t{8} << 20; // every this many bytes, so the disk works meanwhile
  InflaterKind inflater = InflaterKind::best;            // zip's deflated members (tests run each engine)
  // One more job of the caller's, run by a zip worker among the members (largest cost first) so that the
  // threads stay one per core; `bytes` is what it reads, for its place in the order. The extractor may
  // not run it (an error before the workers start, or one that stops them): the caller checks.
  struct SideJob {
    std::function<void()> run;
    std::uint64_t bytes = 0;
  } side_job;
};

struct ExtractResult {
  ArchiveListing listing;       // names normalised
  std::uint64_t bytes_written = 0;
  std::size_t files = 0;
  std::map<std::string, std::uint32_t> member_crc32;  // normalised member name -> CRC-32 of the file written
};

/// Lists an archive's members (a tar stream is read to its end, so stream errors surface here).
Result<ArchiveListing> list_archive(const std::string& path, ArchiveFormat format, const ReadOptions& options = {});

/// Extracts into `staging_dir` (which must exist and be empty). On error the caller drops the folder.
Result<ExtractResult> extract_archive(const std::string& path, ArchiveFormat format, const std::string& staging_dir,
                                      const ExtractOptions& options);

/// Pulls up to `n` bytes of one member's data into `buf`; 0 at its end (or on a read error).
using MemberPull = std::function<std::size_t(char* buf, std::size_t n)>;
/// Gets one chosen member and its data; returns false to stop visiting.
using MemberVisit = std::function<bool(const ArchiveEntry&, const MemberPull&)>;

/// Reads the data of the regular-file members `want` picks, in archive order, writing nothing: a member's
/// data may be read in part (what is left is skipped). For reading library headers without extracting.
Result<void> visit_members(const std::string& path, ArchiveFormat format, const std::function<bool(const ArchiveEntry&)>& want,
                           const MemberVisit& visit, const ReadOptions& options = {});

// The format-specific halves, used by the functions above.
Result<ArchiveListing> list_zip(const std::string& path, const ReadOptions& options);
Result<ExtractResult> extract_zip(const std::string& path, const std::string& staging_dir, const ExtractOptions& options);
Result<ArchiveListing> list_tar(const std::string& path, ArchiveFormat format, const ReadOptions& options);
Result<ExtractResult> extract_tar(const std::string& path, ArchiveFormat format, const std::string& staging_dir,
                                  const ExtractOptions& options);
Result<void> visit_zip_members(const std::string& path, const std::function<bool(const ArchiveEntry&)>& want,
                               const MemberVisit& visit, const ReadOptions& options);
Result<void> visit_tar_members(const std::string& path, ArchiveFormat format, const std::function<bool(const ArchiveEntry&)>& want,
                               const MemberVisit& visit, const ReadOptions& options);

} // namespace cudnnctl

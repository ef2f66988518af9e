#include "cudnnctl/archive/verified_extract.hpp"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include "cudnnctl/archive/sniff.hpp"
#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/files.hpp"

namespace cudnnctl {

Result<VerifiedExtraction> verify_and_extract(const std::string& path, ArchiveFormat format,
                                              const std::vector<ExpectedHash>& expected, bool allow_unverified,
                                              const std::string& staging_dir, const ExtractOptions& options,
                                              const ProgressFn& hash_progress) {
  CUDNNCTL_TRY(check_is_archive(path, format));
  CUDNNCTL_TRY_ASSIGN(auto size, platform::file_size(path));
  // Refuse before any work when no hash is known and that was not allowed.
  if (expected.empty() && !allow_unverified) {
    auto judged = judge_hash(path, size, "(not computed)", expected, false);
    return Unexpected<Error>(judged.error());
  }

  // the hash and the workers read the file separately: refuse if it changed in between (see below)
  CUDNNCTL_TRY_ASSIGN(auto stamp, platform::file_stamp(path));

  std::atomic<bool> cancel{false};
  std::optional<Result<std::string>> hash;  // empty until the hash job ran
  auto hash_archive = [&] {
    log::Phase phase("verify (SHA-256, beside the extraction)");
    hash = sha256_file(path, hash_progress);
    // a mismatch stops extraction early: no point inflating a file that will be thrown away
    if (!*hash || (!expected.empty() && std::none_of(expected.begin(), expected.end(),
                                                     [&](const ExpectedHash& e) { return e.sha256 == **hash; })))
      cancel.store(true);
  };
  ExtractOptions opts = options;
  opts.cancel = &cancel;
  // zip: the hash is one more job of the extraction's workers (one thread per core, the costliest job
  // first); a tar stream is one thread, so the hash runs on its own beside it
  std::optional<std::thread> hasher;
  if (format == ArchiveFormat::zip) opts.side_job = {hash_archive, size};
  else hasher.emplace(hash_archive);
  // the file was sniffed above: go straight to the format's extractor
  log::Phase extract_phase(fmt::format("extract into {}", staging_dir));
  auto extracted = format == ArchiveFormat::zip ? extract_zip(path, staging_dir, opts) : extract_tar(path, format, staging_dir, opts);
  extract_phase.end();
  if (hasher) hasher->join();
  // the extraction stopped before its workers took the hash (a damaged listing, a failed member): hash
  // now, so that a damaged download is still named by its hash first
  if (!hash) hash_archive();

  // every refusal from here on drops what was extracted
  auto drop = [&](Error e) {
    platform::remove_tree(staging_dir);
    return Unexpected<Error>(std::move(e));
  };
  if (!*hash) return drop(hash->error());
  // the bytes hashed are the bytes inflated only if nobody wrote to or replaced the file meanwhile
  if (auto now = platform::file_stamp(path); !now || !(*now == stamp)) {
    platform::remove_tree(staging_dir);
    return fail(ErrorCode::archive_corrupt, fmt::format("'{}' changed while it was being read (another program wrote to it or replaced it)", path),
                "nothing was installed or extracted: wait until the download or copy is done, then run the command again", path);
  }
  auto judged = judge_hash(path, size, **hash, expected, allow_unverified);
  if (!judged) return drop(judged.error());
  if (!extracted) return drop(extracted.error());
  return VerifiedExtraction{std::move(*judged), std::move(*extracted)};
}

} // namespace cudnnctl

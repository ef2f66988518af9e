#pragma once
// Downloading a catalog archive: NVIDIA's URL or the same relative path under a mirror, into a cache,
// resuming a partial download, verified fail-closed before it is kept under its name.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cudnnctl/base/error.hpp"
#include "cudnnctl/catalog/catalog.hpp"
#include "cudnnctl/fetch/range_plan.hpp"

namespace cudnnctl {

struct FetchRequest {
  std::string version;       // 9.1.0.70, 9.1.0 or 9.1 (the newest build that matches)
  std::string platform;      // linux-x86_64, windows-x86_64, ...
  std::string cuda;          // "12"; empty: the newest variant the release has for the platform
  // the archive already resolved in the run's catalog (the resolver's choice): resolve_fetch answers it without
  // resolving again, and learn_unknown_version knows the version; null: resolved from the fields above
  const CatalogArchive* chosen = nullptr;
  std::string mirror;        // empty: NVIDIA's URL
  std::string cache_dir;
  int stall_timeout_s = 60;  // abort when no byte arrives for this long
  bool offline = false;      // never touch the network: the cache's verified copy, or an error
  int connections = 0;       // range requests at once (--connections); 0: adaptive, 1 when ranges are not honoured
  std::uint64_t chunk_size = 0;  // bytes per range request; 0: 8 MiB
  // the most bytes an archive without a catalog size may bring; 0: archive_download_cap(catalog)
  std::uint64_t size_cap = 0;
  std::function<void(std::uint64_t, std::uint64_t)> progress;
  // A reader of the archive while it downloads (install's extraction beside the download). None is called
  // when the cache has the archive already.
  bool tail_first = false;  // the end of the file is asked right after its start (a zip's central directory)
  // before the first request, when the catalog gives the size: the `.part` file and the archive's size
  std::function<void(const std::string& part_path, std::uint64_t total)> on_download_start;
  std::function<void(const ExtentSet&)> on_extents;  // ParallelDownload::on_extents
  // the download ended (every byte there, or failed): before the hash is judged and the `.part` file kept
  // under its name or removed, so that a reader can finish with it first
  std::function<void()> after_download;
};

struct FetchOutcome {
  std::string path;          // the verified archive in the cache
  std::string url;
  std::string sha256;
  bool downloaded = false;   // false: it was in the cache already
  bool resumed = false;
  std::uint64_t bytes = 0;
  int connections = 0;       // connections used (1: one stream)
  std::string effective_url; // where the file came from after redirects
};

/// The catalog entry a request names (error: none); `request.chosen` when set. Logged (-v): once per command run,
/// since the resolver's choice is pinned into the request (fetch/release_choice.hpp).
Result<const CatalogArchive*> resolve_fetch(const Catalog& catalog, const FetchRequest& request);
/// The same, without the log line: whether the catalog knows the request (learn_unknown_version).
Result<const CatalogArchive*> find_fetch(const Catalog& catalog, const FetchRequest& request);
/// NVIDIA's URL, or the same path below `mirror`.
std::string fetch_url(const CatalogArchive& archive, const std::string& mirror);
/// %LOCALAPPDATA%\cudnnctl\archives (Windows), else $XDG_CACHE_HOME/cudnnctl/archives or ~/.cache/cudnnctl/archives.
std::string default_cache_dir();

/// Where the cache keeps the archive `request` names (downloaded or not).
Result<std::string> fetch_cache_path(const Catalog& catalog, const FetchRequest& request);

Result<FetchOutcome> fetch_archive(const Catalog& catalog, const FetchRequest& request);

} // namespace cudnnctl

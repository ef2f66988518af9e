#include "cudnnctl/fetch/fetch.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/contract/archive_name.hpp"
#include "cudnnctl/fetch/parallel_download.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/http.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/catalog/download_cap.hpp"

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view k_nvidia = "https://developer.download.nvidia.com/";

bool version_matches(const std::string& build, const std::string& wanted) {
  return build == wanted || build.starts_with(wanted + ".");
}

} // namespace

std::string default_cache_dir() {
  // Windows first (%LOCALAPPDATA% is set there only; HOME is set under Git Bash too)
  if (const char* l = std::getenv("LOCALAPPDATA"); l && *l) return native_utf8(path_from_utf8(l) / "cudnnctl" / "archives");
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return utf8_of(path_from_utf8(x) / "cudnnctl" / "archives");
  if (const char* h = std::getenv("HOME"); h && *h) return utf8_of(path_from_utf8(h) / ".cache" / "cudnnctl" / "archives");
  return ".cudnnctl-cache";
}

namespace {
// The request's archives in the catalog, the newest build first and, among variants, the newest CUDA.
std::vector<const CatalogArchive*> fetch_hits(const Catalog& catalog, const FetchRequest& req) {
  std::vector<const CatalogArchive*> hits;
  for (const auto& a : catalog.archives())
    if (a.platform == req.platform && version_matches(a.version, req.version) && (req.cuda.empty() || a.cuda_variant == req.cuda))
      hits.push_back(&a);
  std::sort(hits.begin(), hits.end(), [](const CatalogArchive* a, const CatalogArchive* b) {
    if (const int c = compare_dotted(a->version, b->version); c != 0) return c > 0;
    return compare_dotted(a->cuda_variant, b->cuda_variant) > 0;
  });
  return hits;
}
} // namespace

Result<const CatalogArchive*> find_fetch(const Catalog& catalog, const FetchRequest& req) {
  if (req.chosen) return req.chosen;  // resolved once, by the resolver: its choice is the archive
  const auto hits = fetch_hits(catalog, req);
  if (hits.empty())
    return fail(ErrorCode::file_not_found,
                fmt::format("the catalog has no cuDNN {} archive for {}{}", req.version, req.platform,
                            req.cuda.empty() ? "" : fmt::format(" with CUDA {}", req.cuda)),
                "check the version and --platform/--cuda; 'cudnnctl inspect NAME' shows what an archive name holds, and --catalog "
                "takes a newer catalog");
  return hits.front();
}

Result<const CatalogArchive*> resolve_fetch(const Catalog& catalog, const FetchRequest& req) {
  if (req.chosen) return req.chosen;
  CUDNNCTL_TRY_ASSIGN(const CatalogArchive* hit, find_fetch(catalog, req));
  log::info("fetch: {} catalog archives match cuDNN {} for {}{}; chose {} (cuDNN {}, CUDA {})", fetch_hits(catalog, req).size(), req.version,
            req.platform, req.cuda.empty() ? "" : " CUDA " + req.cuda, hit->filename, hit->version, hit->cuda_variant);
  return hit;
}

std::string fetch_url(const CatalogArchive& a, const std::string& mirror) {
  if (mirror.empty()) return a.url;
  std::string rel = a.url.starts_with(k_nvidia) ? a.url.substr(k_nvidia.size()) : a.filename;
  std::string m = mirror;
  while (!m.empty() && m.back() == '/') m.pop_back();
  return m + "/" + rel;
}

namespace {
// A file already in the cache that still matches the catalog fills `out`; one that no longer verifies is
// removed (never kept as valid), and the download starts again.
template <class Known> bool cached_and_valid(const std::string& final_path, const Known& known, FetchOutcome& out) {
  std::error_code ec;
  if (!fs::exists(final_path, ec)) return false;
  if (auto h = sha256_file(final_path); h && known(*h)) {
    log::info("fetch: {} is in the cache and matches the catalog; nothing to download", final_path);
    out.sha256 = *h;
    out.bytes = fs::file_size(final_path, ec);
    return true;
  }
  log::info("fetch: the cached {} does not match the catalog; removed, downloading again", final_path);
  fs::remove(final_path, ec);
  return false;
}
} // namespace

Result<std::string> fetch_cache_path(const Catalog& catalog, const FetchRequest& req) {
  CUDNNCTL_TRY_ASSIGN(const CatalogArchive* hit, resolve_fetch(catalog, req));
  return utf8_of(path_from_utf8(req.cache_dir) / hit->filename);
}

Result<FetchOutcome> fetch_archive(const Catalog& catalog, const FetchRequest& req) {
  CUDNNCTL_TRY_ASSIGN(const CatalogArchive* hit, resolve_fetch(catalog, req));
  const CatalogArchive& a = *hit;
  const auto& expected = a.hashes.front();
  FetchOutcome out;
  out.url = fetch_url(a, req.mirror);
  std::error_code ec;
  fs::create_directories(req.cache_dir, ec);
  const auto final_path = utf8_of(path_from_utf8(req.cache_dir) / a.filename);
  const auto part = final_path + ".part";
  out.path = final_path;
  auto known = [&](const std::string& h) { return std::any_of(a.hashes.begin(), a.hashes.end(), [&](const auto& k) { return k.sha256 == h; }); };
  if (cached_and_valid(final_path, known, out)) return out;  // nothing to download
  if (req.offline)
    return fail(ErrorCode::file_not_found, fmt::format("{} is not in the cache {} and --offline forbids downloading it", a.filename, req.cache_dir),
                "run the command without --offline, or put the archive in the cache (--cache)", final_path);
  ParallelDownload job;
  job.url = out.url;
  job.part_path = part;
  job.expected_size = expected.size;
  job.size_cap = req.size_cap ? req.size_cap : archive_download_cap(catalog);
  if (expected.size) log::info("fetch: {} must be {} bytes, as the catalog says", a.filename, *expected.size);
  else log::info("fetch: the catalog gives no size for {} ({}); at most {} bytes are accepted", a.filename,
                 expected.size_note.empty() ? "no source gives one" : expected.size_note, job.size_cap);
  job.connections = req.connections;
  if (req.chunk_size) job.chunk_size = req.chunk_size;
  job.stall_timeout_s = req.stall_timeout_s;
  job.progress = req.progress;
  job.tail_first = req.tail_first;
  job.on_extents = req.on_extents;
  if (req.on_download_start && expected.size) {
    CUDNNCTL_TRY(platform::PositionalFile::open(part));  // there for the reader to open (never truncated)
    req.on_download_start(part, *expected.size);
  }
  const auto started = std::chrono::steady_clock::now();
  auto downloaded = download_parallel(job);
  if (req.after_download) req.after_download();
  CUDNNCTL_TRY_ASSIGN(const auto got, std::move(downloaded));
  log::info("fetch: {} bytes of {} in {} over {} connection(s){}", got.bytes, got.effective_url, log::elapsed_ms(started), got.connections,
            got.resumed ? " (resumed)" : "");
  out.downloaded = true;
  out.resumed = got.resumed;
  out.connections = got.connections;
  out.effective_url = got.effective_url;
  const auto& h = got.sha256;  // taken in order while the ranges arrived
  if (!known(h)) {
    const auto size = fs::file_size(part, ec);
    fs::remove(part, ec);  // nothing half-written or wrong is kept as valid, nor resumed from
    fs::remove(download_state_path(part), ec);
    return fail(ErrorCode::hash_mismatch,
                fmt::format("the download of {} does not match the catalog: {} bytes with SHA-256 {}, expected {} ({})", a.filename, size, h,
                            expected.sha256, size < expected.size.value_or(0) ? "the transfer was cut short" : "a different file"),
                "the file was removed from the cache; run the command again, or check --mirror", out.url);
  }
  fs::rename(part, final_path, ec);
  if (ec) return fail(ErrorCode::io, fmt::format("cannot move {} to {}: {}", part, final_path, ec.message()), "", final_path);
  out.sha256 = h;
  out.bytes = fs::file_size(final_path, ec);
  return out;
}

} // namespace cudnnctl

#include "cudnnctl/fetch/fetch.hpp"

#include <curl/curl.h>

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

namespace cudnnctl {

namespace fs = std::filesystem;

namespace {
constexpr std::string_view k_nvidia = "https://developer.download.nvidia.com/";

bool version_matches(const std::string& build, const std::string& wanted) {
  return build == wanted || build.starts_with(wanted + ".");
}

struct Sink {
  std::FILE* file = nullptr;
  std::uint64_t written = 0;
  std::uint64_t limit = 0;  // stop past the catalog size
  bool over = false;
  const std::function<void(std::uint64_t, std::uint64_t)>* progress = nullptr;
  std::uint64_t start = 0, total = 0;
};

std::size_t on_data(char* data, std::size_t size, std::size_t n, void* user) {
  auto* s = static_cast<Sink*>(user);
  const std::size_t bytes = size * n;
  if (s->limit && s->start + s->written + bytes > s->limit) {
    s->over = true;
    return 0;
  }
  if (std::fwrite(data, 1, bytes, s->file) != bytes) return 0;
  s->written += bytes;
  if (s->progress && *s->progress) (*s->progress)(s->start + s->written, s->total);
  return bytes;
}
} // namespace

std::string default_cache_dir() {
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return (fs::path(x) / "cudnnctl" / "archives").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".cache" / "cudnnctl" / "archives").string();
  if (const char* l = std::getenv("LOCALAPPDATA"); l && *l) return (fs::path(l) / "cudnnctl" / "archives").string();
  return ".cudnnctl-cache";
}

Result<const CatalogArchive*> resolve_fetch(const Catalog& catalog, const FetchRequest& req) {
  std::vector<const CatalogArchive*> hits;
  for (const auto& a : catalog.archives())
    if (a.platform == req.platform && version_matches(a.version, req.version) && (req.cuda.empty() || a.cuda_variant == req.cuda))
      hits.push_back(&a);
  if (hits.empty())
    return fail(ErrorCode::file_not_found,
                fmt::format("the catalog has no cuDNN {} archive for {}{}", req.version, req.platform,
                            req.cuda.empty() ? "" : fmt::format(" with CUDA {}", req.cuda)),
                "check the version and --platform/--cuda; 'cudnnctl inspect NAME' shows what an archive name holds, and --catalog "
                "takes a newer catalog");
  // the newest build; among variants, the newest CUDA
  std::sort(hits.begin(), hits.end(), [](const CatalogArchive* a, const CatalogArchive* b) {
    if (const int c = compare_dotted(a->version, b->version); c != 0) return c > 0;
    return compare_dotted(a->cuda_variant, b->cuda_variant) > 0;
  });
  log::info("fetch: {} catalog archives match cuDNN {} for {}{}; chose {} (cuDNN {}, CUDA {})", hits.size(), req.version, req.platform,
            req.cuda.empty() ? "" : " CUDA " + req.cuda, hits.front()->filename, hits.front()->version, hits.front()->cuda_variant);
  return hits.front();
}

std::string fetch_url(const CatalogArchive& a, const std::string& mirror) {
  if (mirror.empty()) return a.url;
  std::string rel = a.url.starts_with(k_nvidia) ? a.url.substr(k_nvidia.size()) : a.filename;
  std::string m = mirror;
  while (!m.empty() && m.back() == '/') m.pop_back();
  return m + "/" + rel;
}

Result<FetchOutcome> fetch_archive(const Catalog& catalog, const FetchRequest& req) {
  auto hit = resolve_fetch(catalog, req);
  if (!hit) return Unexpected<Error>(hit.error());
  const CatalogArchive& a = **hit;
  const auto& expected = a.hashes.front();
  FetchOutcome out;
  out.url = fetch_url(a, req.mirror);
  std::error_code ec;
  fs::create_directories(req.cache_dir, ec);
  const auto final_path = (fs::path(req.cache_dir) / a.filename).string();
  const auto part = final_path + ".part";
  out.path = final_path;
  auto known = [&](const std::string& h) {
    for (const auto& k : a.hashes)
      if (k.sha256 == h) return true;
    return false;
  };
  if (fs::exists(final_path, ec)) {
    auto h = sha256_file(final_path);
    if (h && known(*h)) {
      log::info("fetch: {} is in the cache and matches the catalog; nothing to download", final_path);
      out.sha256 = *h;
      out.bytes = fs::file_size(final_path, ec);
      return out;  // cached and still valid: nothing to download
    }
    log::info("fetch: the cached {} does not match the catalog; removed, downloading again", final_path);
    fs::remove(final_path, ec);  // a cached file that no longer verifies is not kept
  }
  std::uint64_t start = fs::exists(part, ec) ? fs::file_size(part, ec) : 0;
  if (expected.size && start > *expected.size) {
    fs::remove(part, ec);
    start = 0;
  }
  std::FILE* f = std::fopen(part.c_str(), start ? "ab" : "wb");
  if (!f) return fail(ErrorCode::io, fmt::format("cannot write to the cache '{}'", part), "choose another --cache folder", part);
  CURL* curl = curl_easy_init();
  Sink sink{f, 0, expected.size.value_or(0), false, &req.progress, start, expected.size.value_or(0)};
  curl_easy_setopt(curl, CURLOPT_URL, out.url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &on_data);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 20L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(req.stall_timeout_s));
  curl_easy_setopt(curl, CURLOPT_USERAGENT, "cudnnctl");
  if (start) curl_easy_setopt(curl, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(start));
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  log::debug("HTTP GET {}{} -> {}", out.url, start ? fmt::format(" (resuming from byte {})", start) : "", part);
  const auto started = std::chrono::steady_clock::now();
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  log::debug("HTTP GET {}: status {}, {} bytes received in {}{}", out.url, status, sink.written, log::elapsed_ms(started),
             rc == CURLE_OK ? "" : fmt::format(", curl error {} ({})", static_cast<int>(rc), errbuf[0] ? errbuf : curl_easy_strerror(rc)));
  curl_easy_cleanup(curl);
  std::fclose(f);
  out.downloaded = true;
  out.resumed = start > 0 && status == 206;
  if (start > 0 && status == 200) {
    // the server ignored the range and sent the whole file after what we had: start again
    fs::remove(part, ec);
    return fail(ErrorCode::io, fmt::format("{} does not support resuming (HTTP 200 to a range request); the partial file was dropped", out.url),
                "run the same command again: it downloads from the start");
  }
  if (sink.over)
    return fail(ErrorCode::hash_mismatch, fmt::format("{} sends more than the catalog's {} bytes for {}", out.url, *expected.size, a.filename),
                "the server sends another file: check --mirror", out.url);
  if (rc != CURLE_OK) {
    const auto have = fs::exists(part, ec) ? fs::file_size(part, ec) : 0;
    return fail(ErrorCode::io,
                fmt::format("downloading {} failed: {} ({} of {} bytes kept in {}, to resume)", out.url,
                            errbuf[0] ? errbuf : curl_easy_strerror(rc), have,
                            expected.size ? std::to_string(*expected.size) : std::string("?"), part),
                status == 404 ? "the file is not at that address: check --mirror and the version"
                              : "run the same command again to resume, or check the network and --mirror",
                out.url);
  }
  auto h = sha256_file(part);
  if (!h) return Unexpected<Error>(h.error());
  if (!known(*h)) {
    const auto size = fs::file_size(part, ec);
    fs::remove(part, ec);  // nothing half-written or wrong is kept as valid
    return fail(ErrorCode::hash_mismatch,
                fmt::format("the download of {} does not match the catalog: {} bytes with SHA-256 {}, expected {} ({})", a.filename, size, *h,
                            expected.sha256, size < expected.size.value_or(0) ? "the transfer was cut short" : "a different file"),
                "the file was removed from the cache; run the command again, or check --mirror", out.url);
  }
  fs::rename(part, final_path, ec);
  if (ec) return fail(ErrorCode::io, fmt::format("cannot move {} to {}: {}", part, final_path, ec.message()), "", final_path);
  out.sha256 = *h;
  out.bytes = fs::file_size(final_path, ec);
  return out;
}

} // namespace cudnnctl

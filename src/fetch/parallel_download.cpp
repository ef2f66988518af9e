// A download over several range requests at once, hashed in order as its prefix grows (see the header).
#include "cudnnctl/fetch/parallel_download.hpp"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/base/utf8_path.hpp"
#include "cudnnctl/fetch/download_refusal.hpp"
#include "cudnnctl/fetch/download_state.hpp"
#include "cudnnctl/fetch/range_plan.hpp"
#include "cudnnctl/fetch/write_batch.hpp"
#include "cudnnctl/platform/files.hpp"
#include "cudnnctl/platform/http.hpp"

namespace cudnnctl {
namespace {
namespace fs = std::filesystem;

enum class Stop { none, changed, no_ranges, failed, refused };  // refused: the server lied or went past a bound (its bytes removed)
enum class RangeEnd { complete, partial, changed, no_ranges, overlong, too_large, lied, redirect, failed };

struct RangeAnswer {
  RangeEnd end = RangeEnd::complete;
  std::uint64_t got = 0;    // bytes written from `first` on
  std::uint64_t limit = 0;  // bytes the answer said it carries (its Content-Range, or the whole body)
  std::string error;
  bool stalled = false;     // no byte for the stall timeout: asked again once per download, not per range
  long status = 0;          // the HTTP status when the transfer failed
  std::string hint{};       // the transport's own fix, when it knows one (e.g. which CA file to set)
  bool capped = false;      // `limit` is the size cap (no size announced, none in the catalog)
};

// One attempt's state; everything but the file and the atomics is guarded by `mu`.
struct Transfer {
  const ParallelDownload& req;
  platform::PositionalFile& file;
  std::mutex mu, save_mu;
  std::condition_variable cv;
  ExtentSet done;
  Validators v;
  bool known = false;       // v came from the server (or a sidecar) in this attempt
  bool legacy = false;      // the .part file came without a sidecar: its prefix, validators unknown
  bool whole = false;       // a 200: one stream of the whole body
  bool finished = false;    // no more bytes will come
  bool dropped = false;     // what an earlier run kept was dropped (another file, or a 200)
  std::string url;          // the first answer's effective URL
  std::deque<ByteRange> queue;
  std::map<std::uint64_t, int> failures;  // by chunk index
  int stalls = 0;           // answers that stalled, in the whole download
  std::chrono::steady_clock::time_point saved_at = std::chrono::steady_clock::now();  // the sidecar's last write
  std::atomic<Stop> stop{Stop::none};
  std::optional<Error> error;
  std::uint64_t hashed = 0;
  Sha256 sha;
  std::thread hasher;

  Transfer(const ParallelDownload& r, platform::PositionalFile& f) : req(r), file(f) {}
  void halt(Stop why, std::optional<Error> e = std::nullopt) {
    std::lock_guard lk(mu);
    if (stop.load() == Stop::none) {
      stop = why;
      if (e) error = std::move(e);
    }
    cv.notify_all();
  }
};

Error download_error(const Transfer& t, const std::string& what, const std::string& hint) {
  return Error{ErrorCode::io, what, hint, t.url.empty() ? t.req.url : t.url};
}

// The hasher: SHA-256 over [hashed, prefix) from the file as the prefix grows, until the last byte.
void hash_prefix(Transfer& t) {
  std::vector<char> buf(1 << 20);
  std::unique_lock lk(t.mu);
  for (;;) {
    t.cv.wait(lk, [&] { return t.done.prefix() > t.hashed || t.finished || t.stop.load() != Stop::none; });
    if (t.stop.load() != Stop::none) return;
    const auto target = t.done.prefix();
    if (target == t.hashed) return;  // finished and everything present hashed
    auto at = t.hashed;
    lk.unlock();
    while (at < target) {
      const auto r = t.file.read_at(at, buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), target - at)));
      if (r <= 0) return t.halt(Stop::failed, download_error(t, "cannot read back " + t.req.part_path + " to hash it", ""));
      t.sha.update(buf.data(), static_cast<std::size_t>(r));
      at += static_cast<std::uint64_t>(r);
    }
    lk.lock();
    t.hashed = target;
  }
}

void start_hasher(Transfer& t) { if (!t.hasher.joinable()) t.hasher = std::thread([&t] { hash_prefix(t); }); }

void save_state(Transfer& t) {
  std::lock_guard save(t.save_mu);
  DownloadState state;
  {
    std::lock_guard lk(t.mu);
    if (t.v.total == 0 || t.legacy) return;
    state = {t.v, t.done};
  }
  // not written: the next run starts over, never resumes from a wrong sidecar
  if (!write_download_state(download_state_path(t.req.part_path), state)) log::info("fetch: cannot write the sidecar of {}", t.req.part_path);
}

void bytes_arrived(Transfer& t, std::uint64_t at, std::size_t n) {
  bool save = false;
  {
    std::lock_guard lk(t.mu);
    const auto before = t.done.prefix();
    t.done.add(at, at + n);
    if (t.req.on_extents) t.req.on_extents(t.done);
    if (t.done.prefix() != before) t.cv.notify_all();
    if (t.req.progress) t.req.progress(t.done.bytes(), t.v.total);
    const auto now = std::chrono::steady_clock::now();
    if (now - t.saved_at >= std::chrono::seconds(1)) {  // a kill loses at most a second of bytes
      t.saved_at = now;
      save = true;
    }
  }
  if (save) save_state(t);
}

// The first answer: a 206 says ranges work and gives the validators; a 200 is the whole body.
RangeAnswer accept_first(Transfer& t, const platform::HttpHead& h, std::uint64_t first, std::optional<std::uint64_t> last) {
  RangeAnswer a;
  std::lock_guard lk(t.mu);
  t.url = h.effective_url.empty() ? t.req.url : h.effective_url;
  // no size in the catalog: the size the server announces is held to the cap before a byte is written
  if (auto over = announced_over_cap(h.status == 200 ? h.content_length : h.total, t.req.expected_size, t.req.size_cap))
    return {RangeEnd::too_large, 0, 0, std::move(*over)};
  if (h.status == 200) {
    t.whole = true;
    t.dropped = t.dropped || t.done.bytes() > 0;
    t.done.clear();
    t.legacy = false;
    t.v = {h.content_length.value_or(t.req.expected_size.value_or(0)), h.etag, h.last_modified};
    a.limit = t.req.expected_size.value_or(h.content_length.value_or(t.req.size_cap));
    a.capped = !t.req.expected_size && !h.content_length;
    if (auto cut = t.file.resize(0); !cut) return {RangeEnd::failed, 0, 0, cut.error().message};
  } else if (h.status == 206 && h.range_first == first && h.total && h.range_last) {
    if (last && *h.range_last > *last) return {RangeEnd::overlong, 0, 0, "a longer range than asked"};
    const Validators now{*h.total, h.etag, h.last_modified};
    if (t.known && !t.legacy && now != t.v) {
      log::info("fetch: the server's file differs from the one the sidecar describes; the kept bytes are dropped");
      t.done.clear();
      t.dropped = true;
    }
    t.v = now;
    t.legacy = false;
    a.limit = *h.range_last - first + 1;
    std::error_code ec;  // a longer .part file of another run: cut, so no stale tail outlives the download
    if (const auto size = fs::file_size(path_from_utf8(t.req.part_path), ec); !ec && size > now.total)
      if (auto cut = t.file.resize(now.total); !cut) return {RangeEnd::failed, 0, 0, cut.error().message};
  } else {
    return {RangeEnd::failed, 0, 0, fmt::format("unexpected answer HTTP {} to a range request", h.status)};
  }
  if (t.req.expected_size && t.v.total && t.v.total != *t.req.expected_size)
    return {RangeEnd::lied, 0, 0, fmt::format("the server's file has {} bytes, the catalog says {}", t.v.total, *t.req.expected_size)};
  t.known = true;
  start_hasher(t);
  return a;
}

// A later range: the same file (validators), the range asked, never a 200.
RangeAnswer accept_later(Transfer& t, const platform::HttpHead& h, std::uint64_t first, std::uint64_t last) {
  std::lock_guard lk(t.mu);
  if (h.status == 200) return {RangeEnd::no_ranges, 0, 0, "the server answered a range request with the whole file"};
  if (h.status != 206 || !h.range_first || !h.range_last)
    return {RangeEnd::failed, 0, 0, fmt::format("unexpected answer HTTP {} to a range request", h.status)};
  if (Validators{h.total.value_or(0), h.etag, h.last_modified} != t.v)
    return {RangeEnd::changed, 0, 0, "the file changed on the server during the download"};
  if (*h.range_first != first) return {RangeEnd::failed, 0, 0, fmt::format("asked for byte {} on, got {} on", first, *h.range_first)};
  if (*h.range_last > last) return {RangeEnd::overlong, 0, 0, fmt::format("asked for bytes {}-{}, got up to {}", first, last, *h.range_last)};
  return {RangeEnd::complete, 0, *h.range_last - first + 1, {}};
}

RangeAnswer fetch_range(Transfer& t, platform::HttpConnection& connection, std::uint64_t first, std::optional<std::uint64_t> last,
                        bool is_first) {
  platform::HttpGet get;
  get.connection = &connection;  // a worker's ranges over one kept-alive connection
  {
    std::lock_guard lk(t.mu);
    get.url = is_first ? t.req.url : t.url;
  }
  get.resume_from = first;
  get.range_last = last;
  get.stall_timeout_s = t.req.stall_timeout_s;
  RangeAnswer a;
  // the bytes are written (and reported as arrived) 1 MiB at a time, or when they have waited 200 ms
  WriteBatch batch(std::size_t{1} << 20, std::chrono::milliseconds(200), [&](std::uint64_t at, const char* p, std::size_t n) -> Result<void> {
    CUDNNCTL_TRY(t.file.write_at(at, p, n));
    bytes_arrived(t, at, n);
    return {};
  });
  auto on_head = [&](const platform::HttpHead& h) {
    a = is_first ? accept_first(t, h, first, last) : accept_later(t, h, first, *last);
    if (is_first && a.end == RangeEnd::complete) save_state(t);  // before the first byte: a kill leaves a sidecar
    return a.end == RangeEnd::complete;
  };
  auto on_data = [&](const char* p, std::size_t n) {
    if (t.stop.load() != Stop::none) return false;
    if (a.got + n > a.limit) {
      a.end = a.capped ? RangeEnd::too_large : RangeEnd::overlong;
      a.error = a.capped ? sent_past_cap(a.limit) : fmt::format("more than the {} bytes announced from byte {} on", a.limit, first);
      return false;
    }
    if (auto w = batch.add((t.whole ? 0 : first) + a.got, p, n); !w) {
      a.end = RangeEnd::failed;
      a.error = w.error().message;
      return false;
    }
    a.got += n;
    return true;
  };
  log::debug("HTTP GET {} bytes {}-{}", get.url, first, last ? std::to_string(*last) : std::string());
  const auto got = platform::http_get(get, on_data, on_head);
  // an over-long answer is another file than announced, one past the cap is refused: nothing more of either is written
  if (a.end != RangeEnd::overlong && a.end != RangeEnd::too_large)
    if (auto w = batch.flush(); !w && a.end == RangeEnd::complete) {
      a.end = RangeEnd::failed;
      a.error = w.error().message;
    }
  if (a.end != RangeEnd::complete) return a;
  if (!got.ok) {
    a.end = got.redirect_refused ? RangeEnd::redirect : got.status >= 400 ? RangeEnd::failed : RangeEnd::partial;
    a.error = got.error;
    a.hint = got.hint;
    a.status = got.status;
    a.stalled = got.timed_out;
  } else if (!t.whole && a.got < a.limit) {
    a.end = RangeEnd::partial;
    a.error = fmt::format("{} of {} bytes announced", a.got, a.limit);
  }
  return a;
}

// What a range's answer means for the queue: the rest asked again (bounded), or the whole attempt stops.
void settle_range(Transfer& t, ByteRange r, const RangeAnswer& a) {
  std::unique_lock lk(t.mu);
  const auto chunk = t.req.chunk_size ? r.first / t.req.chunk_size : 0;
  const auto rest = [&] { return ByteRange{r.first + a.got, r.last}; };
  switch (a.end) {
  case RangeEnd::complete:
    if (a.got < r.size()) t.queue.push_front(rest());  // a short range: the rest again
    break;
  case RangeEnd::partial:
    if (const int tries = ++t.failures[chunk]; tries > t.req.retries_per_range || (a.stalled && ++t.stalls > 1)) {
      lk.unlock();
      return t.halt(Stop::failed, download_error(t, fmt::format("bytes {}-{} failed {} times: {}", r.first, r.last, tries, a.error),
                                                 !a.hint.empty() ? a.hint : "run the same command again to resume, or check the network and --mirror"));
    }
    log::info("fetch: bytes {}-{}: {}; asking again for bytes {} on", r.first, r.last, a.error, r.first + a.got);
    t.queue.push_front(rest());
    break;
  case RangeEnd::changed:
  case RangeEnd::no_ranges:
    lk.unlock();
    return t.halt(a.end == RangeEnd::changed ? Stop::changed : Stop::no_ranges);
  case RangeEnd::overlong:
  case RangeEnd::lied:
  case RangeEnd::too_large:
  case RangeEnd::redirect:
    lk.unlock();
    return t.halt(Stop::refused, a.end == RangeEnd::too_large ? past_cap(t.url, a.error)
                                 : a.end == RangeEnd::redirect ? refused_redirect(t.req.url, a.error)
                                                               : lying_server(t.url, a.error));
  case RangeEnd::failed:
    lk.unlock();
    return t.halt(Stop::failed, download_error(t, fmt::format("downloading {} failed: {}", t.url, a.error),
                                               !a.hint.empty()                          ? a.hint
                                               : a.error.find("404") != std::string::npos ? "the file is not at that address: check --mirror and the version"
                                                                                          : "check the network and --mirror"));
  }
  lk.unlock();
  save_state(t);
}

void range_worker(Transfer& t) {
  platform::HttpConnection connection;
  for (;;) {
    ByteRange r;
    {
      std::lock_guard lk(t.mu);
      if (t.stop.load() != Stop::none || t.queue.empty()) return;
      r = t.queue.front();
      t.queue.pop_front();
    }
    settle_range(t, r, fetch_range(t, connection, r.first, r.last, false));
  }
}

// What an earlier run left (nothing when asked to start afresh).
void load_prior(Transfer& t, bool fresh) {
  if (fresh) return;
  auto prior = read_prior_download(t.req.part_path, t.req.expected_size);
  std::tie(t.v, t.done, t.known, t.legacy) = std::tuple(std::move(prior.validators), std::move(prior.done), prior.known, prior.legacy);
}

struct Attempt {
  Stop stop = Stop::none;
  std::uint64_t total = 0;  // when it stopped: the file's size as known
  std::optional<Error> error;
  DownloadOutcome out;
};

// The first request: from the first missing byte, up to 1 MiB (to the end with one connection; no range at all
// when nothing is kept and one connection is asked, like a plain GET).
void first_request(Transfer& t, bool single) {
  const auto from = t.done.first_gap(0);
  std::optional<std::uint64_t> last;
  if (!single) last = from + std::min<std::uint64_t>(t.req.chunk_size, 1 << 20) - 1;  // short: the others start once it is in
  if (last && t.known && t.v.total) last = std::min(*last, t.v.total - 1);
  platform::HttpConnection connection;
  const auto a = fetch_range(t, connection, from, last, true);
  std::unique_lock lk(t.mu);
  if (a.end == RangeEnd::partial && !t.whole && t.known && a.got > 0) {
    ++t.failures[from / std::max<std::uint64_t>(t.req.chunk_size, 1)];
    t.stalls += a.stalled ? 1 : 0;
    return;  // the rest is planned with everything else
  }
  lk.unlock();
  if (a.end == RangeEnd::partial)  // cut before any useful byte, or a whole body cut: the next run resumes
    return t.halt(Stop::failed, download_error(t, fmt::format("downloading {} failed: {}", t.url.empty() ? t.req.url : t.url, a.error),
                                               !a.hint.empty() ? a.hint : "run the same command again to resume, or check the network and --mirror"));
  if (a.end == RangeEnd::failed && a.status == 416 && from > 0) {  // the kept bytes reach past the server's file now
    log::info("fetch: HTTP 416 for bytes {} on: the file on the server is shorter than the one kept; starting again", from);
    return t.halt(Stop::changed);
  }
  if (a.end != RangeEnd::complete) settle_range(t, ByteRange{from, last.value_or(from)}, a);
}

Attempt run_attempt(const ParallelDownload& req, platform::PositionalFile& file, bool fresh, bool single) {
  Transfer t(req, file);
  load_prior(t, fresh);
  Attempt result;
  result.out.resumed = t.done.bytes() > 0;
  const bool complete = t.known && t.v.total && t.done.covers(0, t.v.total);
  if (complete) {  // an earlier run had every byte: only the hash is left
    if (auto sized = file.resize(t.v.total); !sized) t.halt(Stop::failed, sized.error());
    if (req.on_extents) req.on_extents(t.done);
    start_hasher(t);
  }
  else first_request(t, single || req.connections == 1);
  if (t.stop.load() == Stop::none && !t.whole && t.known) {
    std::unique_lock lk(t.mu);
    auto plan = plan_ranges(t.v.total, single || req.connections == 1 ? t.v.total : req.chunk_size, t.done);
    if (req.tail_first) put_tail_first(plan);
    result.out.connections = choose_connections(req.connections, plan.size());
    taper_tail(plan, result.out.connections, std::max<std::uint64_t>(req.chunk_size / 4, 1));
    t.queue.assign(plan.begin(), plan.end());
    lk.unlock();
    log::info("fetch: {} bytes in {} ranges over {} connections from {}", t.v.total, plan.size(), result.out.connections, t.url);
    std::vector<std::thread> workers;
    for (int i = 0; i < result.out.connections && !plan.empty(); ++i) workers.emplace_back([&t] { range_worker(t); });
    for (auto& w : workers) w.join();
  }
  {
    std::lock_guard lk(t.mu);
    t.finished = true;
    if (t.whole && t.stop.load() == Stop::none) t.v.total = t.done.prefix();
    if (t.stop.load() == Stop::none && (t.done.prefix() < t.v.total || !t.known)) {
      t.stop = Stop::failed;
      t.error = download_error(t, "the download ended with bytes missing", "run the same command again to resume");
    }
    t.cv.notify_all();
  }
  if (t.hasher.joinable()) t.hasher.join();
  result.stop = t.stop.load();
  result.error = t.error;
  if (result.stop != Stop::none) {
    save_state(t);
    std::lock_guard lk(t.mu);
    result.out.bytes = t.done.bytes();
    result.total = t.v.total;
    return result;
  }
  result.out.sha256 = t.sha.finish();
  result.out.bytes = t.v.total;
  result.out.effective_url = t.url.empty() ? req.url : t.url;
  result.out.ranges = !t.whole;
  result.out.resumed = result.out.resumed && !t.dropped;
  if (t.whole) result.out.connections = 1;
  return result;
}

void drop_partial(const ParallelDownload& req) {
  if (req.on_extents) req.on_extents(ExtentSet{});  // a reader of the file: what it was told is gone
  remove_partial_download(req.part_path, true);
}
} // namespace

Result<DownloadOutcome> download_parallel(const ParallelDownload& req) {
  bool fresh = false, single = false;
  for (int restarts = 0;; ) {
    Attempt a;
    {
      CUDNNCTL_TRY_ASSIGN(auto file, platform::PositionalFile::open(req.part_path));
      a = run_attempt(req, file, fresh, single);
      CUDNNCTL_TRY(file.close());
    }
    if (a.stop == Stop::none) {
      remove_partial_download(req.part_path, false);  // the sidecar only: the file is whole
      a.out.restarts = restarts;
      return a.out;
    }
    if (a.stop == Stop::changed && restarts == 0) {
      log::info("fetch: {} changed on the server during the download (ETag, Last-Modified or size); starting again", req.url);
      drop_partial(req);
      fresh = true;
      ++restarts;
      continue;
    }
    if (a.stop == Stop::changed || a.stop == Stop::refused) {  // none of the bytes of a server that lied is resumed from
      log::info("fetch: {} refused; {} and its sidecar removed", req.url, req.part_path);
      drop_partial(req);
      return Unexpected<Error>(a.stop == Stop::changed || !a.error ? changed_twice(req.url) : *a.error);
    }
    if (a.stop == Stop::no_ranges && !single) {
      log::info("fetch: {} stopped honouring range requests; one connection for the whole file", req.url);
      drop_partial(req);
      fresh = single = true;
      continue;
    }
    if (a.error) {
      Error e = *a.error;
      if (e.code == ErrorCode::io)
        e.message += fmt::format(" ({} of {} bytes kept in {}, to resume)", a.out.bytes, a.total ? std::to_string(a.total) : std::string("?"), req.part_path);
      return Unexpected<Error>(e);
    }
    return fail(ErrorCode::io, fmt::format("downloading {} failed", req.url), "run the same command again", req.url);
  }
}

} // namespace cudnnctl

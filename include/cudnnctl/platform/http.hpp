#pragma once
// One HTTP(S) GET with the body streamed to a callback: libcurl on POSIX, WinHTTP on Windows (no curl or
// OpenSSL in the Windows build). Redirects are followed, at most `max_redirects` of them, each to the same
// scheme or from http up to https (never https down to http, never file:// or another protocol), each hop
// logged (-v); an HTTP error status fails the transfer.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace cudnnctl::platform {

/// What one request leaves for the next one made through the same object: libcurl's handle with its open
/// connection (HTTP keep-alive) and TLS session, so a download's successive ranges on one worker do not each
/// pay a TCP and a TLS handshake (a round trip or three per range, from a far server). One thread at a time;
/// move-only. Windows: nothing is kept yet (each request opens its own WinHTTP session).
class HttpConnection {
public:
  HttpConnection() = default;
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;
  void* handle = nullptr;  // the implementation's (POSIX: a CURL easy handle)
};

/// Redirects one request follows at most (NVIDIA's server answers directly; a CDN or a mirror may add one or two).
inline constexpr int k_http_max_redirects = 5;

struct HttpGet {
  std::string url;
  std::uint64_t resume_from = 0;  // > 0: ask for the bytes from here on (Range)
  /// Set: ask for `Range: bytes=resume_from-range_last` (the last byte included), even from byte 0.
  std::optional<std::uint64_t> range_last;
  int connect_timeout_s = 20;
  int stall_timeout_s = 60;       // abort when no byte arrives for this long
  std::string user_agent = "cudnnctl";
  HttpConnection* connection = nullptr;  // set: reuse what it keeps, and keep what this request opens
  int max_redirects = k_http_max_redirects;
};

/// What the final response (after redirects) says about itself.
struct HttpHead {
  long status = 0;
  std::string effective_url;                    // the URL that answered, after redirects
  std::optional<std::uint64_t> content_length;  // Content-Length
  std::optional<std::uint64_t> range_first, range_last, total;  // Content-Range: bytes first-last/total
  std::string etag, last_modified;
};

struct HttpResult {
  bool ok = false;   // the whole body arrived with a 2xx status
  long status = 0;   // the final HTTP status (0: no response)
  std::string error; // why not ok, e.g. "The requested URL returned error: 404"
  std::string hint;  // what to do, when the transport knows better than "try again" (e.g. which CA file to set)
  bool timed_out = false;  // stopped by the stall or connect timeout
  bool redirect_refused = false;  // more than max_redirects, or a redirect to another scheme than allowed
  HttpHead head;     // the final response's facts (status, validators, Content-Range, effective URL)
};

/// Called once with the final response's head before its first body byte reaches `on_data` (also for an
/// empty body); returning false aborts the transfer (ok = false).
using HttpHeadFn = std::function<bool(const HttpHead&)>;

/// Streams the body to `on_data`; returning false from it aborts the transfer (ok = false).
/// A server that answers a range request with 200 (the whole file) is reported with status 200 and
/// ok = false before any byte reaches `on_data` on Windows when no `on_head` is given; callers treat it
/// as "cannot resume". With `on_head`, the caller decides from the head.
HttpResult http_get(const HttpGet& request, const std::function<bool(const char*, std::size_t)>& on_data,
                    const HttpHeadFn& on_head = {});

/// Folds one raw header line ("Name: value", CR LF included or not) into `head` (OS-independent, shared by
/// both implementations): Content-Length, Content-Range, ETag, Last-Modified; a status line
/// ("HTTP/1.1 302 ...") starts a new response and clears what an earlier one (a redirect) said.
void take_http_header_line(HttpHead& head, std::string_view line);
/// "bytes 0-99/1000" -> first, last, total ("bytes */1000": total only). False when malformed.
bool parse_content_range(std::string_view value, HttpHead& head);
/// The Range header's value for a request: "bytes=a-b", "bytes=a-", or empty (no range).
std::string http_range_value(const HttpGet& request);

} // namespace cudnnctl::platform

#pragma once
// One HTTP(S) GET with the body streamed to a callback: libcurl on POSIX, WinHTTP on Windows (no curl or
// OpenSSL in the Windows build). Redirects are followed; an HTTP error status fails the transfer.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace cudnnctl::platform {

struct HttpGet {
  std::string url;
  std::uint64_t resume_from = 0;  // > 0: ask for the bytes from here on (Range)
  int connect_timeout_s = 20;
  int stall_timeout_s = 60;       // abort when no byte arrives for this long
  std::string user_agent = "cudnnctl";
};

struct HttpResult {
  bool ok = false;   // the whole body arrived with a 2xx status
  long status = 0;   // the final HTTP status (0: no response)
  std::string error; // why not ok, e.g. "The requested URL returned error: 404"
  std::string hint;  // what to do, when the transport knows better than "try again" (e.g. which CA file to set)
};

/// Streams the body to `on_data`; returning false from it aborts the transfer (ok = false).
/// A server that answers a range request with 200 (the whole file) is reported with status 200 and
/// ok = false before any byte reaches `on_data` on Windows; callers treat it as "cannot resume".
HttpResult http_get(const HttpGet& request, const std::function<bool(const char*, std::size_t)>& on_data);

} // namespace cudnnctl::platform

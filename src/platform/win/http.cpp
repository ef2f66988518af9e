// HTTP(S) GET through WinHTTP (Windows builds: TLS and proxies as the system configures them).
#include "cudnnctl/platform/http.hpp"

#include <windows.h>
#include <winhttp.h>

#include <utility>
#include <vector>

#include "cudnnctl/base/log.hpp"
#include "wide.hpp"

namespace cudnnctl::platform {

namespace {
struct Handle {
  HINTERNET h = nullptr;
  ~Handle() {
    if (h) WinHttpCloseHandle(h);
  }
};

std::string winhttp_error(DWORD code) {
  // the texts live in winhttp.dll's message table, not the system's
  wchar_t* buf = nullptr;
  FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_HMODULE | FORMAT_MESSAGE_IGNORE_INSERTS,
                 GetModuleHandleW(L"winhttp.dll"), code, 0, reinterpret_cast<wchar_t*>(&buf), 0, nullptr);
  std::string text = buf ? win::narrow(buf) : std::string();
  if (buf) LocalFree(buf);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return (text.empty() ? "request failed" : text) + " (WinHTTP error " + std::to_string(code) + ")";
}

// One header of the final response as text (empty when absent).
std::string query_header(HINTERNET request, DWORD which) {
  DWORD bytes = 0;
  WinHttpQueryHeaders(request, which, WINHTTP_HEADER_NAME_BY_INDEX, WINHTTP_NO_OUTPUT_BUFFER, &bytes, WINHTTP_NO_HEADER_INDEX);
  if (GetLastError() != ERROR_INSUFFICIENT_BUFFER || bytes == 0) return {};
  std::wstring value(bytes / sizeof(wchar_t) + 1, L'\0');
  if (!WinHttpQueryHeaders(request, which, WINHTTP_HEADER_NAME_BY_INDEX, value.data(), &bytes, WINHTTP_NO_HEADER_INDEX)) return {};
  value.resize(bytes / sizeof(wchar_t));
  return win::narrow(value);
}

// The response facts through the same line parser as the POSIX build.
HttpHead read_head(HINTERNET request, long status) {
  HttpHead head;
  head.status = status;
  const std::pair<DWORD, const char*> names[] = {{WINHTTP_QUERY_CONTENT_LENGTH, "Content-Length"},
                                                 {WINHTTP_QUERY_CONTENT_RANGE, "Content-Range"},
                                                 {WINHTTP_QUERY_ETAG, "ETag"},
                                                 {WINHTTP_QUERY_LAST_MODIFIED, "Last-Modified"}};
  for (const auto& [which, name] : names)
    if (const auto value = query_header(request, which); !value.empty()) take_http_header_line(head, std::string(name) + ": " + value);
  DWORD bytes = 0;
  WinHttpQueryOption(request, WINHTTP_OPTION_URL, nullptr, &bytes);
  if (bytes > 0) {
    std::wstring url(bytes / sizeof(wchar_t) + 1, L'\0');
    if (WinHttpQueryOption(request, WINHTTP_OPTION_URL, url.data(), &bytes)) {
      url.resize(bytes / sizeof(wchar_t));
      while (!url.empty() && url.back() == L'\0') url.pop_back();
      head.effective_url = win::narrow(url);
    }
  }
  return head;
}
// At most `hops` redirects, never from https down to http (WinHTTP follows only http and https).
void limit_redirects(HINTERNET request, int hops) {
  DWORD most = static_cast<DWORD>(hops), policy = WINHTTP_OPTION_REDIRECT_POLICY_DISALLOW_HTTPS_TO_HTTP;
  WinHttpSetOption(request, WINHTTP_OPTION_MAX_HTTP_AUTOMATIC_REDIRECTS, &most, sizeof most);
  WinHttpSetOption(request, WINHTTP_OPTION_REDIRECT_POLICY, &policy, sizeof policy);
}

// A failed request: marked as a refused redirect when WinHTTP says so.
HttpResult redirect_failure(HttpResult out, int hops) {
  if (out.error.find("(WinHTTP error " + std::to_string(ERROR_WINHTTP_REDIRECT_FAILED) + ")") == std::string::npos) return out;
  out.redirect_refused = true;
  out.error = "more than " + std::to_string(hops) + " redirects, or a redirect from https to http: " + out.error;
  return out;
}
} // namespace

HttpConnection::~HttpConnection() = default;  // nothing kept yet: each request opens its own WinHTTP session

HttpResult http_get(const HttpGet& req, const std::function<bool(const char*, std::size_t)>& on_data, const HttpHeadFn& on_head) {
  HttpResult out;
  auto fail = [&](DWORD code) {
    out.error = winhttp_error(code);
    out.timed_out = code == ERROR_WINHTTP_TIMEOUT;
    return out;
  };
  const std::wstring url = win::widen(req.url);
  URL_COMPONENTS parts{};
  parts.dwStructSize = sizeof parts;
  parts.dwHostNameLength = parts.dwUrlPathLength = parts.dwExtraInfoLength = parts.dwSchemeLength = static_cast<DWORD>(-1);
  if (!WinHttpCrackUrl(url.c_str(), 0, 0, &parts)) return fail(GetLastError());
  const std::wstring host(parts.lpszHostName, parts.dwHostNameLength);
  std::wstring path(parts.lpszUrlPath, parts.dwUrlPathLength);
  path.append(parts.lpszExtraInfo, parts.dwExtraInfoLength);
  const bool https = parts.nScheme == INTERNET_SCHEME_HTTPS;

  Handle session{WinHttpOpen(win::widen(req.user_agent).c_str(), WINHTTP_ACCESS_TYPE_AUTOMATIC_PROXY, WINHTTP_NO_PROXY_NAME,
                             WINHTTP_NO_PROXY_BYPASS, 0)};
  if (!session.h)  // before Windows 8.1: no automatic proxy
    session.h = WinHttpOpen(win::widen(req.user_agent).c_str(), WINHTTP_ACCESS_TYPE_DEFAULT_PROXY, WINHTTP_NO_PROXY_NAME,
                            WINHTTP_NO_PROXY_BYPASS, 0);
  if (!session.h) return fail(GetLastError());
  const int connect_ms = req.connect_timeout_s * 1000, stall_ms = req.stall_timeout_s * 1000;
  WinHttpSetTimeouts(session.h, connect_ms, connect_ms, stall_ms, stall_ms);
  Handle connection{WinHttpConnect(session.h, host.c_str(), parts.nPort, 0)};
  if (!connection.h) return fail(GetLastError());
  const wchar_t* accept[] = {L"*/*", nullptr};
  Handle request{WinHttpOpenRequest(connection.h, L"GET", path.c_str(), nullptr, WINHTTP_NO_REFERER, accept,
                                    https ? WINHTTP_FLAG_SECURE : 0)};
  if (!request.h) return fail(GetLastError());
  limit_redirects(request.h, req.max_redirects);
  std::wstring headers;
  if (const auto range = http_range_value(req); !range.empty()) headers = L"Range: " + win::widen(range) + L"\r\n";
  if (!WinHttpSendRequest(request.h, headers.empty() ? WINHTTP_NO_ADDITIONAL_HEADERS : headers.c_str(),
                          headers.empty() ? 0 : static_cast<DWORD>(-1L), WINHTTP_NO_REQUEST_DATA, 0, 0, 0) ||
      !WinHttpReceiveResponse(request.h, nullptr))
    return redirect_failure(fail(GetLastError()), req.max_redirects);
  DWORD status = 0, size = sizeof status;
  if (!WinHttpQueryHeaders(request.h, WINHTTP_QUERY_STATUS_CODE | WINHTTP_QUERY_FLAG_NUMBER, WINHTTP_HEADER_NAME_BY_INDEX, &status,
                           &size, WINHTTP_NO_HEADER_INDEX))
    return fail(GetLastError());
  out.status = static_cast<long>(status);
  out.head = read_head(request.h, out.status);
  if (out.head.effective_url != req.url && !out.head.effective_url.empty()) log::info("HTTP: redirected to {}", out.head.effective_url);
  if (status >= 400) {
    out.error = "The requested URL returned error: " + std::to_string(status);
    return out;
  }
  if (on_head) {
    if (!on_head(out.head)) {
      out.error = "the transfer was stopped";
      return out;
    }
  } else if (req.resume_from && status == 200) {
    out.error = "the server ignored the range request";
    return out;
  }
  std::vector<char> buf(1 << 16);
  for (;;) {
    DWORD got = 0;
    if (!WinHttpReadData(request.h, buf.data(), static_cast<DWORD>(buf.size()), &got)) return fail(GetLastError());
    if (got == 0) break;
    if (!on_data(buf.data(), got)) {
      out.error = "the transfer was stopped";
      return out;
    }
  }
  out.ok = true;
  return out;
}

} // namespace cudnnctl::platform

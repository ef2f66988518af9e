// HTTP GET through libcurl (POSIX builds).
#include "cudnnctl/platform/http.hpp"

#include <algorithm>
#include <string_view>

#include <curl/curl.h>
#include <fmt/format.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/ca_certificates.hpp"

namespace cudnnctl::platform {

namespace {
using Sink = std::function<bool(const char*, std::size_t)>;

// One transfer's state for the callbacks: the head as its lines arrive, handed over once before the body.
struct Transfer {
  CURL* curl = nullptr;
  const Sink* sink = nullptr;
  const HttpHeadFn* on_head = nullptr;
  HttpHead head;
  bool head_given = false, head_refused = false;
  int hops = 0;               // redirects followed so far
  std::string last_location;  // the last redirect's target

  bool give_head() {
    if (head_given) return !head_refused;
    head_given = true;
    long code = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &code);
    if (code) head.status = code;
    char* url = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_EFFECTIVE_URL, &url) == CURLE_OK && url) head.effective_url = url;
    head_refused = on_head && *on_head && !(*on_head)(head);
    return !head_refused;
  }
};

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  const std::size_t bytes = size * n;
  auto& t = *static_cast<Transfer*>(user);
  if (!t.give_head()) return 0;
  return (*t.sink)(data, bytes) ? bytes : 0;
}

std::size_t on_header_line(char* data, std::size_t size, std::size_t n, void* user) {
  auto& t = *static_cast<Transfer*>(user);
  const std::string_view line(data, size * n);
  take_http_header_line(t.head, line);
  // a redirect's target: each hop logged, the last one kept for the error when the hops end badly
  if (t.head.status >= 300 && t.head.status < 400 && line.size() > 9 && (line[0] == 'L' || line[0] == 'l') &&
      (line.substr(1, 8) == "ocation:" || line.substr(1, 8) == "OCATION:")) {
    auto target = line.substr(9);
    while (!target.empty() && (target.front() == ' ' || target.front() == '\t')) target.remove_prefix(1);
    while (!target.empty() && (target.back() == '\r' || target.back() == '\n' || target.back() == ' ')) target.remove_suffix(1);
    t.last_location = std::string(target);
    log::info("HTTP {} redirect {}: to {}", t.head.status, ++t.hops, t.last_location);
  }
  return size * n;
}

bool is_https(std::string_view url) { return url.substr(0, 8) == "https://" || url.substr(0, 8) == "HTTPS://"; }

// The server's certificate could not be checked against the trusted CAs (or the CA file was unreadable).
bool is_trust_failure(CURLcode rc) { return rc == CURLE_PEER_FAILED_VERIFICATION || rc == CURLE_SSL_CACERT_BADFILE; }

// Tells libcurl which CA certificates to trust (the host's, found per distribution; not the path the
// library was built with, which a portable binary cannot know).
void trust_ca_certificates(CURL* curl, const CaCertificates& ca) {
  if (!ca.file.empty()) curl_easy_setopt(curl, CURLOPT_CAINFO, ca.file.c_str());
  if (!ca.dir.empty()) curl_easy_setopt(curl, CURLOPT_CAPATH, ca.dir.c_str());
}
} // namespace

HttpConnection::~HttpConnection() {
  if (handle) curl_easy_cleanup(static_cast<CURL*>(handle));
}

HttpResult http_get(const HttpGet& req, const Sink& on_data, const HttpHeadFn& on_head) {
  HttpResult out;
  CURL* curl = nullptr;
  if (req.connection && req.connection->handle) {  // the same handle: its connection cache and TLS sessions stay
    curl = static_cast<CURL*>(req.connection->handle);
    curl_easy_reset(curl);
  } else {
    curl = curl_easy_init();
  }
  if (!curl) {
    out.error = "cannot start libcurl";
    return out;
  }
  curl_easy_setopt(curl, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &on_body);
  Transfer transfer{curl, &on_data, &on_head, {}, false, false, 0, {}};
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &on_header_line);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, static_cast<long>(req.max_redirects));
  // http and https only (a mirror URL or a redirect never reads file:// or others); a redirect keeps the
  // scheme or goes up from http to https, never down from https
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, is_https(req.url) ? "https" : "http,https");
  // SSL_CERT_FILE / SSL_CERT_DIR (a site's or a test's CA), else the distribution's bundle
  const auto ca = find_host_ca_certificates();
  if (ca.found()) {
    log::info("TLS: trusting the CA certificates in {}", ca.describe());
    trust_ca_certificates(curl, ca);
  } else if (is_https(req.url)) {
    if (req.connection) req.connection->handle = nullptr;
    curl_easy_cleanup(curl);
    out.error = ca.problem;
    out.hint = ca_certificates_fix();
    return out;
  }
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(req.connect_timeout_s));
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(req.stall_timeout_s));
  curl_easy_setopt(curl, CURLOPT_USERAGENT, req.user_agent.c_str());
  // a receive buffer of 256 KiB (libcurl's default is 16 KiB): a fast connection is read in a few thousand
  // recv calls instead of tens of thousands (the write callback still gets at most 16 KiB at a time)
  curl_easy_setopt(curl, CURLOPT_BUFFERSIZE, std::min(256L << 10, static_cast<long>(CURL_MAX_READ_SIZE)));
  const std::string range = http_range_value(req);
  // "a-b" or "a-" without "bytes=": curl then leaves a 200 answer to the caller (its head callback decides)
  if (req.range_last || (on_head && req.resume_from)) curl_easy_setopt(curl, CURLOPT_RANGE, range.c_str() + 6);
  else if (req.resume_from) curl_easy_setopt(curl, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(req.resume_from));
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
  const bool head_ok = rc != CURLE_OK || transfer.give_head();  // an empty body: the head is handed over now
  if (req.connection) req.connection->handle = curl;  // kept (libcurl closes a connection it cannot reuse)
  else curl_easy_cleanup(curl);
  out.head = transfer.head;
  out.head.status = out.status;
  out.ok = rc == CURLE_OK && head_ok;
  out.timed_out = rc == CURLE_OPERATION_TIMEDOUT;
  if (transfer.head_refused) out.error = "the transfer was stopped";
  else if (!out.ok) out.error = errbuf[0] ? errbuf : curl_easy_strerror(rc);
  if (rc == CURLE_TOO_MANY_REDIRECTS) {
    out.redirect_refused = true;
    out.error = fmt::format("more than {} redirects (the last to {})", req.max_redirects, transfer.last_location);
  } else if (rc == CURLE_UNSUPPORTED_PROTOCOL && transfer.hops > 0) {
    out.redirect_refused = true;
    out.error = fmt::format("a redirect to {} was refused: from {} only {} is followed", transfer.last_location,
                            is_https(req.url) ? "https" : "http", is_https(req.url) ? "https" : "http or https");
  }
  if (is_trust_failure(rc) && ca.found()) {
    out.error += "; the server's certificate was checked against the CA certificates in " + ca.describe();
    out.hint = "if the server is the one you meant, set SSL_CERT_FILE to a PEM file holding the CA that signed its certificate";
  } else if (is_trust_failure(rc)) {
    out.error += "; " + ca.problem;
    out.hint = ca_certificates_fix();
  }
  return out;
}

} // namespace cudnnctl::platform

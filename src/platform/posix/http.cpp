// HTTP GET through libcurl (POSIX builds).
#include "cudnnctl/platform/http.hpp"

#include <cstdlib>

#include <curl/curl.h>

namespace cudnnctl::platform {

namespace {
using Sink = std::function<bool(const char*, std::size_t)>;

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  const std::size_t bytes = size * n;
  return (*static_cast<const Sink*>(user))(data, bytes) ? bytes : 0;
}
} // namespace

HttpResult http_get(const HttpGet& req, const Sink& on_data) {
  HttpResult out;
  CURL* curl = curl_easy_init();
  if (!curl) {
    out.error = "cannot start libcurl";
    return out;
  }
  curl_easy_setopt(curl, CURLOPT_URL, req.url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &on_data);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  // http and https only, redirects included (a mirror URL or a redirect never reads file:// or others)
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  // the trust store curl's own tool honours: SSL_CERT_FILE / SSL_CERT_DIR (a site's or a test's CA)
  if (const char* f = std::getenv("SSL_CERT_FILE"); f && *f) curl_easy_setopt(curl, CURLOPT_CAINFO, f);
  if (const char* d = std::getenv("SSL_CERT_DIR"); d && *d) curl_easy_setopt(curl, CURLOPT_CAPATH, d);
  curl_easy_setopt(curl, CURLOPT_FAILONERROR, 1L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, static_cast<long>(req.connect_timeout_s));
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(curl, CURLOPT_LOW_SPEED_TIME, static_cast<long>(req.stall_timeout_s));
  curl_easy_setopt(curl, CURLOPT_USERAGENT, req.user_agent.c_str());
  if (req.resume_from) curl_easy_setopt(curl, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(req.resume_from));
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
  curl_easy_cleanup(curl);
  out.ok = rc == CURLE_OK;
  if (!out.ok) out.error = errbuf[0] ? errbuf : curl_easy_strerror(rc);
  return out;
}

} // namespace cudnnctl::platform

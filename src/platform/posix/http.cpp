// HTTP GET through libcurl (POSIX builds).
#include "cudnnctl/platform/http.hpp"

#include <string_view>

#include <curl/curl.h>

#include "cudnnctl/base/log.hpp"
#include "cudnnctl/platform/ca_certificates.hpp"

namespace cudnnctl::platform {

namespace {
using Sink = std::function<bool(const char*, std::size_t)>;

std::size_t on_body(char* data, std::size_t size, std::size_t n, void* user) {
  const std::size_t bytes = size * n;
  return (*static_cast<const Sink*>(user))(data, bytes) ? bytes : 0;
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
  // SSL_CERT_FILE / SSL_CERT_DIR (a site's or a test's CA), else the distribution's bundle
  const auto ca = find_host_ca_certificates();
  if (ca.found()) {
    log::info("TLS: trusting the CA certificates in {}", ca.describe());
    trust_ca_certificates(curl, ca);
  } else if (is_https(req.url)) {
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
  if (req.resume_from) curl_easy_setopt(curl, CURLOPT_RESUME_FROM_LARGE, static_cast<curl_off_t>(req.resume_from));
  char errbuf[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, errbuf);
  const CURLcode rc = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
  curl_easy_cleanup(curl);
  out.ok = rc == CURLE_OK;
  if (!out.ok) out.error = errbuf[0] ? errbuf : curl_easy_strerror(rc);
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

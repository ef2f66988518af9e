// Finding the CA certificates an HTTPS download trusts: the variables first, then the distributions' places.
#include "cudnnctl/platform/ca_certificates.hpp"

#include <filesystem>
#include <system_error>

namespace cudnnctl::platform {

namespace {

constexpr const char* k_ca_folder = "/etc/ssl/certs";

constexpr const char* k_what_to_set = "set SSL_CERT_FILE to a PEM file of the CA certificates to trust (or SSL_CERT_DIR to a "
                            "folder of hashed certificates), or install the distribution's CA certificates "
                            "(ca-certificates on Debian, Ubuntu, Fedora, RHEL, SUSE and Alpine)";

CaCertificates ca_problem(const std::string& what) {
  CaCertificates out;
  out.problem = what;
  return out;
}

std::string set_value(const Environment& env, const char* name) {
  const auto v = env.get(name);
  return v ? *v : std::string();
}

// SSL_CERT_FILE and/or SSL_CERT_DIR as the user set them: each one set must exist.
CaCertificates ca_from_variables(const std::string& file, const std::string& dir, const PathTest& is_file, const PathTest& is_dir) {
  if (!file.empty() && !is_file(file)) return ca_problem("SSL_CERT_FILE names '" + file + "', which is not a file");
  if (!dir.empty() && !is_dir(dir)) return ca_problem("SSL_CERT_DIR names '" + dir + "', which is not a folder");
  CaCertificates out;
  out.file = file;
  out.dir = dir;
  out.origin = file.empty() ? "SSL_CERT_DIR" : (dir.empty() ? "SSL_CERT_FILE" : "SSL_CERT_FILE and SSL_CERT_DIR");
  return out;
}

} // namespace

const char* ca_certificates_fix() { return k_what_to_set; }

std::string CaCertificates::describe() const {
  if (!found()) return problem;
  std::string where = file;
  if (!dir.empty()) where += (where.empty() ? "" : " and ") + dir;
  return where + " (" + origin + ")";
}

const std::vector<CaBundlePlace>& ca_bundle_places() {
  static const std::vector<CaBundlePlace> places = {
      {"/etc/ssl/certs/ca-certificates.crt", "Debian/Ubuntu"},
      {"/etc/pki/tls/certs/ca-bundle.crt", "RHEL/Fedora/Amazon Linux"},
      {"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "RHEL/Fedora/Amazon Linux"},
      {"/etc/ssl/ca-bundle.pem", "SUSE"},
      {"/var/lib/ca-certificates/ca-bundle.pem", "SUSE"},
      {"/etc/ssl/cert.pem", "Alpine"},
  };
  return places;
}

CaCertificates find_ca_certificates(const Environment& env, const PathTest& is_file, const PathTest& is_dir) {
  const auto file = set_value(env, "SSL_CERT_FILE");
  const auto dir = set_value(env, "SSL_CERT_DIR");
  if (!file.empty() || !dir.empty()) return ca_from_variables(file, dir, is_file, is_dir);
  for (const auto& place : ca_bundle_places()) {
    if (!is_file(place.path)) continue;
    CaCertificates out;
    out.file = place.path;
    out.origin = place.distribution;
    return out;
  }
  if (is_dir(k_ca_folder)) {
    CaCertificates out;
    out.dir = k_ca_folder;
    out.origin = "the hashed certificate folder";
    return out;
  }
  std::string looked;
  for (const auto& place : ca_bundle_places()) looked += place.path + ", ";
  return ca_problem("no CA certificates found (looked for " + looked + "and the folder " + k_ca_folder + ")");
}

CaCertificates find_host_ca_certificates() {
  const ProcessEnvironment env;
  const auto is_file = [](const std::string& p) {
    std::error_code ec;
    return std::filesystem::is_regular_file(p, ec);
  };
  const auto is_dir = [](const std::string& p) {
    std::error_code ec;
    return std::filesystem::is_directory(p, ec);
  };
  return find_ca_certificates(env, is_file, is_dir);
}

} // namespace cudnnctl::platform

#pragma once
// Which CA certificates an HTTPS download trusts (libcurl builds): SSL_CERT_FILE / SSL_CERT_DIR when set,
// else the bundle where this distribution keeps it (Debian/Ubuntu, RHEL/Fedora/Amazon, SUSE, Alpine), else
// the hashed folder /etc/ssl/certs. A portable binary cannot rely on the path its libcurl was built with.
// The choice is pure: the environment and the file-system questions are seams.
#include <functional>
#include <string>
#include <vector>

#include "cudnnctl/platform/environment.hpp"

namespace cudnnctl::platform {

struct CaCertificates {
  std::string file;     // a PEM bundle (libcurl's CAINFO); empty: none
  std::string dir;      // a hashed folder of certificates (libcurl's CAPATH); empty: none
  std::string origin;   // why this one: "SSL_CERT_FILE", "SSL_CERT_DIR", "Debian/Ubuntu", ...
  std::string problem;  // non-empty: nothing usable was found (what was looked at, or which variable names nothing)
  bool found() const { return problem.empty(); }
  /// "/etc/ssl/certs/ca-certificates.crt (Debian/Ubuntu)": the file or folder and its origin.
  std::string describe() const;
};

/// What to set or install when no CA certificates are usable (SSL_CERT_FILE, SSL_CERT_DIR, ca-certificates).
const char* ca_certificates_fix();

/// One place a distribution keeps its CA bundle.
struct CaBundlePlace {
  std::string path;
  std::string distribution;
};

/// The bundles looked for, in order, when neither variable is set.
const std::vector<CaBundlePlace>& ca_bundle_places();

using PathTest = std::function<bool(const std::string&)>;

/// The CA certificates to trust for `env` where `is_file`/`is_dir` answer for the disk. A variable that is set
/// but names nothing usable is a problem (never silently replaced by a system bundle).
CaCertificates find_ca_certificates(const Environment& env, const PathTest& is_file, const PathTest& is_dir);

/// The same for this process: its environment and the real file system.
CaCertificates find_host_ca_certificates();

} // namespace cudnnctl::platform

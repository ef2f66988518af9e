#include <catch2/catch.hpp>

#include <set>

#include "cudnnctl/platform/ca_certificates.hpp"

using namespace cudnnctl;
using namespace cudnnctl::platform;

namespace {

// A disk that holds exactly these files and folders.
struct FakeDisk {
  std::set<std::string> files, dirs;
  PathTest is_file() const {
    return [this](const std::string& p) { return files.contains(p); };
  }
  PathTest is_dir() const {
    return [this](const std::string& p) { return dirs.contains(p); };
  }
  CaCertificates find(std::map<std::string, std::string> vars = {}) const {
    return find_ca_certificates(MapEnvironment(std::move(vars)), is_file(), is_dir());
  }
};

} // namespace

TEST_CASE("CA certificates: each distribution's usual bundle is found", "[ca_certificates]") {
  const std::vector<std::pair<std::string, std::string>> distros = {
      {"/etc/ssl/certs/ca-certificates.crt", "Debian/Ubuntu"},
      {"/etc/pki/tls/certs/ca-bundle.crt", "RHEL/Fedora/Amazon Linux"},
      {"/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem", "RHEL/Fedora/Amazon Linux"},
      {"/etc/ssl/ca-bundle.pem", "SUSE"},
      {"/etc/ssl/cert.pem", "Alpine"},
  };
  for (const auto& [path, distro] : distros) {
    INFO(path);
    FakeDisk disk;
    disk.files = {path};
    disk.dirs = {"/etc/ssl/certs"};
    const auto ca = disk.find();
    REQUIRE(ca.found());
    CHECK(ca.file == path);
    CHECK(ca.dir.empty());
    CHECK(ca.origin == distro);
    CHECK_THAT(ca.describe(), Catch::Contains(path) && Catch::Contains(distro));
  }
}

TEST_CASE("CA certificates: the first place in order wins, and the hashed folder only when there is no bundle", "[ca_certificates]") {
  FakeDisk disk;
  disk.files = {"/etc/ssl/cert.pem", "/etc/pki/tls/certs/ca-bundle.crt"};
  CHECK(disk.find().file == "/etc/pki/tls/certs/ca-bundle.crt");
  FakeDisk folder_only;
  folder_only.dirs = {"/etc/ssl/certs"};
  const auto ca = folder_only.find();
  REQUIRE(ca.found());
  CHECK(ca.file.empty());
  CHECK(ca.dir == "/etc/ssl/certs");
}

TEST_CASE("CA certificates: SSL_CERT_FILE and SSL_CERT_DIR come before the system bundles", "[ca_certificates]") {
  FakeDisk disk;
  disk.files = {"/etc/ssl/certs/ca-certificates.crt", "/site/ca.pem"};
  disk.dirs = {"/etc/ssl/certs", "/site/certs"};
  const auto file = disk.find({{"SSL_CERT_FILE", "/site/ca.pem"}});
  REQUIRE(file.found());
  CHECK(file.file == "/site/ca.pem");
  CHECK(file.dir.empty());
  CHECK(file.origin == "SSL_CERT_FILE");
  const auto dir = disk.find({{"SSL_CERT_DIR", "/site/certs"}});
  REQUIRE(dir.found());
  CHECK(dir.file.empty());
  CHECK(dir.dir == "/site/certs");
  CHECK(dir.origin == "SSL_CERT_DIR");
  const auto both = disk.find({{"SSL_CERT_FILE", "/site/ca.pem"}, {"SSL_CERT_DIR", "/site/certs"}});
  CHECK(both.file == "/site/ca.pem");
  CHECK(both.dir == "/site/certs");
  // an empty variable counts as unset
  CHECK(disk.find({{"SSL_CERT_FILE", ""}}).file == "/etc/ssl/certs/ca-certificates.crt");
}

TEST_CASE("CA certificates: a variable naming nothing, or no bundle at all, is a problem that says what to set", "[ca_certificates]") {
  FakeDisk disk;
  disk.files = {"/etc/ssl/certs/ca-certificates.crt"};
  const auto missing = disk.find({{"SSL_CERT_FILE", "/nowhere/ca.pem"}});
  REQUIRE_FALSE(missing.found());
  CHECK_THAT(missing.problem, Catch::Contains("SSL_CERT_FILE names '/nowhere/ca.pem'") && Catch::Contains("not a file"));
  const auto bad_dir = disk.find({{"SSL_CERT_DIR", "/nowhere"}});
  REQUIRE_FALSE(bad_dir.found());
  CHECK_THAT(bad_dir.problem, Catch::Contains("SSL_CERT_DIR names '/nowhere'"));

  const auto none = FakeDisk{}.find();
  REQUIRE_FALSE(none.found());
  CHECK(none.file.empty());
  CHECK(none.dir.empty());
  CHECK_THAT(none.problem, Catch::Contains("no CA certificates found") && Catch::Contains("/etc/pki/tls/certs/ca-bundle.crt") &&
                               Catch::Contains("/etc/ssl/cert.pem") && Catch::Contains("/etc/ssl/certs"));
  CHECK_THAT(std::string(ca_certificates_fix()), Catch::Contains("set SSL_CERT_FILE") && Catch::Contains("SSL_CERT_DIR"));
}

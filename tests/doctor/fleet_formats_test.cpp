#include <catch2/catch.hpp>

#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cudnnctl/base/strings.hpp"
#include "cudnnctl/doctor/fleet_formats.hpp"
#include "cudnnctl/doctor/k8s_labels.hpp"

using namespace cudnnctl;

namespace {

DoctorReport fleet_report() {
  DoctorReport r;
  Toolkit t;
  t.root = "/opt/cuda \"x\"\\y\nz";
  t.version = "13.0";
  r.toolkit = t;
  r.cudnn = CudnnFound{"9.19.0", 9, "13", "unrecorded"};
  r.checks = {{"toolkit.found", 1, CheckStatus::pass, "CUDA 13.0", "", ""},
              {"files.headers", 2, CheckStatus::fail, "header 9.19.0, library 9.1.0", "mixed", "reinstall"},
              {"bundles.versions", 2, CheckStatus::warn, "one", "", ""},
              {"bundles.versions", 2, CheckStatus::fail, "two", "", ""},
              {"files.stale", 2, CheckStatus::warn, "left-overs", "", ""},
              {"driver.library", 4, CheckStatus::skip, "no driver", "", ""}};
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

} // namespace

TEST_CASE("doctor --prometheus: one status 1 per check, labels escaped, no timestamps, one HELP and TYPE per family", "[fleet_formats]") {
  const auto text = doctor_prometheus(fleet_report(), 1765000000);
  REQUIRE(text.ends_with("\n"));
  CHECK_THAT(text, Catch::Contains(R"(cudnnctl_cudnn_info{version="9.19.0",cuda_major="13",toolkit="/opt/cuda \"x\"\\y\nz",owner="unrecorded"} 1)"));
  const std::regex sample(R"re(^([a-z_]+)(\{([^{}]*)\})? (-?[0-9.e+]+)$)re");
  const std::regex status_labels(R"re(^check="([^"]+)",layer="([1-5])",status="(pass|warn|fail|skip)"$)re");
  std::map<std::string, int> ones, series;
  std::set<std::string> help, type, labelsets;
  for (const auto& line : lines_of(text)) {
    if (line.starts_with("# HELP ")) { CHECK(help.insert(std::string(split(line, ' ')[2])).second); continue; }
    if (line.starts_with("# TYPE ")) { CHECK(type.insert(std::string(split(line, ' ')[2])).second); CHECK(line.ends_with(" gauge")); continue; }
    if (line.find("cudnn_info") != std::string::npos) continue;  // its escaped label value is checked above
    std::smatch m;
    REQUIRE(std::regex_match(line, m, sample));  // name, labels, value: no timestamp after it
    CHECK(type.count(m[1]) == 1);
    CHECK(labelsets.insert(m[1].str() + m[2].str()).second);
    if (m[1] == "cudnnctl_check_status") {
      std::smatch l;
      const std::string labels = m[3];
      REQUIRE(std::regex_match(labels, l, status_labels));
      ++series[l[1]];
      ones[l[1]] += m[4] == "1" ? 1 : 0;
      CHECK((m[4] == "1" || m[4] == "0"));
    }
  }
  CHECK(series.size() == 5);
  for (const auto& [check, n] : series) {
    INFO(check);
    CHECK(n == 4);
    CHECK(ones[check] == 1);
  }
  CHECK_THAT(text, Catch::Contains(R"(cudnnctl_check_status{check="bundles.versions",layer="2",status="fail"} 1)"));
  CHECK_THAT(text, Catch::Contains("\ncudnnctl_checks_failed 2\n"));
  CHECK_THAT(text, Catch::Contains("\ncudnnctl_doctor_exit_code 10\n"));
  CHECK_THAT(text, Catch::Contains("\ncudnnctl_doctor_last_run_timestamp_seconds 1765000000\n"));
  CHECK(help == type);
  DoctorReport none;
  none.checks = {{"toolkit.found", 1, CheckStatus::fail, "no toolkit", "", ""}};
  CHECK_THAT(doctor_prometheus(none, 1), !Catch::Contains("cudnnctl_cudnn_info") && Catch::Contains("cudnnctl_checks_failed 1\n"));
}

TEST_CASE("Kubernetes label rules: keys and values refused, values mapped", "[k8s_labels]") {
  struct Key { std::string key; bool ok; };
  const std::string long_name(64, 'a'), max_name(63, 'a');
  for (const auto& [key, ok] : std::vector<Key>{
           {"cudnnctl.io/cudnn-version.major", true},
           {"cudnnctl.io/check.files.glibc_floor", true},
           {"cudnnctl.io/" + max_name, true},
           {"cudnnctl.io/" + long_name, false},              // name over 63
           {"cudnn-version.major", false},                   // no namespace: NFD refuses unprefixed keys
           {"/cudnn", false},
           {"cudnnctl.io/", false},
           {"Cudnnctl.io/x", false},                         // the prefix is lower case
           {"cudnnctl..io/x", false},
           {"-cudnnctl.io/x", false},
           {"cudnnctl.io/-x", false},                        // the name starts and ends alphanumeric
           {"cudnnctl.io/x.", false},
           {"cudnnctl.io/a b", false},
           {"cudnnctl.io/a/b", false},
           {"kubernetes.io/cudnn", false},                   // reserved for Kubernetes
           {"node.kubernetes.io/cudnn", false},
           {"feature.node.kubernetes.io/cudnn", true},       // NFD's own namespaces are allowed
           {"x.profile.node.kubernetes.io/cudnn", true},
           {"notkubernetes.io/cudnn", true},
           {std::string(254, 'a') + "/x", false}}) {
    INFO(key);
    CHECK(nfd_label_key_problem(key).has_value() != ok);
  }
  struct Value { std::string text; std::optional<std::string> mapped; };
  for (const auto& [text, mapped] : std::vector<Value>{
           {"9.19.0", "9.19.0"},
           {"", ""},
           {"true", "true"},
           {"9.1.0+cuda12", "9.1.0-cuda12"},
           {"/usr/local/cuda", "usr-local-cuda"},
           {" 12 ", "12"},
           {"_x_", "x"},
           {"ü", std::nullopt},                                // nothing left: refused, not emptied
           {"+++", std::nullopt},
           {std::string(63, '9'), std::string(63, '9')},
           {std::string(64, '9'), std::nullopt}}) {             // too long: refused, not cut
    INFO(text);
    CHECK(to_label_value(text) == mapped);
    if (mapped) CHECK_FALSE(label_value_problem(*mapped));
  }
  CHECK(label_value_problem("a+b"));
  CHECK(label_value_problem("-a"));
  CHECK(label_value_problem(std::string(64, 'a')));
}

TEST_CASE("doctor --nfd: GFD-shaped labels, failed checks as no-label features, expiry, each line within the rules", "[fleet_formats]") {
  CHECK(rfc3339_utc(0) == "1970-01-01T00:00:00Z");
  CHECK(rfc3339_utc(1765000000) == "2025-12-06T05:46:40Z");
  CHECK(rfc3339_utc(951782400) == "2000-02-29T00:00:00Z");
  const auto text = doctor_nfd(fleet_report(), 1765000000, 900);
  REQUIRE(text);
  const auto lines = lines_of(*text);
  CHECK(std::count(lines.begin(), lines.end(), "# +expiry-time=2025-12-06T06:01:40Z") == 1);
  for (const auto* want : {"cudnnctl.io/cudnn-version.major=9", "cudnnctl.io/cudnn-version.minor=19", "cudnnctl.io/cudnn-version.patch=0",
                           "cudnnctl.io/cudnn-version.full=9.19.0", "cudnnctl.io/cudnn.cuda-major=13", "cudnnctl.io/cudnn.healthy=false",
                           "cudnnctl.io/cudnn.checks-failed=2"})
    CHECK(std::count(lines.begin(), lines.end(), want) == 1);
  CHECK_THAT(*text, Catch::Contains("# +no-label\ncudnnctl.io/check.files.headers=fail\n"));
  CHECK_THAT(*text, Catch::Contains("# +no-label\ncudnnctl.io/check.bundles.versions=fail\n"));  // its worst
  CHECK_THAT(*text, Catch::Contains("# +no-label\ncudnnctl.io/check.files.stale=warn\n"));
  CHECK(std::count(lines.begin(), lines.end(), "cudnnctl.io/check.bundles.versions=fail") == 1);
  CHECK_THAT(*text, !Catch::Contains("driver.library") && !Catch::Contains("toolkit.found"));
  for (const auto& line : lines) {
    if (line.starts_with("#")) continue;
    const auto eq = line.find('=');
    REQUIRE(eq != std::string::npos);
    INFO(line);
    CHECK_FALSE(nfd_label_key_problem(line.substr(0, eq)));
    CHECK_FALSE(label_value_problem(line.substr(eq + 1)));
  }
  auto healthy = fleet_report();
  healthy.checks.resize(1);
  CHECK_THAT(*doctor_nfd(healthy, 0, 60), Catch::Contains("cudnnctl.io/cudnn.healthy=true\n") && !Catch::Contains("+no-label"));
}

TEST_CASE("doctor --nfd refuses a label that breaks the rules and a file of 64 KiB, instead of writing it", "[fleet_formats]") {
  auto r = fleet_report();
  r.cudnn->cuda_major = "+++";  // cannot be made a value
  auto refused = doctor_nfd(r, 0, 60);
  REQUIRE_FALSE(refused);
  CHECK_THAT(refused.error().message, Catch::Contains("cudnnctl.io/cudnn.cuda-major") && Catch::Contains("label rules"));
  r = fleet_report();
  r.checks.push_back({"files." + std::string(70, 'x'), 2, CheckStatus::fail, "", "", ""});  // key name over 63
  CHECK_FALSE(doctor_nfd(r, 0, 60));
  r = fleet_report();
  for (int i = 0; i < 1500; ++i) r.checks.push_back({"files.x" + std::to_string(i), 2, CheckStatus::fail, "", "", ""});
  auto big = doctor_nfd(r, 0, 60);
  REQUIRE_FALSE(big);
  CHECK_THAT(big.error().message, Catch::Contains("64 KiB"));
}

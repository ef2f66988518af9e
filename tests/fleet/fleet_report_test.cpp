#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "cudnnctl/fleet/fleet_report.hpp"

using namespace cudnnctl;

namespace {

NodeDocument node(std::string file, std::string host, std::optional<std::string> cudnn, std::string cuda, std::vector<NodeCheck> checks) {
  NodeDocument n;
  n.file = std::move(file);
  n.host = std::move(host);
  n.cudnn = std::move(cudnn);
  n.cuda_major = std::move(cuda);
  n.toolkit = "/usr/local/cuda";
  n.checks = std::move(checks);
  return n;
}

std::vector<NodeCheck> passing() { return {{"toolkit.found", 1, "pass", "CUDA 13.0"}, {"files.headers", 2, "pass", "9.19.0"}, {"files.stale", 2, "pass", ""}}; }

} // namespace

TEST_CASE("report: the majority release, the one outlier and why, the checks by hosts", "[fleet_report]") {
  std::vector<NodeDocument> nodes;
  for (int i : {1, 2, 4, 5}) nodes.push_back(node("d/n" + std::to_string(i) + ".json", "gpu" + std::to_string(i), "9.19.0", "13", passing()));
  nodes.push_back(node("d/n3.json", "gpu3", "9.1.0", "13",
                       {{"toolkit.found", 1, "pass", ""}, {"files.headers", 2, "fail", "header 9.1.0, libraries 9.19.0"}, {"files.stale", 2, "warn", "left-overs"}}));
  const auto f = build_fleet_report(std::move(nodes), {});
  CHECK(f.majority == "9.19.0 (CUDA 13)");
  REQUIRE(f.releases.size() == 2);
  CHECK(f.releases[0].nodes == std::vector<std::string>{"gpu1", "gpu2", "gpu4", "gpu5"});
  REQUIRE(f.outliers.size() == 1);
  CHECK(f.outliers[0].name == "gpu3");
  CHECK(f.outliers[0].reasons == std::vector<std::string>{"runs cuDNN 9.1.0 (CUDA 13), not the majority's 9.19.0 (CUDA 13)",
                                                           "files.headers failed: header 9.1.0, libraries 9.19.0",
                                                           "files.stale warns where most nodes pass: left-overs"});
  const auto headers = std::find_if(f.checks.begin(), f.checks.end(), [](const auto& c) { return c.id == "files.headers"; });
  REQUIRE(headers != f.checks.end());
  CHECK((headers->pass == 4 && headers->fail == 1 && headers->failing == std::vector<std::string>{"gpu3"}));
  CHECK(f.checks.front().id == "toolkit.found");  // by layer
  CHECK(fleet_exit_code(f) == ExitCode::problems_found);
  const auto j = fleet_json(f);
  CHECK(j["outliers"][0]["name"] == "gpu3");
  CHECK(j["releases"][0]["count"] == 4);
  CHECK_THAT(fleet_text(f), Catch::Contains("the majority runs cuDNN 9.19.0 (CUDA 13) (4 of 5)"));
}

TEST_CASE("report: nodes named by host or by file where hosts repeat, a tie goes to the newer release, no cuDNN", "[fleet_report]") {
  auto f = build_fleet_report({node("x/a.json", "gpu1", "9.1.0", "12", passing()), node("x/b.json", "gpu1", "9.19.0", "13", passing()),
                               node("x/c.json", "", std::nullopt, "13", passing())},
                              {{"x/d.json", "'x/d.json' is not a doctor document: it is not JSON"}});
  std::vector<std::string> names;
  for (const auto& n : f.nodes) names.push_back(n.name);
  CHECK(names == std::vector<std::string>{"a.json", "b.json", "c.json"});
  CHECK(f.majority == "9.19.0 (CUDA 13)");  // one node each: the newer
  REQUIRE(f.outliers.size() == 2);
  CHECK(f.outliers[1].reasons.front() == "no cuDNN found in its toolkit /usr/local/cuda; the majority runs 9.19.0 (CUDA 13)");
  CHECK(f.unreadable.size() == 1);
  f = build_fleet_report({node("a", "h1", "9.19.0", "13", passing()), node("b", "h2", "9.19.0", "13", passing())}, {});
  CHECK(f.outliers.empty());
  CHECK(fleet_exit_code(f) == ExitCode::ok);
}

TEST_CASE("report: a doctor document is read field by field, anything else is refused with why", "[fleet_report]") {
  const auto good = R"({"schema":"cudnnctl.doctor/2","host":"gpu7","cudnn":{"version":"9.19.0","major":9,"cuda_major":"13","owner":"cudnnctl"},
    "toolkit":{"root":"/usr/local/cuda"},"exit_code":11,"checks":[{"id":"toolkit.found","layer":1,"status":"pass","finding":"x"}]})";
  auto n = parse_node_document(good, "gpu7.json");
  REQUIRE(n);
  CHECK((n->host == "gpu7" && n->cudnn == "9.19.0" && n->cuda_major == "13" && n->exit_code == 11 && n->checks.size() == 1));
  // older documents without "host" or "cudnn" still read
  n = parse_node_document(R"({"schema":"cudnnctl.doctor/2","checks":[]})", "old.json");
  REQUIRE(n);
  CHECK((n->host.empty() && !n->cudnn));
  for (const auto* bad : {"", "[1]", "{\"schema\":\"cudnnctl.path/2\",\"checks\":[]}", "{\"checks\":[]}",
                          "{\"schema\":\"cudnnctl.doctor/2\"}", "{\"schema\":\"cudnnctl.doctor/2\",\"checks\":[1]}",
                          "{\"schema\":\"cudnnctl.doctor/2\",\"checks\":[{\"id\":\"x\",\"status\":\"great\"}]}",
                          "{\"schema\":\"cudnnctl.doctor/2\",\"host\":\"\xff\",\"checks\":[]}"}) {
    INFO(bad);
    auto r = parse_node_document(bad, "f.json");
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::input_invalid);
    CHECK_THAT(r.error().message, Catch::StartsWith("'f.json' is not a doctor document: "));
  }
}

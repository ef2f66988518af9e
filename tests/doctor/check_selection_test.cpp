// doctor --list-checks and --check ID: the table lists every check once, every id the doctor reports
// belongs to a row, and --check runs exactly the asked checks with only what they need gathered.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

std::set<std::string> ids_of(const DoctorReport& r) {
  std::set<std::string> ids;
  for (const auto& c : r.checks) ids.insert(c.id);
  return ids;
}

/// A Linux toolkit with cuDNN 9's libraries listed (through the fake system) and a probe that loads them.
struct Setup {
  TempDir tmp;
  std::filesystem::path root = linux_toolkit(tmp.path(), "12.4");
  FakeSystem sys;
  DoctorOptions o;
  Setup() {
    const auto lib = (root / "lib64").string();
    sys.dirs[lib] = {"libcudnn.so.9", "libcudnn_graph.so.9"};
    ProbeResult p;
    p.version = 90100;
    p.loads = {{"libcudnn_graph.so.9", true, {}}, {"libcudnn.so.9", true, {}}};
    sys.probe_result = p;
    o.cuda_path = root.string();
  }
};

} // namespace

TEST_CASE("the check table: unique ids, each with a layer, what it checks, and a function", "[doctor][checks]") {
  std::set<std::string_view> seen;
  int last_layer = 1;
  for (const auto& row : check_table()) {
    INFO(row.id);
    for (const auto id : reported_ids(row)) CHECK(seen.insert(id).second);  // no id reported by two rows
    CHECK(row.layer >= last_layer);                                           // report order is layer order
    last_layer = row.layer;
    CHECK(row.run != nullptr);
    CHECK(row.what.size() > 20);
    CHECK(find_check(row.id) == &row);
  }
  CHECK(find_check("loader.version") == find_check("loader.load"));
  CHECK(find_check("no.such.check") == nullptr);
}

TEST_CASE("doctor --list-checks: text, JSON and the docs' Markdown list every row", "[doctor][checks]") {
  const auto json = doctor_checks_json();
  CHECK(json["schema"] == "cudnnctl.doctor-checks/1");
  REQUIRE(json["checks"].size() == check_table().size());
  const auto text = doctor_checks_text();
  const auto md = doctor_checks_markdown();
  for (std::size_t i = 0; i < check_table().size(); ++i) {
    const auto& row = check_table()[i];
    INFO(row.id);
    CHECK(json["checks"][i]["id"] == std::string(row.id));
    CHECK(json["checks"][i]["layer"] == row.layer);
    CHECK(json["checks"][i]["needs"][0] == "toolkit");
    CHECK_THAT(text, Catch::Contains(std::string(row.id)) && Catch::Contains(std::string(row.what)));
    CHECK_THAT(md, Catch::Contains("| `" + std::string(row.id) + "` | " + std::to_string(row.layer)));
  }
  const auto* load = find_check("loader.load");
  const auto& load_json = json["checks"][static_cast<std::size_t>(load - check_table().data())];
  CHECK(load_json["also_reports"] == nlohmann::json::array({"loader.version", "loader.version_checks"}));
  CHECK(load_json["needs"] == nlohmann::json::array({"toolkit", "probe"}));
}

TEST_CASE("every id a full run reports is a row of the table, or a layer's skip", "[doctor][checks]") {
  Setup s;
  const platform::MapEnvironment env(std::map<std::string, std::string>{});
  const auto full = run_doctor(s.o, env, s.sys);
  REQUIRE(full.checks.size() > 8);
  for (const auto& c : full.checks) {
    INFO(c.id << ": " << c.finding);
    CHECK((find_check(c.id) != nullptr || c.id == std::string(layer_id_prefix(c.layer)) + ".skipped"));
  }
}

TEST_CASE("doctor --check runs exactly the asked checks, in the order asked, gathering only what they need", "[doctor][checks]") {
  Setup s;
  const platform::MapEnvironment env(std::map<std::string, std::string>{});
  s.o.only_checks = {"files.cudnn", "toolkit.found"};
  const auto files_only = run_doctor(s.o, env, s.sys);
  REQUIRE(files_only.checks.size() == 2);
  CHECK(files_only.checks[0].id == "files.cudnn");
  CHECK(files_only.checks[1].id == "toolkit.found");
  CHECK(s.sys.probes == 0);  // no row asked for needs the probe
  CHECK(s.sys.ld_cache_reads == 0);

  s.o.only_checks = {"loader.load"};
  const auto load = run_doctor(s.o, env, s.sys);
  CHECK(s.sys.probes == 1);
  CHECK(s.sys.workloads == 0);
  REQUIRE(ids_of(load) == std::set<std::string>{"loader.load"});
  CHECK(load.checks[0].status == CheckStatus::pass);
  CHECK(doctor_exit_code(load) == ExitCode::ok);
}

TEST_CASE("doctor --check: a check its row did not report, or whose layer cannot run, is a skip that says why", "[doctor][checks]") {
  Setup s;
  const platform::MapEnvironment env(std::map<std::string, std::string>{});
  s.o.only_checks = {"loader.version"};  // reported only when the versions disagree
  const auto r = run_doctor(s.o, env, s.sys);
  REQUIRE(r.checks.size() == 1);
  CHECK(r.checks[0].id == "loader.version");
  CHECK(r.checks[0].status == CheckStatus::skip);
  CHECK_THAT(r.checks[0].finding, Catch::Contains("loader.load made no finding"));

  s.o.target = "windows";  // a Linux tree checked as a Windows toolkit: layer 1 rejects it, layer 2 cannot run
  s.o.only_checks = {"files.receipt", "toolkit.target"};
  const auto rejected = run_doctor(s.o, env, s.sys);
  REQUIRE(rejected.checks.size() == 2);
  CHECK(rejected.checks[0].id == "files.receipt");
  CHECK(rejected.checks[0].status == CheckStatus::skip);
  CHECK_THAT(rejected.checks[0].finding, Catch::Contains("not for the --target platform"));
  CHECK(rejected.checks[1].id == "toolkit.target");
  CHECK(rejected.checks[1].status == CheckStatus::fail);
  CHECK(doctor_exit_code(rejected) == ExitCode::problems_found);
}

TEST_CASE("an ld.so cache that could not be read is said as a note, not left out in silence", "[doctor][checks]") {
  Setup s;
  const platform::MapEnvironment env(std::map<std::string, std::string>{});
  s.sys.ld_problem = "the ld.so cache could not be read with ldconfig -p (not found)";
  const auto r = run_doctor(s.o, env, s.sys);
  REQUIRE(s.sys.ld_cache_reads > 0);
  CHECK(std::find(r.notes.begin(), r.notes.end(), s.sys.ld_problem) != r.notes.end());
}

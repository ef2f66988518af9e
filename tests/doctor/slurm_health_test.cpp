// doctor --slurm-health's decision as a table: the report and the node's state in, drain / resume / nothing out;
// an administrator's drain is never undone; the reason is one short printable line; scontrol's output parsed.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "cudnnctl/doctor/slurm_health.hpp"

using namespace cudnnctl;

namespace {

DoctorReport report_with(std::vector<std::pair<std::string, CheckStatus>> checks, std::string finding = "libcudnn.so.9 is truncated") {
  DoctorReport r;
  for (auto& [id, status] : checks) r.checks.push_back({id, 2, status, finding, "cause", "fix"});
  return r;
}

} // namespace

TEST_CASE("slurm health: the decision for each report and node state", "[slurm_health]") {
  const auto healthy = report_with({{"toolkit.found", CheckStatus::pass}, {"driver.loaded", CheckStatus::skip}, {"files.headers", CheckStatus::warn}});
  const auto broken = report_with({{"toolkit.found", CheckStatus::pass}, {"files.libraries", CheckStatus::fail}});
  const std::string ours = "cudnnctl: files.libraries: libcudnn.so.9 is truncated";
  struct Row {
    const char* what;
    const DoctorReport* report;
    SlurmNodeState node;
    SlurmAction want;
  };
  const std::vector<Row> rows{
      {"healthy, idle", &healthy, {"n1", "IDLE", ""}, SlurmAction::none},
      {"healthy, drained by cudnnctl", &healthy, {"n1", "IDLE+DRAIN", ours}, SlurmAction::resume},
      {"healthy, draining (a job runs) by cudnnctl", &healthy, {"n1", "MIXED+DRAIN", "cudnnctl: loader.load: x"}, SlurmAction::resume},
      {"healthy, down by cudnnctl", &healthy, {"n1", "DOWN", "cudnnctl: loader.load: x"}, SlurmAction::resume},
      {"healthy, drained by an admin", &healthy, {"n1", "IDLE+DRAIN", "disk replacement"}, SlurmAction::none},
      {"healthy, drained by NHC", &healthy, {"n1", "IDLE+DRAIN", "NHC: check_fs_mount: /scratch"}, SlurmAction::none},
      {"healthy, admin reason naming cudnnctl later", &healthy, {"n1", "IDLE+DRAIN", "upgrade, cudnnctl: later"}, SlurmAction::none},
      {"broken, idle", &broken, {"n1", "IDLE", ""}, SlurmAction::drain},
      {"broken, allocated", &broken, {"n1", "ALLOCATED", ""}, SlurmAction::drain},
      {"broken, drained by an admin", &broken, {"n1", "IDLE+DRAIN", "disk replacement"}, SlurmAction::none},
      {"broken, drained by cudnnctl for this", &broken, {"n1", "IDLE+DRAIN", ours}, SlurmAction::none},
      {"broken, drained by cudnnctl for another check", &broken, {"n1", "IDLE+DRAIN", "cudnnctl: loader.load: x"}, SlurmAction::drain},
  };
  for (const auto& row : rows) {
    INFO(row.what);
    const auto d = decide_slurm_health(*row.report, row.node);
    CHECK(d.action == row.want);
    CHECK_FALSE(d.why.empty());
    if (d.action == SlurmAction::drain) CHECK(d.reason == ours);
    else CHECK(d.reason.empty());
  }
}

TEST_CASE("slurm health: the drain reason is one short printable line", "[slurm_health]") {
  CHECK(slurm_drain_reason(report_with({{"toolkit.found", CheckStatus::pass}})).empty());
  CHECK(slurm_drain_reason(report_with({{"files.libraries", CheckStatus::fail}, {"loader.load", CheckStatus::fail}, {"x", CheckStatus::fail}})) ==
        "cudnnctl: files.libraries: libcudnn.so.9 is truncated (+2 more)");
  const auto odd = slurm_drain_reason(report_with({{"loader.load", CheckStatus::fail}}, "dlopen \"libcudnn.so.9\":\n\tbad\x01 ELF \xc3\xa9  header"));
  CHECK(odd == "cudnnctl: loader.load: dlopen 'libcudnn.so.9': bad ELF header");
  const auto long_one = slurm_drain_reason(report_with({{"loader.load", CheckStatus::fail}, {"b", CheckStatus::fail}}, std::string(300, 'x')));
  CHECK(long_one.size() <= slurm_reason_max);
  CHECK(long_one.starts_with("cudnnctl: loader.load: xxx"));
  CHECK(long_one.ends_with("... (+1 more)"));
  CHECK(slurm_drain_reason(report_with({{"files.x", CheckStatus::fail}}, "")) == "cudnnctl: files.x: failed");
}

TEST_CASE("slurm health: scontrol show node's output read", "[slurm_health]") {
  // as Slurm 22.05's scontrol prints it, several lines, and with -o on one
  const std::string shown = "NodeName=gpu01 Arch=x86_64 CoresPerSocket=1\n"
                            "   CPUAlloc=0 CPUEfctv=2 CPUTot=2 CPULoad=0.50\n"
                            "   State=IDLE+DRAIN ThreadsPerCore=1 TmpDisk=0 Weight=1 Owner=N/A MCS_label=N/A\n"
                            "   Partitions=debug\n"
                            "   Reason=cudnnctl: loader.load: cannot load [x] libcudnn.so.9 [root@2026-12-06T22:16:01]\n";
  const auto node = parse_scontrol_node(shown);
  REQUIRE(node);
  CHECK(node->name == "gpu01");
  CHECK(node->state == "IDLE+DRAIN");
  CHECK(node->reason == "cudnnctl: loader.load: cannot load [x] libcudnn.so.9");
  CHECK(node->drained());
  const auto one = parse_scontrol_node("NodeName=gpu02 Arch=x86_64 State=MIXED ThreadsPerCore=1 Partitions=debug\n");
  REQUIRE(one);
  CHECK(one->state == "MIXED");
  CHECK(one->reason.empty());
  CHECK_FALSE(one->drained());
  const auto oneline = parse_scontrol_node("NodeName=g3 State=DOWN+NOT_RESPONDING Partitions=debug Reason=Not responding [slurm@2026-12-06T10:00:00]");
  REQUIRE(oneline);
  CHECK(oneline->reason == "Not responding");
  CHECK(oneline->drained());
  CHECK_FALSE(parse_scontrol_node("Node gpu9 not found\n"));
  CHECK_FALSE(parse_scontrol_node(""));
}

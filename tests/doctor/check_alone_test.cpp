// doctor --check ID gathers everything its check needs: every id of the table, run alone, gets the same
// verdict as in the full doctor on the same planted set-up (an interrupted journal, an older copy on the
// loader path, a framework bundle shadowing the toolkit's cuDNN, a driver below the floor, a scripted GPU).
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

struct Planted {
  std::string name;
  TempDir tmp;
  fs::path root = linux_toolkit(tmp.path(), "12.4");
  std::string lib = (root / "lib64").string();
  FakeSystem sys;
  DoctorOptions o;
  std::map<std::string, std::string> vars;

  explicit Planted(std::string n) : name(std::move(n)) {
    put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
    for (const char* so : {"libcudnn.so.9", "libcudnn_graph.so.9", "libcudnn_ops.so.9"}) put(fs::path(lib) / so, "lib");
    sys.dirs[lib] = {"libcudnn.so.9", "libcudnn_graph.so.9", "libcudnn_ops.so.9", "libcudnn_ops_infer.so.8"};
    sys.elf[lib + "/libcudnn.so.9"] = ElfDynamicInfo{};
    ProbeResult p;
    p.version = 90100;
    p.loads = {{"libcudnn_graph.so.9", true, {}}, {"libcudnn.so.9", true, {}}};
    p.driver_loaded = true;
    p.cu_init = 0;
    p.devices = {{"NVIDIA Test GPU", 8, 0}};
    sys.probe_result = p;
    o.cuda_path = root.string();
    o.no_gpu = true;
    o.bundle_sites = {"/site"};
    o.driver_version_file = "/fake/driver-version";
    sys.files[o.driver_version_file] = "NVRM version: NVIDIA UNIX x86_64 Kernel Module  418.40.04  Thu Feb 22 01:44:30 UTC 2024\n";
  }
  DoctorReport run(std::vector<std::string> only = {}) {
    o.only_checks = std::move(only);
    return run_doctor(o, platform::MapEnvironment(vars), sys);
  }
};

// a transaction killed after its journal was written, and a staging folder of a run that died
void plant_interrupted(Planted& s) {
  put(s.root / ".cudnnctl/journal.json",
      R"({"schema_version": 1, "id": "j1", "description": "install cudnn-linux-x86_64-9.19.0.56_cuda12-archive into )" + s.root.string() +
          R"(", "phase": "applying", "moves": [], "remove_on_commit": [], "remove_on_rollback": []})");
  const auto state = (s.root / ".cudnnctl").string();
  s.sys.dirs[state] = {"journal.json", "staging-4242"};
  s.sys.dirs[state + "/staging-4242"] = {};
}

// cuDNN 8 on LD_LIBRARY_PATH (an older copy of another major) and a PyTorch bundle of the toolkit's major
void plant_copies_and_bundle(Planted& s) {
  const auto old = s.tmp.path() / "old-cudnn";
  put(old / "libcudnn.so.8", "old");
  s.vars["LD_LIBRARY_PATH"] = old.string();
  Bundle b;
  b.dir = "/site/torch/lib";
  b.files = {"libcudnn.so.9", "libcudnn_ops.so.9"};
  b.cudnn_major = 9;
  b.owner = BundleOwner{"torch", "2.5.1", "/site/torch-2.5.1.dist-info", "/site", {}, 12};
  b.version = "9.1.0.70";
  b.cuda_major = 12;
  b.arch = "x86_64";
  s.sys.bundle_scan.views.push_back({b, {}});
  s.sys.files["/site/torch/lib/libtorch_cuda.so"] = "";
  GpuCode torch;
  torch.has_fatbin = true;
  torch.entries.push_back({FatbinKind::sass, 2, {90, ArchVariant::plain}, true, 0, 0, 8, 24});
  s.sys.gpu_code.emplace("/site/torch/lib/libtorch_cuda.so", torch);
}

std::vector<std::string> verdicts(const DoctorReport& r, std::string_view id) {
  std::vector<std::string> out;
  for (const auto& c : r.checks)
    if (c.id == id) out.push_back(std::string(to_string(c.status)) + ": " + c.finding);
  std::sort(out.begin(), out.end());
  return out;
}

} // namespace

TEST_CASE("doctor --check ID: every check alone gets the verdict the full doctor gives it, on the same set-ups", "[doctor][checks][check_alone]") {
  for (const auto* setup : {"healthy up to planted findings", "interrupted install", "older copy, bundle, old driver"}) {
    Planted s(setup);
    if (s.name == "interrupted install") plant_interrupted(s);
    if (s.name == "older copy, bundle, old driver") plant_copies_and_bundle(s);
    const auto full = s.run();
    REQUIRE(full.checks.size() > 10);
    for (const auto& row : check_table())
      for (const auto id : reported_ids(row)) {
        INFO(s.name << ": --check " << id);
        const auto alone = s.run({std::string(id)});
        const auto in_full = verdicts(full, id);
        if (in_full.empty()) {
          REQUIRE(alone.checks.size() == 1);
          CHECK(alone.checks[0].status == CheckStatus::skip);
          CHECK_THAT(alone.checks[0].finding, Catch::Contains("made no finding"));
        } else {
          CHECK(verdicts(alone, id) == in_full);
        }
      }
  }
}

TEST_CASE("the planted interrupted install: files.interrupted fails alone as in the full doctor (issue 55's defect)", "[doctor][checks][check_alone]") {
  Planted s("interrupted install");
  plant_interrupted(s);
  const auto alone = s.run({"files.interrupted"});
  REQUIRE(alone.checks.size() == 2);
  CHECK(alone.checks[0].status == CheckStatus::fail);
  CHECK_THAT(alone.checks[0].finding, Catch::Contains("stopped before its commit point"));
  CHECK(alone.checks[1].status == CheckStatus::warn);
  CHECK_THAT(alone.checks[1].finding, Catch::Contains("staging-4242"));
}

TEST_CASE("each row reports only its own ids, so --check ID runs every row that can report ID", "[doctor][checks][check_alone]") {
  Planted s("older copy, bundle, old driver");
  plant_interrupted(s);
  plant_copies_and_bundle(s);
  s.o.no_gpu = false;
  const auto all_needs = needs_for_layer(0, false);
  const auto facts = gather_facts(s.o, platform::MapEnvironment(s.vars), s.sys, all_needs);
  for (const auto& row : check_table()) {
    Checks out;
    row.run(facts, out);
    for (const auto& c : out) {
      INFO(row.id << " reports " << c.id);
      CHECK(row_reports(row, c.id));
    }
  }
}

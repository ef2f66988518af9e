// Doctor findings that misled users (issue 18, items 20-22): each through the CLI or run_doctor.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../cli/run_cli.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/doctor/doctor.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

const Check* find_check(const DoctorReport& r, const std::string& id, CheckStatus status) {
  for (const auto& c : r.checks)
    if (c.id == id && c.status == status) return &c;
  return nullptr;
}

const nlohmann::json* find_json(const nlohmann::json& report, const std::string& id) {
  for (const auto& c : report["checks"])
    if (c["id"] == id) return &c;
  return nullptr;
}

const platform::MapEnvironment no_env(std::map<std::string, std::string>{});

} // namespace

TEST_CASE("doctor --cuda-path naming nothing, an empty folder or a file: exit 2 in every output mode", "[doctor][doctor_findings]") {
  TempDir tmp;
  const auto empty = tmp.path() / "emptydir";
  fs::create_directories(empty);
  put(tmp.path() / "afile", "not a toolkit");
  for (const auto& bad : {(tmp.path() / "nonexist").string(), empty.string(), (tmp.path() / "afile").string()}) {
    INFO(bad);
    const auto text = run({"doctor", "--cuda-path", bad, "--layer", "1"});
    CHECK(text.code == 2);
    CHECK_THAT(text.err + text.out, Catch::Contains("is not a CUDA toolkit") && !Catch::Contains("toolkit.found"));
    const auto json = run({"doctor", "--cuda-path", bad, "--json"});
    CHECK(json.code == 2);
    const auto j = nlohmann::json::parse(json.out);
    CHECK(j["error"]["code"] == "input.invalid");
    CHECK(j["error"]["exit_code"] == 2);
    const auto html = run({"doctor", "--cuda-path", bad, "--html", (tmp.path() / "r.html").string()});
    CHECK(html.code == 2);
    CHECK_FALSE(fs::exists(tmp.path() / "r.html"));
  }
}

TEST_CASE("doctor names an interrupted transaction and leftover staging, and the command that rolls it back", "[doctor][doctor_findings]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  put(root / "lib64/libcudnn.so.9", "half placed");
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  put(root / ".cudnnctl/journal.json",
      R"({"schema_version": 1, "id": "j1", "description": "install cudnn-linux-x86_64-9.19.0.56_cuda12-archive into )" + root.string() +
          R"(", "phase": "applying", "moves": [], "remove_on_commit": [], "remove_on_rollback": []})");
  fs::create_directories(root / ".cudnnctl/staging-4242/lib");
  const auto r = run({"doctor", "--cuda-path", root.string(), "--layer", "2", "--json"});
  const auto j = nlohmann::json::parse(r.out);
  CHECK(r.code == 10);
  bool journal = false, staging = false;
  for (const auto& c : j["checks"]) {
    if (c["id"] != "files.interrupted") continue;
    const std::string finding = c["finding"];
    if (c["status"] == "fail") {
      journal = true;
      CHECK_THAT(finding, Catch::Contains("stopped before its commit point"));
      CHECK_THAT(c["fix"].get<std::string>(), Catch::Contains("cudnnctl uninstall --cuda-path " + root.string()));
    } else if (finding.find("staging-4242") != std::string::npos) {
      staging = true;
      CHECK(c["status"] == "warn");
    }
  }
  CHECK(journal);
  CHECK(staging);
}

TEST_CASE("a text file named libcudnn.so.9 is not called cuDNN 9.x", "[doctor][doctor_findings]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  put(root / "lib64/libcudnn.so.9", "just some text");
  DoctorOptions o;
  o.cuda_path = root.string();
  o.only_layer = 2;
  const auto r = run_doctor(o, no_env);
  const auto* c = find_check(r, "files.cudnn", CheckStatus::fail);
  REQUIRE(c);
  CHECK_THAT(c->finding, Catch::Contains("is not a shared library") && Catch::Contains("libcudnn.so.9"));
  CHECK_FALSE(find_check(r, "files.cudnn", CheckStatus::pass));
}

TEST_CASE("libraries that are not ELF are not blamed on a missing zlib", "[doctor][doctor_findings]") {
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  FakeSystem sys;
  const auto lib = (root / "lib64").string();
  sys.dirs[lib] = {"libcudnn.so.9", "libcudnn_graph.so.9", "libcudnn_ops.so.9"};
  sys.elf[lib + "/libcudnn.so.9"] = ElfDynamicInfo{};
  ElfDynamicInfo ops;
  ops.needed = {"libc.so.6"};
  sys.elf[lib + "/libcudnn_ops.so.9"] = ops;
  sys.dirs["/lib/x86_64-linux-gnu"] = {"libc.so.6"};
  sys.files["/lib/x86_64-linux-gnu/libc.so.6"] = "";
  DoctorOptions o;
  o.cuda_path = root.string();
  o.only_layer = 3;
  const auto r = run_doctor(o, no_env, sys);
  const auto* c = find_check(r, "loader.needed", CheckStatus::fail);
  REQUIRE(c);
  CHECK_THAT(c->finding, Catch::Contains("not shared libraries") && Catch::Contains("libcudnn_graph.so.9"));
  CHECK_THAT(c->cause + c->fix, !Catch::Contains("zlib") && !Catch::Contains("libz"));
}

TEST_CASE("a Windows tree whose DLLs are unreadable: no all-0-imports pass and no Linux fixes", "[doctor][doctor_findings]") {
  TempDir tmp;
  const auto root = windows_toolkit(tmp.path(), "12.4", false);
  for (const auto* d : {"cudnn64_9.dll", "cudnn_graph64_9.dll", "cudnn_ops64_9.dll"}) put(root / "bin" / d, "\x7f" "ELF not a DLL");
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  put(tmp.path() / "xdrive/stale/cudnn64_9.dll", "an older copy");
  const auto r = run({"doctor", "--cuda-path", root.string(), "--json", "--drive", "X:=" + (tmp.path() / "xdrive").string(), "--path-value",
                      "X:\\stale"});
  const auto j = nlohmann::json::parse(r.out);
  const auto* needed = find_json(j, "loader.needed");
  REQUIRE(needed);
  CHECK((*needed)["status"] == "fail");
  CHECK_THAT((*needed)["finding"].get<std::string>(), !Catch::Contains("all 0 imports"));
  const auto* versions = find_json(j, "files.versions");
  REQUIRE(versions);
  CHECK((*versions)["status"] != "pass");
  const auto* search = find_json(j, "files.search_path");
  REQUIRE(search);
  REQUIRE((*search)["fix"].is_string());
  const std::string fix = (*search)["fix"];
  CHECK_THAT(fix, !Catch::Contains("sudo") && Catch::Contains("--scope user") && Catch::Contains("bin"));
  CHECK_THAT(fix, !Catch::Contains(tmp.path().string()));
}

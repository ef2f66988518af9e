// The bundles.* checks on facts held in memory, their gathering through a FakeSystem, and one run of the
// binary over a fake site-packages holding a framework's bundle of cuDNN.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../cli/run_binary.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/base/sha256.hpp"
#include "cudnnctl/bundle/record.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/gather.hpp"
#include "cudnnctl/env/loader_path.hpp"
#include "fake_system.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

DoctorFacts toolkit_facts() {
  DoctorFacts f;
  Toolkit t;
  t.root = "/opt/cuda";
  t.version = "12.4";
  t.os = Os::linux_os;
  t.lib_dir = "lib64";
  t.include_dir = "include";
  t.found_by = "--cuda-path";
  f.toolkit.chosen = t;
  f.host_os = Os::linux_os;
  f.runtime_dir = "/opt/cuda/lib64";
  f.lib_names = {"libcudnn.so.9", "libcudnn_ops.so.9"};
  f.header = CudnnHeaderVersion{9, 1, 0};
  f.major = 9;
  f.bundles().gathered = true;
  f.bundles().looked_in = {"/venv/lib", "/usr/lib/python3/dist-packages"};
  return f;
}

Bundle torch_bundle(std::string dir = "/venv/lib/python3.12/site-packages/torch/lib") {
  Bundle b;
  b.dir = std::move(dir);
  b.files = {"libcudnn.so.9", "libcudnn_ops.so.9"};
  b.cudnn_major = 9;
  BundleOwner o;
  o.name = "torch";
  o.version = "2.5.1";
  o.metadata = "/venv/lib/python3.12/site-packages/torch-2.5.1.dist-info";
  o.site = "/venv/lib/python3.12/site-packages";
  b.owner = o;
  b.version = "9.1.0.70";
  b.cuda_major = 12;
  b.arch = "x86_64";
  b.state = BundleState::original;
  return b;
}

} // namespace

TEST_CASE("bundles.found: where it looked when there is none, and which copy each framework loads", "[doctor][bundles]") {
  auto f = toolkit_facts();
  f.bundles().not_asked = {"python (not on PATH)"};
  auto none = run_check(f, "bundles.found");
  REQUIRE(none.size() == 1);
  CHECK(none[0].id == "bundles.found");
  CHECK(none[0].status == CheckStatus::pass);
  CHECK_THAT(none[0].finding, Catch::Contains("no framework-bundled cuDNN found") && Catch::Contains("/venv/lib, /usr/lib/python3/dist-packages") &&
                                  Catch::Contains("python (not on PATH)"));

  f.bundles().bundles = {torch_bundle()};
  auto unbundled = torch_bundle("/venv2/torch/lib");
  unbundled.state = BundleState::unbundled;
  f.bundles().bundles.push_back(unbundled);
  auto found = run_check(f, "bundles.found");
  REQUIRE(found.size() == 1);
  CHECK(found[0].status == CheckStatus::pass);
  CHECK_THAT(found[0].finding, Catch::Contains("2 framework-bundled") &&
                                   Catch::Contains("'/venv/lib/python3.12/site-packages/torch/lib' (torch 2.5.1, cuDNN 9.1.0.70, original): programs of torch load this copy first") &&
                                   Catch::Contains("'/venv2/torch/lib' (torch 2.5.1): set aside by cudnnctl"));

  f.bundles().problems = {"/x/receipt.json is not a file cudnnctl wrote"};
  auto bad = run_check(f, "bundles.found");
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].status == CheckStatus::warn);
  CHECK_THAT(bad[0].finding, Catch::Contains("/x/receipt.json"));

  f.bundles().gathered = false;  // a toolkit of another machine: nothing searched, no row
  CHECK(run_check(f, "bundles.found").empty());
}

TEST_CASE("bundles.shadow: a bundle of the toolkit's major is loaded instead of the toolkit's, with the commands that change that", "[doctor][bundles]") {
  auto f = toolkit_facts();
  f.bundles().bundles = {torch_bundle("/venv/it's here/torch/lib")};
  auto out = run_check(f, "bundles.shadow");
  REQUIRE(out.size() == 1);
  CHECK(out[0].id == "bundles.shadow");
  CHECK(out[0].status == CheckStatus::warn);
  CHECK_THAT(out[0].finding, Catch::Contains("torch's programs load it first") && Catch::Contains("cuDNN 9.1.0 in /opt/cuda/lib64 is never used"));
  CHECK_THAT(out[0].cause, Catch::Contains("before LD_LIBRARY_PATH"));
  CHECK_THAT(out[0].fix, Catch::Contains("`cudnnctl bundle unbundle '/venv/it'\\''s here/torch/lib' --cuda-path /opt/cuda`") &&
                             Catch::Contains("`cudnnctl bundle swap '/venv/it'\\''s here/torch/lib' ARCHIVE`"));

  // another CUDA major: unbundle would be refused, so only swap is offered
  f.bundles().bundles[0].cuda_major = 11;
  out = run_check(f, "bundles.shadow");
  REQUIRE(out.size() == 1);
  CHECK_THAT(out[0].fix, Catch::Contains("bundle swap") && Catch::Contains("unbundle` is refused here: the framework is built for CUDA 11"));
  CHECK_THAT(out[0].fix, !Catch::Contains("bundle unbundle '/venv"));
  f.bundles().bundles[0].cuda_major = 0;  // unknown: unbundle is refused too
  out = run_check(f, "bundles.shadow");
  REQUIRE(out.size() == 1);
  CHECK_THAT(out[0].fix, Catch::Contains("bundle swap") && Catch::Contains("the CUDA major the framework is built for is unknown"));

  // set aside (the toolkit's copy loads), another cuDNN major, or a Windows bundle of the same major
  auto aside = torch_bundle();
  aside.state = BundleState::unbundled;
  auto eight = torch_bundle("/old/torch/lib");
  eight.cudnn_major = 8;
  f.bundles().bundles = {aside, eight};
  CHECK(run_check(f, "bundles.shadow").empty());
  // a Windows folder is quoted for cmd and PowerShell ("..."), and only when it needs it
  auto win = torch_bundle("C:/Program Files/Python312/Lib/site-packages/torch/lib");
  win.os = Os::windows;
  f.bundles().bundles = {win};
  out = run_check(f, "bundles.shadow");
  REQUIRE(out.size() == 1);
  CHECK_THAT(out[0].fix, Catch::Contains("`cudnnctl bundle swap \"C:/Program Files/Python312/Lib/site-packages/torch/lib\" ARCHIVE`"));
  f.bundles().bundles[0].dir = "C:/py/Lib/site-packages/torch/lib";
  out = run_check(f, "bundles.shadow");
  REQUIRE(out.size() == 1);
  CHECK_THAT(out[0].fix, Catch::Contains("`cudnnctl bundle swap C:/py/Lib/site-packages/torch/lib ARCHIVE`"));
}

TEST_CASE("bundles.state: modified and reverted warn with the way back, the others pass or skip", "[doctor][bundles]") {
  auto f = toolkit_facts();
  auto modified = torch_bundle("/a/torch/lib");
  modified.state = BundleState::modified;
  modified.state_note = "libcudnn_ops.so.9 differs from torch's RECORD";
  auto modified_after_swap = torch_bundle("/b/torch/lib");
  modified_after_swap.state = BundleState::modified;
  modified_after_swap.state_note = "the files differ from what cudnnctl's swap left and from the package's own";
  auto reverted = torch_bundle("/c/torch/lib");
  reverted.state = BundleState::reverted;
  reverted.state_note = "the package manager put its files back after cudnnctl's swap";
  auto conda = torch_bundle("/d/lib");
  conda.state = BundleState::modified;
  conda.owner->name = "cudnn";
  conda.owner->metadata = "/d/conda-meta/cudnn-9.1.0.70-h1.json";
  auto original = torch_bundle("/e/torch/lib");
  auto unrecorded = torch_bundle("/f/torch/lib");
  unrecorded.owner.reset();
  unrecorded.state = BundleState::unrecorded;
  auto swapped = torch_bundle("/g/torch/lib");
  swapped.state = BundleState::swapped;
  f.bundles().bundles = {modified, modified_after_swap, reverted, conda, original, unrecorded, swapped};
  const auto out = run_check(f, "bundles.state");
  REQUIRE(out.size() == 7);
  for (const auto& c : out) CHECK(c.id == "bundles.state");

  CHECK(out[0].status == CheckStatus::warn);
  CHECK_THAT(out[0].finding, Catch::Contains("'/a/torch/lib' (torch 2.5.1) is modified (libcudnn_ops.so.9 differs from torch's RECORD)"));
  CHECK_THAT(out[0].cause, Catch::Contains("by hand (not by cudnnctl)"));
  CHECK_THAT(out[0].fix, Catch::Contains("`pip install --force-reinstall --no-deps torch==2.5.1`"));
  CHECK_THAT(out[0].fix, !Catch::Contains("bundle restore"));

  CHECK(out[1].status == CheckStatus::warn);
  CHECK_THAT(out[1].fix, Catch::Contains("pip install --force-reinstall") && Catch::Contains("`cudnnctl bundle restore /b/torch/lib`"));

  CHECK(out[2].status == CheckStatus::warn);
  CHECK_THAT(out[2].finding, Catch::Contains("is reverted") && Catch::Contains("stale"));
  CHECK_THAT(out[2].fix, Catch::Contains("`cudnnctl bundle restore /c/torch/lib` forgets the change"));

  CHECK_THAT(out[3].fix, Catch::Contains("`conda install --force-reinstall cudnn`"));
  CHECK(out[4].status == CheckStatus::pass);
  CHECK_THAT(out[4].finding, Catch::Contains("is original (its files match the package's RECORD)"));
  CHECK(out[5].status == CheckStatus::skip);
  CHECK_THAT(out[5].finding, Catch::Contains("no RECORD or conda-meta lists its files"));
  CHECK(out[6].status == CheckStatus::pass);
}

TEST_CASE("bundles.versions: another cuDNN major or CUDA major than the toolkit's, both named", "[doctor][bundles]") {
  auto f = toolkit_facts();
  auto eight = torch_bundle("/a/torch/lib");
  eight.cudnn_major = 8;
  eight.version = "8.9.2.26";
  auto cuda11 = torch_bundle("/b/torch/lib");
  cuda11.cuda_major = 11;
  auto same = torch_bundle("/c/torch/lib");
  auto aside = torch_bundle("/d/torch/lib");
  aside.state = BundleState::unbundled;
  aside.cuda_major = 11;
  f.bundles().bundles = {eight, cuda11, same, aside};
  const auto out = run_check(f, "bundles.versions");
  REQUIRE(out.size() == 3);
  CHECK(out[0].status == CheckStatus::warn);
  CHECK_THAT(out[0].finding, Catch::Contains("cuDNN major 8 (cuDNN 8.9.2.26) and the toolkit cuDNN major 9 (cuDNN 9.1.0)"));
  CHECK(out[1].status == CheckStatus::warn);
  CHECK_THAT(out[1].finding, Catch::Contains("torch is built for CUDA 11 and the toolkit is CUDA 12 (12.4)"));
  CHECK_THAT(out[1].fix, Catch::Contains("for the toolkit's CUDA 12"));
  CHECK(out[2].status == CheckStatus::pass);
  CHECK_THAT(out[2].finding, Catch::Contains("'/c/torch/lib'"));
}

TEST_CASE("gathering bundles: --site alone, else the environment's folders and the Pythons on its PATH", "[doctor][bundles]") {
  const platform::MapEnvironment env(std::map<std::string, std::string>{
      {"VIRTUAL_ENV", "/venv"}, {"PATH", "/nowhere:/opt/py/bin/"}, {"CUDNNCTL_BUNDLE_STATE", "/state"}});
  SECTION("--site names the folders: no Python is asked") {
    FakeSystem sys;
    sys.bundle_scan.views.push_back({torch_bundle(), std::nullopt});
    auto f = toolkit_facts();
    f.bundles() = {};
    DoctorOptions o;
    o.bundle_sites = {"/s1", "/s2", "/s1"};
    gather_bundles(f, o, env, sys);
    CHECK(f.bundles().gathered);
    CHECK(sys.pythons_asked.empty());
    CHECK(sys.bundle_sites_asked == std::vector<std::string>{"/s1", "/s2"});
    CHECK(sys.bundle_state_root_asked == "/state");
    REQUIRE(f.bundles().bundles.size() == 1);
    CHECK(f.bundles().bundles[0].owner->name == "torch");
  }
  SECTION("by default: $VIRTUAL_ENV's folders and what the PATH's python3 reports") {
    FakeSystem sys;
    sys.files["/opt/py/bin/python3"] = "#!";
    sys.python_site_lists["/opt/py/bin/python3"] = {"/opt/py/lib/python3.12/site-packages", "/home/u/.local/lib/python3.12/site-packages"};
    sys.bundle_scan.problems = {"unreadable"};
    auto f = toolkit_facts();
    f.bundles() = {};
    gather_bundles(f, DoctorOptions{}, env, sys);
    CHECK(sys.pythons_asked == std::vector<std::string>{"/opt/py/bin/python3"});
    CHECK(sys.bundle_sites_asked == std::vector<std::string>{"/venv/lib", "/venv/Lib/site-packages", "/venv/Library/bin",
                                                             "/opt/py/lib/python3.12/site-packages", "/home/u/.local/lib/python3.12/site-packages"});
    CHECK(f.bundles().not_asked == std::vector<std::string>{"python (not on PATH)"});
    CHECK(f.bundles().problems == std::vector<std::string>{"unreadable"});
  }
  SECTION("a toolkit of another OS, or offline, searches this machine's Pythons only when --site is given") {
    FakeSystem sys;
    sys.files["/opt/py/bin/python3"] = "#!";
    auto f = toolkit_facts();
    f.bundles() = {};
    f.toolkit.chosen->os = Os::windows;
    gather_bundles(f, DoctorOptions{}, env, sys);
    CHECK_FALSE(f.bundles().gathered);
    auto g = toolkit_facts();
    g.bundles() = {};
    g.offline = true;
    gather_bundles(g, DoctorOptions{}, env, sys);
    CHECK_FALSE(g.bundles().gathered);
    CHECK(sys.bundle_scans == 0);
    CHECK(sys.pythons_asked.empty());
  }
  SECTION("python3 and python of a venv are read from its pyvenv.cfg through the seam: no Python is asked") {
    const platform::MapEnvironment venv_env(std::map<std::string, std::string>{
        {"VIRTUAL_ENV", "/venv"}, {"HOME", "/home/u"}, {"PATH", "/venv/bin"}, {"CUDNNCTL_BUNDLE_STATE", "/state"}});
    FakeSystem sys;
    sys.files["/venv/bin/python3"] = "#!";
    sys.files["/venv/bin/python"] = "#!";
    sys.files["/venv/pyvenv.cfg"] = "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.12.3\n";
    auto f = toolkit_facts();
    f.bundles() = {};
    gather_bundles(f, DoctorOptions{}, venv_env, sys);
    CHECK(sys.pythons_asked.empty());
    CHECK(f.bundles().not_asked.empty());
    CHECK(sys.bundle_sites_asked == std::vector<std::string>{"/venv/lib", "/venv/Lib/site-packages", "/venv/Library/bin",
                                                             "/venv/lib/python3.12/site-packages", "/home/u/.local/lib/python3.12/site-packages"});
  }
}

namespace {

// RECORD's row for a file below `site`.
std::string record_row(const fs::path& site, const fs::path& file) {
  const auto hex = sha256_file(file.string());
  REQUIRE(hex);
  return fs::relative(file, site).generic_string() + "," + record_hash_of_hex(*hex) + "," + std::to_string(fs::file_size(file)) + "\r\n";
}

const nlohmann::json* row_of(const nlohmann::json& doc, const std::string& id) {
  for (const auto& c : doc.at("checks"))
    if (c.at("id") == id) return &c;
  return nullptr;
}

struct StateRootEnv {
  std::string name;
  StateRootEnv(std::string n, const std::string& value) : name(std::move(n)) { ::setenv(name.c_str(), value.c_str(), 1); }
  ~StateRootEnv() { ::unsetenv(name.c_str()); }
  StateRootEnv(const StateRootEnv&) = delete;
  StateRootEnv& operator=(const StateRootEnv&) = delete;
};

} // namespace

TEST_CASE("cudnnctl doctor --site: a torch bundle shadowing the toolkit, then hand-edited", "[doctor][bundles][cli]") {
  const fs::path fakes = CUDNNCTL_FAKES_DIR;
  TempDir tmp;
  const auto root = linux_toolkit(tmp.path(), "12.4");
  const auto lib = root / "targets/x86_64-linux/lib";
  fs::copy_file(fakes / "libcudnn.so.9", lib / "libcudnn.so.9");
  for (const char* s : {"graph", "ops", "cnn", "adv", "engines_precompiled", "engines_runtime_compiled", "heuristic"})
    fs::copy_file(fakes / (std::string("libcudnn_") + s + ".so.9"), lib / (std::string("libcudnn_") + s + ".so.9"));
  put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 1\n#define CUDNN_PATCHLEVEL 0\n");
  // torch 2.5.1 as pip installs it: torch/lib/libcudnn.so.9 listed in torch's RECORD (CRLF)
  const auto site = tmp.path() / "venv/lib/python3.12/site-packages";
  const auto bundle = site / "torch/lib";
  fs::create_directories(bundle);
  fs::copy_file(fakes / "libcudnn.so.9", bundle / "libcudnn.so.9");
  fs::copy_file(fakes / "libcudnn_ops.so.9", bundle / "libcudnn_ops.so.9");
  put(bundle / "libcudart.so.12", "torch's cudart: the framework is built for CUDA 12");
  const auto di = site / "torch-2.5.1.dist-info";
  put(di / "METADATA", "Metadata-Version: 2.1\r\nName: torch\r\nVersion: 2.5.1\r\n\r\n");
  put(di / "RECORD", record_row(site, bundle / "libcudnn.so.9") + record_row(site, bundle / "libcudnn_ops.so.9") + "torch-2.5.1.dist-info/RECORD,,\r\n");
  const StateRootEnv state("CUDNNCTL_BUNDLE_STATE", (tmp.path() / "state").string());

  auto doctor = [&] {
    auto r = run_binary({"doctor", "--cuda-path", root.string(), "--layer", "2", "--site", site.string(), "--json"});
    INFO(r.out);
    return nlohmann::json::parse(r.out);
  };
  const auto doc = doctor();
  const auto* found = row_of(doc, "bundles.found");
  REQUIRE(found);
  CHECK(found->at("status") == "pass");
  CHECK_THAT(found->at("finding").get<std::string>(), Catch::Contains(bundle.string()) && Catch::Contains("torch 2.5.1") &&
                                                          Catch::Contains("programs of torch load this copy first"));
  const auto* shadow = row_of(doc, "bundles.shadow");
  REQUIRE(shadow);
  CHECK(shadow->at("status") == "warn");
  CHECK_THAT(shadow->at("fix").get<std::string>(), Catch::Contains("`cudnnctl bundle unbundle " + shell_word(bundle.string()) + " --cuda-path " + shell_word(root.string()) + "`"));
  const auto* st = row_of(doc, "bundles.state");
  REQUIRE(st);
  CHECK(st->at("status") == "pass");
  CHECK_THAT(st->at("finding").get<std::string>(), Catch::Contains("is original"));

  std::ofstream(bundle / "libcudnn_ops.so.9", std::ios::binary | std::ios::app) << "edited by hand";
  const auto after = doctor();
  const auto* edited = row_of(after, "bundles.state");
  REQUIRE(edited);
  CHECK(edited->at("status") == "warn");
  CHECK_THAT(edited->at("finding").get<std::string>(), Catch::Contains("is modified (libcudnn_ops.so.9 differs from torch's RECORD)"));
  CHECK_THAT(edited->at("fix").get<std::string>(), Catch::Contains("pip install --force-reinstall --no-deps torch==2.5.1"));

  // with no bundle below the site, the row says where it looked
  const auto empty = run_binary({"doctor", "--cuda-path", root.string(), "--layer", "2", "--site", (tmp.path() / "none").string(), "--json"});
  const auto empty_doc = nlohmann::json::parse(empty.out);
  const auto* none = row_of(empty_doc, "bundles.found");
  REQUIRE(none);
  CHECK(none->at("status") == "pass");
  CHECK_THAT(none->at("finding").get<std::string>(), Catch::Contains("no framework-bundled cuDNN found (searched " + (tmp.path() / "none").string()));
}

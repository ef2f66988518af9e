// NVIDIA's Windows cuDNN installer's copies listed through an in-memory listing (env/installer_copies.hpp): the
// release and CUDA folders, the machine folder of later layouts, what PATH names, the bounds on a hostile tree,
// and the copy that fits a toolkit; then doctor --fix's step for files.windows_installer (doctor/fix_plan.cpp).
#include <catch2/catch.hpp>

#include <map>

#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/fix.hpp"
#include "cudnnctl/env/installer_copies.hpp"

using namespace cudnnctl;

namespace {

const std::string k_root = "C:\\Program Files\\NVIDIA\\CUDNN";

// folders by their local name ("/pf/..."), and the main DLLs' versions
struct MemoryTree {
  std::map<std::string, std::vector<std::string>> dirs;
  std::map<std::string, std::string> versions;
  mutable int listed = 0;
  InstallerListing listing() const {
    return {[this](const std::string& d) {
              ++listed;
              const auto it = dirs.find(d);
              return it == dirs.end() ? std::vector<std::string>{} : it->second;
            },
            [this](const std::string& f) {
              const auto it = versions.find(f);
              return it == versions.end() ? std::string() : it->second;
            }};
  }
};

const std::vector<std::string> k_dlls91{"cudnn64_9.dll", "cudnn_ops64_9.dll", "cudnn_graph64_9.dll"};

MemoryTree side_by_side() {
  MemoryTree t;
  t.dirs["/pf"] = {"v9.1", "v9.19", "notes.txt", "v9"};
  t.dirs["/pf/v9.1/bin"] = {"11.8", "12.4"};
  t.dirs["/pf/v9.1/bin/11.8"] = k_dlls91;
  t.dirs["/pf/v9.1/bin/12.4"] = k_dlls91;
  t.versions["/pf/v9.1/bin/12.4/cudnn64_9.dll"] = "9.1.0.70";
  t.dirs["/pf/v9.19/bin"] = {"12.9", "13.0"};
  t.dirs["/pf/v9.19/bin/12.9/x64"] = k_dlls91;  // 9.18 on: the machine folder
  t.dirs["/pf/v9.19/bin/13.0/x64"] = k_dlls91;
  t.versions["/pf/v9.19/bin/12.9/x64/cudnn64_9.dll"] = "9.19.0.56";
  return t;
}

}  // namespace

TEST_CASE("the installer's copies: release and CUDA folders, machine folders, PATH", "[windows_installer][installer_copies]") {
  const auto tree = side_by_side();
  std::vector<std::string> bins;
  const auto copies = list_installer_copies(k_root, "/pf", tree.listing(), {k_root + "\\v9.1\\bin", k_root + "\\V9.19\\BIN\\12.9\\x64"}, &bins);
  REQUIRE(copies.size() == 4);
  CHECK(copies[0].dir == k_root + "\\v9.1\\bin\\11.8");
  CHECK(copies[1].dir == k_root + "\\v9.1\\bin\\12.4");
  CHECK(copies[1].version == "9.1.0.70");
  CHECK(copies[1].dlls == std::vector<std::string>{"cudnn64_9.dll", "cudnn_graph64_9.dll", "cudnn_ops64_9.dll"});
  CHECK(copies[2].dir == k_root + "\\v9.19\\bin\\12.9\\x64");
  CHECK(copies[2].local == "/pf/v9.19/bin/12.9/x64");
  CHECK(copies[2].on_path);  // PATH entries compare as Windows does: case and separators aside
  CHECK_FALSE(copies[1].on_path);
  CHECK(bins == std::vector<std::string>{k_root + "\\v9.1\\bin"});  // the installer's own entry, without DLLs

  // the copy that fits: the toolkit's CUDA major; one on PATH before a newer release's
  CHECK(fitting_installer_copy(copies, "12.4") == &copies[2]);
  CHECK(fitting_installer_copy(copies, "11.8") == &copies[0]);
  CHECK(fitting_installer_copy(copies, "13.1") == &copies[3]);
  CHECK(fitting_installer_copy(copies, "10.2") == nullptr);
  const auto off_path = list_installer_copies(k_root, "/pf", tree.listing(), {});
  CHECK(fitting_installer_copy(off_path, "12.4") == &off_path[2]);  // the newest release's that fits
  CHECK(fitting_installer_copy({}, "12.4") == nullptr);
}

TEST_CASE("the installer's copies: an unreachable root, no DLL, and a hostile tree read only so far", "[windows_installer][installer_copies]") {
  MemoryTree tree = side_by_side();
  CHECK(list_installer_copies(k_root, "", tree.listing(), {}).empty());
  tree.dirs["/pf/v9.1/bin/12.4"] = {"readme.txt", "cudnn64_9.lib"};
  tree.dirs["/pf/v9.1/bin/11.8"] = {"cudnn_ops64_9.dll"};  // a sub-library without the main DLL is no copy
  auto copies = list_installer_copies(k_root, "/pf", tree.listing(), {});
  CHECK(copies.size() == 2);
  MemoryTree hostile;
  for (int i = 0; i < 1000; ++i) hostile.dirs["/pf"].push_back("v9." + std::to_string(i));
  for (int i = 0; i < 1000; ++i) hostile.dirs["/pf/v9." + std::to_string(i) + "/bin"] = {"12.4", "..", "12.4\\..\\..", "/abs"};
  copies = list_installer_copies(k_root, "/pf", hostile.listing(), {});
  CHECK(copies.empty());
  CHECK(hostile.listed <= 1 + 64 + 64 * 64 * 3);  // 64 releases, each with at most 64 CUDA folders and their machine folders
}

TEST_CASE("doctor --fix plans the installer's folder on PATH for a toolkit without cuDNN", "[windows_installer][doctor_fix]") {
  auto f = std::make_shared<DoctorFacts>();
  Toolkit t;
  t.root = "C:\\CUDA\\v12.4";
  t.version = "12.4";
  t.os = Os::windows;
  t.dll_dir = "bin";
  f->toolkit.chosen = t;
  f->model = LoaderModel::windows_pe;
  f->host_os = Os::windows;
  const auto tree = side_by_side();
  f->installer.gathered = true;
  f->installer.copies = list_installer_copies(k_root, "/pf", tree.listing(), {});
  Checks checks;
  find_check("files.windows_installer")->run(*f, checks);
  REQUIRE(checks.size() == 1);
  CHECK(checks[0].status == CheckStatus::fail);
  CHECK(checks[0].fix.find("cudnnctl path --cuda-path") != std::string::npos);
  DoctorReport r;
  r.checks = checks;
  r.facts = f;
  const auto plan = plan_fixes(r, FixContext{}, {});
  REQUIRE(plan.steps.size() == 1);
  CHECK(plan.steps[0].check == "files.windows_installer");
  CHECK(plan.steps[0].operation == FixOperation::loader_path);
  CHECK(plan.steps[0].target == k_root + "\\v9.19\\bin\\12.9\\x64");
  CHECK(plan.steps[0].scope == "user");
  CHECK(plan.steps[0].command.find("--apply --scope user") != std::string::npos);
  REQUIRE_FALSE(plan.steps[0].changes.empty());
  CHECK(plan.steps[0].changes[0].find(k_root + "\\v9.19\\bin\\12.9\\x64 first") != std::string::npos);

  SECTION("offline (a mounted Windows tree), or no folder for the toolkit's CUDA major: printed, with why") {
    f->offline = true;
    auto printed = plan_fixes(r, FixContext{}, {});
    CHECK(printed.steps.empty());
    REQUIRE(printed.printed.size() == 1);
    CHECK(printed.printed[0].why.find("another machine") != std::string::npos);
    f->offline = false;
    f->toolkit.chosen->version = "11.2";
    f->installer.copies.erase(f->installer.copies.begin());  // no 11.x folder left
    Checks no_fit;
    find_check("files.windows_installer")->run(*f, no_fit);
    REQUIRE(no_fit.size() == 1);
    CHECK(no_fit[0].status == CheckStatus::fail);
    r.checks = no_fit;
    printed = plan_fixes(r, FixContext{}, {});
    CHECK(printed.steps.empty());
    CHECK(printed.printed.at(0).why.find("no folder of the installer fits") != std::string::npos);
  }
}

// doctor --fix: planted problems (an interrupted install's journal, a dead run's staging folder, an installed
// file emptied as antivirus does with the archive in the download cache; the toolkit's cuDNN not first in the
// ld.so cache of a system root) repaired by one `doctor --fix --yes`, each as its own transaction; --dry-run
// changes no byte; a second run plans nothing.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <optional>

#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../cli/run_binary.hpp"
#include "../cli/run_cli.hpp"
#include "../install/toolkit_trees.hpp"
#include "../skip.hpp"
#include "cudnnctl/base/text_file.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/fix.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

// LD_LIBRARY_PATH as a test needs it, put back afterwards (the CLI runs in this process)
struct LoaderPathVariable {
  std::optional<std::string> old;
  explicit LoaderPathVariable(const std::optional<std::string>& value) {
    if (const char* v = std::getenv("LD_LIBRARY_PATH")) old = v;
    if (value)
      ::setenv("LD_LIBRARY_PATH", value->c_str(), 1);
    else
      ::unsetenv("LD_LIBRARY_PATH");
  }
  ~LoaderPathVariable() {
    if (old)
      ::setenv("LD_LIBRARY_PATH", old->c_str(), 1);
    else
      ::unsetenv("LD_LIBRARY_PATH");
  }
};

struct Broken {
  TempDir tmp;
  fs::path root = linux_toolkit(tmp.path(), "12.4");
  fs::path cache = tmp.path() / "cache";
  fs::path site = tmp.path() / "site";
  fs::path sysroot = tmp.path() / "sysroot";  // never this machine's ld.so.conf.d, whatever the search path says
  fs::path emptied;
  // the toolkit first on the loader path, so that files.search_path (its own test below) has nothing to fix here
  LoaderPathVariable first{(root / "targets/x86_64-linux/lib").string()};
  Broken() {
    put(sysroot / "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    fs::create_directories(cache);
    fs::create_directories(site);
    const auto archive = (cache / (L91 + ".tar.xz")).string();
    fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), archive);
    const auto installed = run({"install", archive, "--sha256", *sha256_file(archive), "--cuda-path", root.string()});
    REQUIRE(installed.code == 0);
    // antivirus empties a library the receipt lists
    for (const auto& e : fs::directory_iterator(root / "targets/x86_64-linux/lib"))
      if (!fs::is_symlink(e.path()) && e.path().filename().string().starts_with("libcudnn_ops")) emptied = e.path();
    REQUIRE(!emptied.empty());
    std::ofstream(emptied, std::ios::binary | std::ios::trunc).flush();
    // an install killed after its journal was written, and a staging folder of a run that died
    put(root / ".cudnnctl/journal.json",
        R"({"schema_version": 1, "id": "j1", "description": "install cudnn-linux-x86_64-9.1.0.70_cuda12-archive into )" + root.string() +
            R"(", "phase": "applying", "moves": [], "remove_on_commit": [], "remove_on_rollback": []})");
    put(root / ".cudnnctl/staging-4242/lib/libcudnn_graph.so.9", "half extracted");
  }
  std::vector<std::string> fix(std::vector<std::string> more) {
    std::vector<std::string> args{"doctor",  "--cuda-path",  root.string(), "--layer",        "2",    "--site", site.string(),
                                  "--cache", cache.string(), "--root",      sysroot.string(), "--fix"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
};

std::vector<std::string> step_checks(const nlohmann::json& j) {
  std::vector<std::string> out;
  for (const auto& s : j["plan"]["steps"]) out.push_back(s["check"]);
  return out;
}

}  // namespace

TEST_CASE("the automatic fixes are rows of the check table, every other check's fix is printed", "[doctor][doctor_fix]") {
  for (const auto& rule : fix_rules()) {
    INFO(rule.check);
    const auto* row = find_check(rule.check);
    REQUIRE(row);
    CHECK(row->id == rule.check);
    CHECK(rule.fixes.size() > 20);
  }
  const auto listed = nlohmann::json::parse(run({"doctor", "--list-checks", "--json"}).out);
  int automatic = 0;
  for (const auto& c : listed["checks"]) {
    INFO(c["id"]);
    CHECK((c["fix"]["kind"] == "automatic") == (automatic_fix(c["id"].get<std::string>()) != nullptr));
    automatic += c["fix"]["kind"] == "automatic";
  }
  CHECK(automatic == static_cast<int>(fix_rules().size()));
}

TEST_CASE("doctor --fix --yes repairs an interrupted journal, a dead staging folder and an emptied file, and a second run plans nothing",
          "[doctor][doctor_fix]") {
  Broken b;
  const auto before = snapshot(b.tmp.path());

  // --dry-run: the plan, in order (the recovery before the repair), and not one byte changed
  const auto dry = run(b.fix({"--dry-run", "--json"}));
  CHECK(dry.code == 10);
  const auto plan = nlohmann::json::parse(dry.out);
  CHECK(plan["schema"] == "cudnnctl.doctor-fix/1");
  CHECK(step_checks(plan) == std::vector<std::string>{"files.interrupted", "files.receipt"});
  CHECK(plan["plan"]["steps"][1]["command"].get<std::string>().find("cudnnctl install " + (b.cache / (L91 + ".tar.xz")).string()) == 0);
  CHECK(snapshot(b.tmp.path()) == before);

  // no terminal to ask on and no --yes: refused, nothing changed
  const auto unasked = run(b.fix({}));
  CHECK(unasked.code == 2);
  CHECK_THAT(unasked.err + unasked.out, Catch::Contains("--yes"));
  CHECK(snapshot(b.tmp.path()) == before);

  const auto fixed = run(b.fix({"--yes", "--json"}));
  INFO(fixed.out << fixed.err);
  CHECK(fixed.code == 0);
  const auto j = nlohmann::json::parse(fixed.out);
  REQUIRE(j["results"].size() == 2);
  for (const auto& r : j["results"]) CHECK(r["applied"] == true);
  for (const auto& c : j["checks"])
    for (const auto& after : c["after"]) CHECK((after["status"] == "pass" || after["status"] == "skip"));
  CHECK(fs::file_size(b.emptied) > 0);
  CHECK_FALSE(fs::exists(b.root / ".cudnnctl/journal.json"));
  CHECK_FALSE(fs::exists(b.root / ".cudnnctl/staging-4242"));

  // the doctor agrees, and a second --fix plans nothing
  const auto checked = run({"doctor", "--cuda-path", b.root.string(), "--check", "files.interrupted", "--check", "files.receipt", "--json"});
  const auto checked_json = nlohmann::json::parse(checked.out);  // named: a range-for over a temporary's member dangles
  REQUIRE(checked_json["checks"].size() == 2);
  for (const auto& c : checked_json["checks"]) CHECK(c["status"] != "fail");
  const auto again = run(b.fix({"--yes", "--json"}));
  CHECK(again.code == 0);
  CHECK(nlohmann::json::parse(again.out)["plan"]["steps"].empty());
}

TEST_CASE("doctor --fix ID: only that check's fix, and a receipt's archive gone from the cache is printed with why", "[doctor][doctor_fix]") {
  Broken b;
  fs::remove(b.cache / (L91 + ".tar.xz"));
  const auto only = nlohmann::json::parse(run(b.fix({"files.receipt", "--dry-run", "--json"})).out);
  CHECK(only["plan"]["steps"].empty());
  REQUIRE(only["plan"]["printed"].size() == 1);
  CHECK(only["plan"]["printed"][0]["check"] == "files.receipt");
  CHECK_THAT(only["plan"]["printed"][0]["why_not_automatic"].get<std::string>(), Catch::Contains("is not in the download cache"));
  // --fix repeated: every ID named is kept (the last one alone was kept before)
  const auto both = nlohmann::json::parse(run(b.fix({"files.interrupted", "--fix", "files.receipt", "--dry-run", "--json"})).out);
  CHECK(step_checks(both) == std::vector<std::string>{"files.interrupted"});
  REQUIRE(both["plan"]["printed"].size() == 1);
  CHECK(both["plan"]["printed"][0]["check"] == "files.receipt");
  CHECK(run(b.fix({"files.receipt", "--fix", "no.such.check", "--yes"})).code == 2);
  const auto text = run(b.fix({"files.interrupted", "--yes"}));
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("fixed  files.interrupted") && Catch::Contains("after no finding"));
  CHECK(fs::file_size(b.emptied) == 0);  // not asked for: left as it was
  CHECK(run(b.fix({"no.such.check", "--yes"})).code == 2);
}

namespace {

// A system root whose ld.so cache gives the distribution's older cuDNN 9 (/usr/lib/x86_64-linux-gnu, listed by
// x86_64-linux-gnu.conf as Debian does) and does not list the toolkit's: programs load the old one. The libraries
// are the ELF stand-ins (SONAME libcudnn.so.9) so that the real ldconfig lists them.
struct Unlisted {
  TempDir tmp;
  fs::path sysroot = fs::weakly_canonical(tmp.path()) / "sysroot";
  fs::path root = linux_toolkit(sysroot / "opt", "12.4");
  fs::path lib = root / "targets/x86_64-linux/lib";
  fs::path distro = sysroot / "usr/lib/x86_64-linux-gnu";
  LoaderPathVariable unset{std::nullopt};
  Unlisted() {
    fs::create_directories(distro);
    fs::copy_file(std::string(CUDNNCTL_FAKES_DIR) + "/libcudnn.so.9", lib / "libcudnn.so.9.19.0");
    fs::create_symlink("libcudnn.so.9.19.0", lib / "libcudnn.so.9");
    put(root / "include/cudnn_version.h", "#define CUDNN_MAJOR 9\n#define CUDNN_MINOR 19\n#define CUDNN_PATCHLEVEL 0\n");
    fs::copy_file(std::string(CUDNNCTL_FAKES_DIR) + "/libcudnn.so.9", distro / "libcudnn.so.9.1.0");
    fs::create_symlink("libcudnn.so.9.1.0", distro / "libcudnn.so.9");
    put(sysroot / "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n");
    put(sysroot / "etc/ld.so.conf.d/x86_64-linux-gnu.conf", "/usr/lib/x86_64-linux-gnu\n");
    REQUIRE(std::system(("ldconfig -r '" + sysroot.string() + "'").c_str()) == 0);
  }
  std::vector<std::string> doctor(std::vector<std::string> more) const {
    std::vector<std::string> args{"doctor", "--cuda-path", root.string(), "--root", sysroot.string()};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
  std::string search_path_status() const {
    const auto j = nlohmann::json::parse(run(doctor({"--check", "files.search_path", "--json"})).out);
    for (const auto& c : j["checks"])
      if (c["id"] == "files.search_path") return c["status"];
    return "none";
  }
};

bool have_ldconfig() { return std::system("ldconfig --version > /dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("doctor --fix puts the toolkit first in the ld.so cache (path --apply), and the check passes for programs started afterwards",
          "[doctor][doctor_fix]") {
  if (!have_ldconfig()) CUDNNCTL_SKIP("ldconfig is not on this machine");
  Unlisted u;
  REQUIRE(u.search_path_status() == "fail");
  const auto before = snapshot(u.tmp.path());

  const auto dry = run(u.doctor({"--layer", "2", "--fix", "files.search_path", "--dry-run", "--json"}));
  INFO(dry.out << dry.err);
  CHECK(dry.code == 10);
  const auto plan = nlohmann::json::parse(dry.out);
  REQUIRE(step_checks(plan) == std::vector<std::string>{"files.search_path"});
  const auto& step = plan["plan"]["steps"][0];
  CHECK(step["operation"] == "path");
  CHECK(step["target"] == u.lib.string());
  CHECK(step["command"] == "cudnnctl path --cuda-path " + u.root.string() + " --apply --root " + u.sysroot.string());
  CHECK_THAT(step["changes"][0].get<std::string>(), Catch::Contains("/etc/ld.so.conf.d/cudnnctl-linux-12.4-"));
  CHECK_THAT(step["changes"][1].get<std::string>(), Catch::Contains("a running shell needs nothing"));
  CHECK(snapshot(u.tmp.path()) == before);

  const auto fixed = run(u.doctor({"--layer", "2", "--fix", "--yes", "--json"}));
  INFO(fixed.out << fixed.err);
  CHECK(fixed.code == 0);
  const auto j = nlohmann::json::parse(fixed.out);
  REQUIRE(j["results"].size() == 1);
  CHECK(j["results"][0]["applied"] == true);
  const auto entry = "/opt/linux-12.4/targets/x86_64-linux/lib";
  CHECK_THAT(j["results"][0]["message"].get<std::string>(), Catch::Contains("now gives libcudnn.so.9 from " + std::string(entry)));
  std::size_t confs = 0;
  for (const auto& e : fs::directory_iterator(u.sysroot / "etc/ld.so.conf.d"))
    if (e.path().filename().string().starts_with("cudnnctl-")) {
      ++confs;
      CHECK_THAT(*read_text_head(e.path(), 4096), Catch::Contains(std::string(entry) + "\n"));
    }
  CHECK(confs == 1);
  // a program started now (a doctor with this environment) loads the toolkit's cuDNN, and nothing is left to fix
  CHECK(u.search_path_status() == "pass");
  const auto again = run(u.doctor({"--layer", "2", "--fix", "--yes", "--json"}));
  CHECK(again.code == 0);
  CHECK(nlohmann::json::parse(again.out)["plan"]["steps"].empty());
}

TEST_CASE("doctor --fix leaves an LD_LIBRARY_PATH that names another cuDNN first to the shell, and says so", "[doctor][doctor_fix]") {
  if (!have_ldconfig()) CUDNNCTL_SKIP("ldconfig is not on this machine");
  Unlisted u;
  LoaderPathVariable shadow{u.distro.string()};
  const auto before = snapshot(u.tmp.path());
  const auto dry = nlohmann::json::parse(run(u.doctor({"--layer", "2", "--fix", "files.search_path", "--dry-run", "--json"})).out);
  CHECK(dry["plan"]["steps"].empty());
  REQUIRE(dry["plan"]["printed"].size() == 1);
  const auto why = dry["plan"]["printed"][0]["why_not_automatic"].get<std::string>();
  CHECK_THAT(why, Catch::Contains(u.distro.string() + " comes first through LD_LIBRARY_PATH") &&
                      Catch::Contains("eval \"$(cudnnctl path --cuda-path " + u.root.string() + " --shell bash)\""));
  const auto yes = run(u.doctor({"--layer", "2", "--fix", "files.search_path", "--yes"}));
  CHECK(yes.code == 0);  // nothing automatic to do: the printed fix stays the user's
  CHECK(snapshot(u.tmp.path()) == before);
}

TEST_CASE("doctor --fix without root prints the loader path's fix: sudo, or the line for this shell", "[doctor][doctor_fix]") {
  if (!have_ldconfig()) CUDNNCTL_SKIP("ldconfig is not on this machine");
  // this machine's own root and ld.so cache, read only (a dry run, by an unprivileged user: nothing can be written)
  std::string as_user;
  if (::geteuid() == 0) {
    if (std::system("setpriv --version > /dev/null 2>&1") != 0) CUDNNCTL_SKIP("run as root and setpriv is not here to drop it");
    as_user = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  }
  Unlisted u;
  const auto site = u.tmp.path() / "site";
  fs::create_directories(site);
  const auto out = (u.tmp.path() / "plan.json").string();
  const auto cmd = "env -u LD_LIBRARY_PATH " + as_user + shell_quote(CUDNNCTL_BINARY) + " doctor --cuda-path " + shell_quote(u.root.string()) +
                   " --layer 2 --site " + shell_quote(site.string()) + " --fix files.search_path --dry-run --json > " + shell_quote(out);
  CHECK(WEXITSTATUS(std::system(cmd.c_str())) == 0);  // nothing automatic is left to do here
  const auto text = read_text_head(out, 1 << 20).value_or("");
  INFO(text);
  const auto plan = nlohmann::json::parse(text, nullptr, false);
  REQUIRE(plan.is_object());
  CHECK(plan["plan"]["steps"].empty());
  REQUIRE(plan["plan"]["printed"].size() == 1);
  const auto why = plan["plan"]["printed"][0]["why_not_automatic"].get<std::string>();
  CHECK_THAT(why, Catch::Contains("/etc/ld.so.conf.d/cudnnctl-linux-12.4-") && Catch::Contains("needs root: `sudo cudnnctl doctor --fix`") &&
                      Catch::Contains("eval \"$(cudnnctl path --cuda-path " + u.root.string() + " --shell bash)\""));
}

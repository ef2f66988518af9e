// doctor --fix: planted problems (an interrupted install's journal, a dead run's staging folder, an installed
// file emptied as antivirus does with the archive in the download cache) repaired by one `doctor --fix --yes`,
// each as its own transaction; --dry-run changes no byte; a second run plans nothing.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../cli/run_cli.hpp"
#include "../install/toolkit_trees.hpp"
#include "cudnnctl/doctor/check_table.hpp"
#include "cudnnctl/doctor/fix.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;

namespace {

struct Broken {
  TempDir tmp;
  fs::path root = linux_toolkit(tmp.path(), "12.4");
  fs::path cache = tmp.path() / "cache";
  fs::path site = tmp.path() / "site";
  fs::path emptied;
  Broken() {
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
    std::vector<std::string> args{"doctor", "--cuda-path", root.string(), "--layer",      "2",
                                  "--site", site.string(), "--cache",     cache.string(), "--fix"};
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
  const auto text = run(b.fix({"files.interrupted", "--yes"}));
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("fixed  files.interrupted") && Catch::Contains("after no finding"));
  CHECK(fs::file_size(b.emptied) == 0);  // not asked for: left as it was
  CHECK(run(b.fix({"no.such.check", "--yes"})).code == 2);
}

// --json is always one valid JSON document (bytes that are not UTF-8 become U+FFFD) with the real error
// and exit code, usage errors honour --json wherever it stands, and text mode never hands control bytes
// from a name or a file to the terminal.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../archive/test_archives.hpp"
#include "../install/toolkit_trees.hpp"
#include "run_binary.hpp"
#include "run_cli.hpp"

using namespace cudnnctl;
using namespace cudnnctl::testing;
namespace fs = std::filesystem;

namespace {

nlohmann::json parse_json(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  INFO(text);
  REQUIRE(!j.is_discarded());
  return j;
}
} // namespace

TEST_CASE("json: a checksum file of random bytes gives the real error as valid JSON", "[cli][json]") {
  TempDir tmp;
  const auto tar = (tmp.path() / (L91 + ".tar.xz")).string();
  fs::copy_file(test_archive("good/" + L91 + ".tar.xz"), tar);
  const auto sums = (tmp.path() / "rnd.sha").string();
  std::ofstream(sums, std::ios::binary) << "\xff\xfe\x1b[2J\x1b]0;pwned\x07\x9b\x80 garbage\n";

  const auto j = run({"verify", tar, "--sha256-file", sums, "--json"});
  CHECK(j.code == 4);
  const auto doc = parse_json(j.out);
  CHECK(doc["error"]["code"] == "verify.bad-hash-input");
  CHECK(doc["error"]["exit_code"] == 4);
  CHECK_THAT(doc["error"]["message"].get<std::string>(), Catch::Contains("\xEF\xBF\xBD"));  // U+FFFD for \xff
  for (unsigned char c : j.out) CHECK(c < 0x80);  // ASCII only

  const auto text = run({"verify", tar, "--sha256-file", sums});
  CHECK(text.code == 4);
  CHECK(text.err.find('\x1b') == std::string::npos);
  CHECK(text.err.find('\x07') == std::string::npos);
  CHECK(text.err.find('\xff') == std::string::npos);
  CHECK_THAT(text.err, Catch::Contains("\\x1b[2J") && Catch::Contains("\\xff"));
}

TEST_CASE("json: a name with a byte that is not UTF-8 is name.non-ascii, not internal", "[cli][json]") {
  const auto r = run({"inspect", "cudnn-linux-x86_64-9.1.0.70_cuda12-archive\xff.tar.xz", "--json"});
  CHECK(r.code == 3);
  const auto doc = parse_json(r.out);
  CHECK(doc["error"]["code"] == "name.non-ascii");
}

TEST_CASE("json: a toolkit path that is not UTF-8 is shown by path and doctor", "[cli][json]") {
  TempDir tmp;
  const auto base = tmp.path() / "lat\xe9in1";
  const auto tk = linux_toolkit(base, "12.4").string();
  const auto p = run({"path", "--cuda-path", tk, "--json"});
  CHECK(p.code == 0);
  CHECK(parse_json(p.out)["ok"] == true);
  const auto d = run({"doctor", "--cuda-path", tk, "--layer", "1", "--json"});
  CHECK(d.code != 1);
  CHECK(parse_json(d.out).is_object());
  const auto text = run({"path", "--cuda-path", tk});
  CHECK(text.code == 0);
  CHECK(text.out.find('\xe9') == std::string::npos);
  CHECK_THAT(text.out, Catch::Contains("lat\\xe9in1"));
}

TEST_CASE("usage errors honour --json wherever it stands", "[cli][json][usage]") {
  const std::vector<std::vector<std::string>> cases{
      {"doctor", "--layer", "9", "--json"},     {"doctor", "--layer", "abc", "--json"},   {"path", "--scope", "bad", "--json"},
      {"path", "--shell", "zsh", "--json"},     {"fetch", "--timeout", "abc", "9.1", "--json"}, {"inspect", "--json", "--catalog"},
      {"--json", "inspect"},                    {"--json", "bogus"}};
  for (const auto& args : cases) {
    const auto r = run(args);
    INFO(args.front() << " " << args.back());
    CHECK(r.code == 2);
    const auto doc = parse_json(r.out);
    CHECK(doc["error"]["code"] == "usage");
    CHECK(doc["error"]["exit_code"] == 2);
  }
  // --json before the command is accepted, as after it
  const auto before = run({"--json", "inspect", L91 + ".tar.xz"});
  CHECK(before.code == 0);
  CHECK(parse_json(before.out)["ok"] == true);
}

TEST_CASE("an unknown command is named, with the list of commands", "[cli][usage]") {
  const auto r = run({"bogus"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Catch::Contains("unknown command 'bogus'") && Catch::Contains("install") && Catch::Contains("doctor"));
  CHECK(r.err.find("A subcommand is required") == std::string::npos);
  CHECK(r.err.find("__probe") == std::string::npos);
}

TEST_CASE("the help text names the program", "[cli][usage]") {
  const auto top = run({"--help"});
  CHECK(top.code == 0);
  CHECK_THAT(top.out, Catch::Contains("Usage: cudnnctl [OPTIONS] SUBCOMMAND"));
  CHECK_THAT(run({"path", "--help"}).out, Catch::Contains("Usage: cudnnctl path [OPTIONS]"));
}

TEST_CASE("doctor --list-checks and --check through the binary", "[cli][doctor]") {
  const auto list = run({"doctor", "--list-checks", "--json"});
  CHECK(list.code == 0);
  const auto doc = parse_json(list.out);
  REQUIRE(doc["checks"].size() > 20);
  CHECK(doc["checks"][0]["id"] == "toolkit.found");
  const auto text = run({"doctor", "--list-checks"});
  CHECK(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("layer 3  loader") && Catch::Contains("files.receipt"));

  TempDir tmp;
  const auto tk = linux_toolkit(tmp.path() / "tk", "12.4").string();
  const auto one = run({"doctor", "--cuda-path", tk, "--check", "toolkit.found", "--json"});
  CHECK(one.code == 0);
  const auto checks = parse_json(one.out)["checks"];
  REQUIRE(checks.size() == 1);
  CHECK(checks[0]["id"] == "toolkit.found");

  const auto unknown = run({"doctor", "--cuda-path", tk, "--check", "files.nope", "--json"});
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.out, Catch::Contains("--list-checks"));
  CHECK(run({"doctor", "--check", "files.cudnn", "--layer", "2"}).code == 2);
}

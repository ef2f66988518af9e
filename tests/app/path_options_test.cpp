#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cudnnctl/app/app.hpp"
#include "cudnnctl/app/path_options.hpp"

using namespace cudnnctl;

TEST_CASE("path options: by name or by type name, other options are not", "[path_options]") {
  for (const char* n : {"--cuda-path", "--to", "--cache", "--catalog", "--log-file", "--html", "--output", "--sha256-file", "archive", "input"})
    CHECK(is_path_option(n, "TEXT"));
  CHECK(is_path_option("--bundle-dir", "DIR"));
  CHECK(is_path_option("--anything", "FILE"));
  for (const char* n : {"--sha256", "--want", "--platform", "--name-encoding", "--scope", "--path-value"}) CHECK_FALSE(is_path_option(n, "TEXT"));
}

TEST_CASE("an empty value for a path option is refused at parse time, in nested commands too, other values pass", "[path_options]") {
  CLI::App app;
  std::string cuda, name, file, archive;
  auto* sub = app.add_subcommand("bundle");
  auto* swap = sub->add_subcommand("swap");
  swap->add_option("--cuda-path", cuda);
  swap->add_option("--label", name);
  swap->add_option("--manifest", file)->type_name("FILE");
  swap->add_option("archive", archive);
  require_non_empty_paths(app);
  auto parse = [&](std::vector<std::string> args) {
    std::vector<std::string> reversed(args.rbegin(), args.rend());
    app.clear();
    app.parse(reversed);
  };
  CHECK_THROWS_AS(parse({"bundle", "swap", "--cuda-path", ""}), CLI::ValidationError);
  CHECK_THROWS_AS(parse({"bundle", "swap", "--manifest", ""}), CLI::ValidationError);
  CHECK_THROWS_AS(parse({"bundle", "swap", "--manifest="}), CLI::ParseError);  // CLI11: "1 required FILE missing", a usage error too
  CHECK_THROWS_AS(parse({"bundle", "swap", ""}), CLI::ValidationError);
  CHECK_NOTHROW(parse({"bundle", "swap", "--label", ""}));
  CHECK_NOTHROW(parse({"bundle", "swap", "--cuda-path", "/opt/cuda", "x.tar.xz"}));
  CHECK(cuda == "/opt/cuda");
}

TEST_CASE("every command: an empty --cuda-path is a usage error (exit 2), never taken as not given", "[path_options][cli]") {
  for (const char* command : {"install", "uninstall", "path", "doctor", "bench"}) {
    INFO(command);
    std::ostringstream out, err;
    std::vector<std::string> args = {command, "--cuda-path", ""};
    if (std::string(command) == "install") args.insert(args.begin() + 1, "x.tar.xz");
    CHECK(run_cli(args, out, err, false) == 2);
    CHECK_THAT(err.str(), Catch::Contains("--cuda-path") && Catch::Contains("empty"));
  }
}

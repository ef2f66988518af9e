#include <catch2/catch.hpp>

#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cudnnctl/app/app.hpp"
#include "cudnnctl/app/global_options.hpp"
#include "cudnnctl/app/path_options.hpp"
#include "cudnnctl/commands/command.hpp"

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

namespace {
// Every command's CLI definition, as run_cli builds it (the global options too).
struct AllCommands {
  std::ostringstream out, err;
  Io io{out, err, false, false, false, {}, nullptr};
  CLI::App app;
  GlobalOptions global;
  AllCommands() {
    for (const auto& spec : all_commands()) {
      auto* sub = app.add_subcommand(std::string(spec.name), std::string(spec.summary));
      if (spec.hidden) add_child_log_option(*sub, global);
      (void)spec.setup(*sub, io);
    }
    add_global_options_everywhere(app, global);
  }
};

void each_value_option(const CLI::App& app, const std::string& where, const std::function<void(const std::string&, const CLI::Option&)>& visit) {
  for (const auto* opt : app.get_options()) {
    if (opt->get_expected_max() == 0) continue;  // a flag (CLI11 gives flags a type size of 1 too)
    visit(where, *opt);
  }
  for (const auto* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    each_value_option(*sub, where + " " + sub->get_name(), visit);
}

// An option's name as is_path_option reads it: the positional's name, else its first long name.
std::string option_name(const CLI::Option& opt) {
  return opt.get_lnames().empty() ? opt.get_name(true) : "--" + opt.get_lnames().front();
}
} // namespace

TEST_CASE("every value option of every command is a path (refused empty) or named here as not one", "[path_options]") {
  // Options whose value is not a file or folder: a new option must be classified, here or by name/type
  static const std::set<std::string> not_paths = {
      "--sha256", "--name-encoding", "--threads", "version", "--platform", "--cuda", "--mirror", "--timeout", "--label", "--scope",
      "--shell", "--layer", "--check", "--target", "--path-value", "--drive", "--want", "command", "--python", "--major", "--warmup-ms", "--connections",
      "--nfd-expiry", "--slurm-node", "--fix"};
  AllCommands all;
  std::vector<std::string> unclassified;
  each_value_option(all.app, "cudnnctl", [&](const std::string& where, const CLI::Option& opt) {
    const auto name = option_name(opt);
    if (!is_path_option(name, opt.get_type_name()) && !not_paths.count(name)) unclassified.push_back(where + " " + name);
  });
  INFO("unclassified options: " << Catch::Detail::stringify(unclassified));
  CHECK(unclassified.empty());
}

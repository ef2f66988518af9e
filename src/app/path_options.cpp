#include "cudnnctl/app/path_options.hpp"

#include <array>
#include <string>

#include <CLI/CLI.hpp>

namespace cudnnctl {

bool is_path_option(std::string_view name, std::string_view type_name) {
  static constexpr std::array<std::string_view, 25> names = {
      "--cuda-path", "--to",         "--cache",  "--catalog",        "--log-file",            "--html",    "--output",
      "--sha256-file", "--events",   "--system32", "--path-file",    "--consumer",            "--root",    "--driver-library",
      "--driver-version-file", "--lib-dir", "--cudnn-library", "--site", "archive", "input", "dir", "paths",
      "--prometheus", "--nfd", "documents"};
  for (const auto n : names)
    if (n == name) return true;
  return type_name == "FILE" || type_name == "DIR" || type_name == "PATH";
}

namespace {
void add_checks(CLI::App& app) {
  // CLI11 puts the option's name before the message, except for hidden options: those name themselves
  auto non_empty = [](std::string self) {
    return CLI::Validator(
        [self](std::string& value) {
          return value.empty() ? self + "an empty value names no file or folder (was a variable unset?); give a path" : std::string();
        },
        "");
  };
  for (auto* opt : app.get_options()) {
    if (opt->get_expected_max() == 0) continue;  // a flag (CLI11 gives flags a type size of 1 too)
    bool path = is_path_option(opt->get_name(true), opt->get_type_name());  // a positional's name ("archive")
    for (const auto& l : opt->get_lnames()) path = path || is_path_option("--" + l, opt->get_type_name());
    if (path) opt->check(non_empty(opt->get_name().empty() && !opt->get_lnames().empty() ? "--" + opt->get_lnames().front() + ": " : ""));
  }
  for (auto* sub : app.get_subcommands([](CLI::App*) { return true; })) add_checks(*sub);
}
} // namespace

void require_non_empty_paths(CLI::App& app) { add_checks(app); }

} // namespace cudnnctl

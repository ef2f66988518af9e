#include "cudnnctl/app/global_options.hpp"

#include <cstdint>

#include <CLI/CLI.hpp>

namespace cudnnctl {

namespace {

void add_global_options(CLI::App& app, GlobalOptions& options) {
  app.add_flag_function(
         "-v,--verbose", [&options](std::int64_t count) { options.verbosity += static_cast<int>(count); },
         "Log what cudnnctl does to stderr (or --log-file): -v decisions and phase timings, -vv also every file read, "
         "process run, library load and HTTP request, -vvv per-item detail. Never mixed into stdout or --json")
      ->group("Global options");
  app.add_option("--log-file", options.log_file,
                 "Append the log to FILE instead of stderr (at -vv detail unless -v/-vvv says otherwise)")
      ->type_name("FILE")
      ->group("Global options");
}

void add_json_option(CLI::App& app, GlobalOptions& options) {
  app.add_flag("--json", options.json,
               "Print one JSON document on stdout, on success and on failure: the envelope of docs/json.md (schema, ok, exit_code, "
               "warnings, error) around the command's fields")
      ->group("Global options");
}

} // namespace

void add_global_options_everywhere(CLI::App& app, GlobalOptions& options) {
  add_global_options(app, options);
  add_json_option(app, options);
  for (auto* sub : app.get_subcommands([](const CLI::App*) { return true; })) add_global_options_everywhere(*sub, options);
}

void add_child_log_option(CLI::App& child_command, GlobalOptions& options) {
  child_command.add_flag("--log-to-parent", options.log_to_parent, "")->group("");
}

log::Level log_level(const GlobalOptions& options) {
  if (options.verbosity == 0 && !options.log_file.empty()) return log::Level::debug;
  return log::level_for_verbosity(options.verbosity);
}

Result<log::Session> start_log(const GlobalOptions& options, std::ostream& err) {
  if (!options.log_to_parent) return log::Session::start(log_level(options), options.log_file, err);
  if (options.log_file.empty()) return log::Session::start_for_parent(log_level(options), err);
  // a child appends to its parent's --log-file; if it cannot (the file was removed with its folder, a
  // full disk), its log goes to the parent through stderr instead of failing the probe or the workload
  auto to_file = log::Session::start(log_level(options), options.log_file, err);
  if (to_file) return to_file;
  auto relayed = log::Session::start_for_parent(log_level(options), err);
  if (relayed) log::info("this child cannot append to the log file: {}; its log comes through its stderr instead", to_file.error().message);
  return relayed;
}

} // namespace cudnnctl

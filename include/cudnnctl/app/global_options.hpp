#pragma once
// Options every command and subcommand accepts, before or after the command's words: -v/--verbose, --log-file and --json.
#include <string>

#include "cudnnctl/base/log.hpp"

namespace CLI {
class App;
}

namespace cudnnctl {

struct GlobalOptions {
  int verbosity = 0;     // how many -v were given, before and after the command's name together
  std::string log_file;  // --log-file: the log goes there instead of stderr
  bool json = false;     // --json: one JSON document on stdout (docs/json.md)
  bool log_to_parent = false;  // --log-to-parent (the child commands only): stderr carries relay lines
};

/// Adds -v/--verbose (repeatable), --log-file and --json to `app` and to every command and subcommand below
/// it (bundle list, catalog update), all writing into the same `options`: each global option is accepted
/// before or after the command's words. Call it once the commands are set up.
void add_global_options_everywhere(CLI::App& app, GlobalOptions& options);

/// Adds the hidden --log-to-parent to a child command (`__probe`, `__workload`): without --log-file, or
/// when it cannot append to that file, its log goes to stderr as relay lines its parent writes into its
/// own log (log::relay_child_log).
void add_child_log_option(CLI::App& child_command, GlobalOptions& options);

/// The log level the options ask for: one step per -v; --log-file alone logs at debug level.
log::Level log_level(const GlobalOptions& options);

/// The log session the options ask for (none when the level is off).
Result<log::Session> start_log(const GlobalOptions& options, std::ostream& err);

} // namespace cudnnctl

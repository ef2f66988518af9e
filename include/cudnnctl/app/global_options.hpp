#pragma once
// Options every command accepts, before or after the command's name: -v/--verbose and --log-file.
#include <string>

#include "cudnnctl/base/log.hpp"

namespace CLI {
class App;
}

namespace cudnnctl {

struct GlobalOptions {
  int verbosity = 0;     // how many -v were given, before and after the command's name together
  std::string log_file;  // --log-file: the log goes there instead of stderr
};

/// Adds -v/--verbose (repeatable) and --log-file to `app`; called on the program and on each command,
/// all writing into the same `options`.
void add_global_options(CLI::App& app, GlobalOptions& options);

/// The log level the options ask for: one step per -v; --log-file alone logs at debug level.
log::Level log_level(const GlobalOptions& options);

} // namespace cudnnctl

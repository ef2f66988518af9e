#pragma once
// One command = one file in src/commands + one row in the registry (registry.cpp).
#include <functional>
#include <iosfwd>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cudnnctl/base/error.hpp"

namespace CLI {
class App;
}

namespace cudnnctl {

class Catalog;

/// Where a command writes, and how. Human output goes to `out`, warnings and progress to `err`;
/// with --json a command writes exactly one JSON document to `out`.
struct Io {
  std::ostream& out;
  std::ostream& err;
  bool json = false;
  bool err_is_tty = false;  // progress bars only on a terminal
  std::vector<std::string> warnings;  // collected; human mode prints them as they come
  void warn(const std::string& text);
};

using CommandRun = std::function<Result<ExitCode>(Io&)>;

struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  /// Adds the command's options to `sub` and returns the function that runs it.
  CommandRun (*setup)(CLI::App& sub, Io& io);
  bool hidden = false;  // internal commands (the doctor's child probe) stay out of --help
};

std::span<const CommandSpec> all_commands();

/// The catalog a command uses: the file given with --catalog, else the built-in one.
Result<const Catalog*> select_catalog(const std::string& path, Catalog& storage);

} // namespace cudnnctl

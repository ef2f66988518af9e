#pragma once
// One command = one file in src/commands + one row in the registry (registry.cpp).
#include <functional>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/command_status.hpp"
#include "cudnnctl/base/error.hpp"

namespace CLI {
class App;
}

namespace cudnnctl {

class Catalog;

/// Where a command writes, and how. Human output goes to `out`, warnings and progress to `err`;
/// with --json a command hands its own fields to set_body() and the app prints them, wrapped in the one envelope
/// (commands/json_envelope.hpp), as exactly one JSON document on `out`, on success and on failure alike.
struct Io {
  Io(std::ostream& out_stream, std::ostream& err_stream, bool json_document = false, bool tty = false, bool color = false,
     std::vector<std::string> collected = {}, std::ostream* terminal = nullptr)
      : out(out_stream), err(err_stream), json(json_document), err_is_tty(tty), err_color(color), warnings(std::move(collected)),
        err_raw(terminal) {}
  std::ostream& out;
  std::ostream& err;
  bool json = false;  // --json, the one global option (app/global_options.hpp), before or after the command
  bool err_is_tty = false;  // progress bars only on a terminal
  bool err_color = false;   // and in color only where NO_COLOR is unset and the terminal takes escapes
  std::vector<std::string> warnings;  // collected; human mode prints them as they come
  // The terminal itself, for the progress line's '\r' redraws and colour; `err` is the same stream with every
  // control character of a name or a message escaped (terminal_safe). Null: `err` is used as it is.
  std::ostream* err_raw = nullptr;
  std::string schema;  // the document's schema ("cudnnctl.doctor/2"), set by the app for the command; a command may name another
  std::shared_ptr<nlohmann::json> body;  // --json: the command's own fields (set_body; a failure may leave some); null: none
  bool document_written = false;  // the command wrote its document elsewhere itself (trace --output FILE)
  void warn(const std::string& text);
  /// --json: the command's own fields, which the app prints inside the envelope.
  void set_body(nlohmann::json fields);
  /// The stream the progress line draws on (after what `err` holds was written out).
  std::ostream& progress_stream();
};

/// A command's run: an Error (its exit from the table), or its status: a documented exit (ExitCode::ok, doctor's
/// outcome) or a child's own status passed through (ChildExit). A run returning Result<ExitCode> converts.
using CommandRun = std::function<Result<CommandStatus>(Io&)>;

struct CommandSpec {
  std::string_view name;
  std::string_view summary;
  /// Adds the command's options to `sub` and returns the function that runs it.
  CommandRun (*setup)(CLI::App& sub, Io& io);
  bool hidden = false;  // internal commands (the doctor's child probe) stay out of --help
};

std::span<const CommandSpec> all_commands();

/// The catalog a command uses: the file given with --catalog, else the built-in one followed by the user
/// catalog (catalog/user_catalog.hpp) when there is one.
Result<const Catalog*> select_catalog(const std::string& path, Catalog& storage);
/// The same, but nullptr (and nothing parsed yet) when that is the built-in catalog alone: for a command that
/// needs it late and has quicker work to start first (the doctor starts its probe child before the parse).
Result<const Catalog*> select_catalog_unless_builtin(const std::string& path, Catalog& storage);

/// The catalog of one command run (the --catalog file, else the built-in one and the user catalog), read at the first get()
/// and then kept: however many steps of a command need it, the file is read and parsed once.
class CatalogSource {
public:
  explicit CatalogSource(std::string path) : m_path(std::move(path)) {}
  Result<const Catalog*> get();
  /// True when --catalog named a file (the built-in catalog costs only its first parse).
  bool from_file() const { return !m_path.empty(); }
  /// The next get() reads the catalogs again (after a manifest was added to the user catalog).
  void reload();

private:
  std::string m_path;
  std::shared_ptr<Catalog> m_storage;
  const Catalog* m_catalog = nullptr;
};

} // namespace cudnnctl

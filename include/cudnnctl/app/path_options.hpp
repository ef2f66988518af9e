#pragma once
// Options that name a file or folder (--cuda-path, --to, --cache, --catalog, --log-file, --html,
// --output, --sha256-file, the archive, ...): an empty value is a usage error, never "not given"
// (`--cuda-path "$TK"` with TK unset must not fall back to another toolkit). One rule for every command.
#include <string_view>

namespace CLI {
class App;
}

namespace cudnnctl {

/// True for an option of any command whose value is a path: by name, or by its type name (FILE, DIR,
/// PATH), so a new option declared with one of those is covered too.
bool is_path_option(std::string_view name, std::string_view type_name);

/// Adds the "not empty" check to every path option of `app` and of all its commands, nested ones too.
void require_non_empty_paths(CLI::App& app);

} // namespace cudnnctl

#pragma once
// The whole program as a function, so tests run commands in-process.
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// Runs cudnnctl with `args` (without the program name). Returns the process exit code.
int run_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err, bool err_is_tty = false,
            bool err_color = false);

/// Prints an error (human text on `err`, or with --json the envelope of schema "cudnnctl/1" on `out`); returns its exit code.
int report_error(const Error& e, bool json, std::ostream& out, std::ostream& err);

/// Prints a command's failure: human text on `err`, or, given the document's schema (--json), the one envelope
/// (commands/json_envelope.hpp) on `out` with the error, the warnings and what of its body the command left.
int report_failure(const Error& e, const std::optional<std::string>& json_schema, const std::vector<std::string>& warnings,
                   nlohmann::json body, std::ostream& out, std::ostream& err);

/// The man page (troff) and the bash completion, from the CLI definition itself.
std::string generate_manpage();
std::string generate_bash_completion();
/// The exit-code tables of docs/exit-codes.md (between its generated markers), from the one exit-code table.
std::string exit_codes_markdown();

/// "cudnnctl 0.1.0 (catalog: newest cuDNN 9.27.0, 2026-09-29; built for linux-x86_64)"
std::string version_text();

} // namespace cudnnctl

#pragma once
// The one JSON document every command prints with --json (docs/json.md): the envelope
//   {"schema": "cudnnctl.<command>/<N>", "ok", "exit_code", "warnings", [on failure] "error"}
// around the command's own fields. Every document goes through json_envelope(); docs/schemas/ holds the
// JSON Schema of each command's document.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "cudnnctl/base/error.hpp"

namespace cudnnctl {

/// The schema name of a command's document: "cudnnctl.doctor/2", "cudnnctl.bundle.list/1"; `command` is the
/// command's words joined with '.' ("bundle.list"), empty for a document of no command (a usage error
/// before one was named: "cudnnctl/1").
std::string document_schema(std::string_view command);

/// The error object of a failed command: id, message, hint, path (null when none). `code` and `exit_code`
/// repeat the id and the exit code for scripts written before the envelope.
nlohmann::json error_json(const Error& e);

/// The command's `body` wrapped in the envelope. The envelope's fields win over the body's: `ok` is true
/// exactly when `exit_code` is 0; `error` is there exactly when cudnnctl itself failed (`error` not null).
nlohmann::json json_envelope(const std::string& schema, int exit_code, const std::vector<std::string>& warnings,
                             nlohmann::json body, const Error* error);

} // namespace cudnnctl
